"""Run a coroutine at once, inside the caller's turn of the event loop, without making a task for it.

Why: every table socket is pinged every 2 s (PROTOCOL.md "Fair races"), and each ping was a task
made from a timer callback only to run `send_json` down to daphne, which never waits: the task,
its scheduling and its extra turn of the loop were about a tenth of an idle socket's CPU (py-spy,
docs/performance.md). Python 3.12's eager tasks do this; this platform runs 3.11.

`run_now` steps the coroutine by hand, as `asyncio.Task` does: to its end if nothing it awaits
has to wait (the usual case), else it resumes it from the done-callback of the future it waits on
(or at the loop's next turn for a bare yield), so a coroutine that does wait still runs to the
end, in order. What it is not: a task. Nothing can cancel or await it, `asyncio.current_task()`
inside it is the caller's (None in a callback), so it is for short sends that need neither, such
as a ping. An exception it raises is logged, never raised into the caller.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class _Stepper:
    """One coroutine stepped by hand. A class, not a closure that names itself: such a closure is a
    reference cycle (the function, its own cell), so every ping left its coroutine and frame for the
    garbage collector, about 3,000 objects a second at 1,000 sockets. An instance is freed by its
    reference count as soon as nothing holds its `step` (docs/performance.md)."""

    __slots__ = ("coro", "what")

    def __init__(self, coro: Coroutine[Any, Any, Any], what: str) -> None:
        self.coro, self.what = coro, what

    def step(self, _: Any = None) -> None:
        try:
            yielded = self.coro.send(None)
        except (StopIteration, asyncio.CancelledError):
            return
        except Exception:  # noqa: BLE001 - no one awaits it: report, as an unawaited task's error would be
            log.exception("%s failed", self.what)
            return
        if yielded is None:  # a bare yield (asyncio.sleep(0)): the loop's next turn
            asyncio.get_running_loop().call_soon(self.step)
        elif getattr(yielded, "_asyncio_future_blocking", None):
            yielded._asyncio_future_blocking = False
            yielded.add_done_callback(self.step)
        else:  # not something asyncio can wait on: end it as a task would
            self.coro.close()
            log.error("%s yielded %r, which is not an asyncio future", self.what, yielded)


def run_now(coro: Coroutine[Any, Any, Any], *, what: str) -> None:
    """Run `coro` now as far as it goes without waiting, and the rest once what it awaits is done."""
    _Stepper(coro, what).step()
