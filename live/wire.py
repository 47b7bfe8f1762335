"""What arrives from outside is read here: JSON within limits, and only text the database can hold.

Every socket message and every REST body goes through `loads`; every URL and header through
`request_problem` (web.middleware). Why one place: `json.loads` raises RecursionError (not
ValueError) on deep nesting, accepts NaN and Infinity (and reads 1e999 as infinity), and turns the
escape "\\ud800" into a lone surrogate; PostgreSQL refuses NUL in text and jsonb, and a lone surrogate
cannot be encoded to UTF-8 at all. Each of those reached a query or an encoder as a 500 (REST) or a
`server_error` (socket) instead of a clear refusal with nothing applied.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

MAX_DEPTH = 32  # the deepest protocol message is 4 levels; Python's recursion limit is 1000
MAX_INT = 2**53 - 1  # I-JSON (RFC 7493): the integers every client (JavaScript included) reads exactly

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class WireError(ValueError):
    """Input refused before anything used it; `message` says why (it never echoes the bad text).

    `message_id` is the document's own top-level `id` when it parsed and that id is itself clean
    text: a client whose action carried, say, an out-of-range number learns which action was refused.
    """

    def __init__(self, message: str, message_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.message_id = message_id


def text_problem(value: str) -> str | None:
    """Why the database could not hold this text (a NUL character, a lone surrogate), or None."""
    found = _UNSTORABLE.search(value)
    if found is None:
        return None
    return "a NUL character" if found.group() == "\x00" else "a lone surrogate (not Unicode text)"


def check_text(value: str, name: str) -> None:
    """Raise WireError naming `name` when `value` is text the database cannot hold."""
    problem = text_problem(value)
    if problem is not None:
        raise WireError(f"{name} contains {problem}")


def _where(path: tuple[str | int, ...]) -> str:
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            safe = step if text_problem(step) is None else step.encode("ascii", "backslashreplace").decode()
            out += f".{safe}" if out else safe
    return out or "the value"


def check(value: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Raise WireError unless `value` (parsed JSON) nests at most `max_depth` containers deep, holds
    only storable text (keys too), finite numbers and integers within +-MAX_INT. Iterative: a deep
    value cannot exhaust the stack here."""
    stack: list[tuple[Any, int, tuple[str | int, ...]]] = [(value, 1, ())]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, dict):
            children: Any = item.items()
        elif isinstance(item, list):
            children = enumerate(item)
        else:
            _check_scalar(item, path)
            continue
        if depth > max_depth:
            raise WireError(f"{_where(path)}: nested deeper than {max_depth} levels")
        for key, child in children:
            if isinstance(key, str):
                problem = text_problem(key)
                if problem is not None:
                    raise WireError(f"{_where(path)}: a key contains {problem}")
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1, (*path, key)))
            else:
                _check_scalar(child, (*path, key))


def _check_scalar(item: Any, path: tuple[str | int, ...]) -> None:
    if isinstance(item, str):
        problem = text_problem(item)
        if problem is not None:
            raise WireError(f"{_where(path)} contains {problem}")
    elif isinstance(item, bool) or item is None:
        return
    elif isinstance(item, int):
        if not -MAX_INT <= item <= MAX_INT:
            raise WireError(f"{_where(path)}: integers are limited to +-{MAX_INT}")
    elif isinstance(item, float) and not math.isfinite(item):
        raise WireError(f"{_where(path)}: numbers must be finite")


def loads(raw: str | bytes, *, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """Parse one JSON document of at most `max_bytes` (UTF-8) and `check` it; WireError otherwise."""
    if len(raw) > max_bytes or (isinstance(raw, str) and len(raw.encode("utf-8", "surrogatepass")) > max_bytes):
        raise WireError(f"messages are limited to {max_bytes} bytes")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise WireError("not UTF-8 text") from None
    try:
        value = json.loads(raw)
    except RecursionError:
        raise WireError(f"nested deeper than {max_depth} levels") from None
    except ValueError:  # JSONDecodeError, and integers of more than 4300 digits
        raise WireError("not JSON") from None
    try:
        check(value, max_depth=max_depth)
    except WireError as e:
        own_id = value.get("id") if isinstance(value, dict) else None
        if isinstance(own_id, str) and 0 < len(own_id) <= 64 and text_problem(own_id) is None:
            e.message_id = own_id
        raise
    return value


def dumps(value: Any) -> str:
    """Compact JSON text of what the platform sends or stores (every socket frame, the action path's rows).

    orjson, not `json.dumps`: a table's every action is encoded once per socket (each seat's own
    view) and once for the database, 5-10x faster (docs/performance.md). The same JSON either
    way: keys in order, integer keys as strings (as `json.dumps` writes them); only non-ASCII text
    is written as UTF-8 rather than escaped, which every JSON reader reads the same.
    """
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
