"""A view's public part built once per state: the last one, per thread, never on the shared rules object.

Why: after every commit the platform asks for one view per seat of the *same* state object (a
process's sockets for one table receive the one state it committed), and the part every seat sees
alike is most of the work. A game used to keep that last result on its module-level `RULES` object,
which every match and every thread shares.

Why this is safe across threads and matches: the memo lives in a `threading.local`, so a thread
reads only what it wrote itself (no interleaving between the check and the store matters); it is
keyed by the identity of the state and holds a strong reference to it, so the id cannot be reused by
another state while the entry lives; and states are never changed in place (every fold copies), so
the same object always has the same public part, whichever match it belongs to. It is bounded: one
entry per decorated function and thread. A caller may change only a copy of what it gets.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")


def last_state(fn: Callable[[Any, Any], R]) -> Callable[[Any, Any], R]:
    """Memoise `fn(self, state)` for the last `state` this thread asked about (by identity)."""
    local = threading.local()

    @functools.wraps(fn)
    def wrapper(self: Any, state: Any) -> R:
        last = getattr(local, "last", None)
        if last is not None and last[0] is state:
            return last[1]
        out = fn(self, state)
        local.last = (state, out)
        return out

    return wrapper
