"""autobahn's debug lines, formatted only when a debug line is written.

Why: autobahn logs every frame it reads and every write at debug level, and builds the
arguments first: `hltype(self.sendData)` (the method's qualified name, coloured by
`click.style`) and `hlval(...)` for each, whether or not debug is on. In a daphne holding
2,000 idle table sockets that was about a tenth of its CPU (py-spy, docs/performance.md):
two frames a socket every 2 s (the ping and its pong), each paying for text nobody reads.

`install` swaps the two helpers, in the autobahn modules on the frame path, for ones that
return a placeholder formatting to the very same text when (and only if) the logger formats
the line. Debug output is unchanged when autobahn's debug logging is on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_MODULES = ("autobahn.websocket.protocol", "autobahn.twisted.websocket")


class _Deferred:
    """`fn(*args, **kwargs)`'s text, made when the log line is formatted."""

    __slots__ = ("args", "fn", "kwargs")

    def __init__(self, fn: Callable[..., str], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.fn, self.args, self.kwargs = fn, args, kwargs

    def __str__(self) -> str:
        return self.fn(*self.args, **self.kwargs)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    __repr__ = __str__


def deferred(fn: Callable[..., str]) -> Callable[..., _Deferred]:
    def later(*args: Any, **kwargs: Any) -> _Deferred:
        return _Deferred(fn, args, kwargs)

    later.wrapped = fn  # type: ignore[attr-defined]
    return later


def install() -> None:
    """Defer autobahn's `hltype` and `hlval` in the modules of its frame path (idempotent)."""
    import importlib

    from autobahn import util

    for name in _MODULES:
        module = importlib.import_module(name)
        for helper in ("hltype", "hlval"):
            if getattr(module, helper, None) is getattr(util, helper):
                setattr(module, helper, deferred(getattr(util, helper)))


def installed() -> bool:
    import importlib

    return all(hasattr(importlib.import_module(name).hltype, "wrapped") for name in _MODULES)
