"""The load client's own garbage collection, kept out of the latencies it measures.

The client stamps an action when it sends it and each socket's events when it
reads them, on its own event loop. A collection in the client stops that loop,
and the pause lands in the measured latency as if the server had been slow.
With 1,000 sockets holding their matches' histories, the client's default
collector paused for up to 362 ms (generation 2) and 64 ms (generation 1)
during one `tools.loadtest --tables 200 --rate 1` run: more than the p99
being measured. So, once the tables are seated, what the client has built is
frozen out of the collector's scans and the collector runs rarely; the pauses
that remain are counted and printed beside the figures, so a reader can see
what part of a tail is the client's. Rarely, not never: the histories grow for
the whole run, so a young collection every 50,000 allocations still walked
them (two or three pauses of 50-65 ms in a 30 s window); after a million there
is none in that window, and a longer run still collects its cyclic garbage.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# A young collection only after a million net allocations (the default is 700): none in a 30 s window.
THRESHOLDS = (1_000_000, 10, 10)


@dataclass
class CollectorPauses:
    """Every collection of this process within `settled`: when it began (perf_counter), its generation, its ms."""

    pauses: list[tuple[float, int, float]] = field(default_factory=list)
    _started: float = 0.0

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append((self._started, int(info["generation"]), 1000 * (time.perf_counter() - self._started)))

    def summary(self, since: float = float("-inf"), until: float = float("inf")) -> str:
        """The pauses that began between `since` and `until` (perf_counter: the measured window)."""
        ms = [m for at, _, m in self.pauses if since <= at <= until]
        where = "in the measured window" if until != float("inf") else "since the clients were set up"
        if not ms:
            return f"load client's own garbage collection {where}: no pause"
        return (
            f"load client's own garbage collection {where}: {len(ms)} pauses, "
            f"{sum(ms):.0f} ms in all, the longest {max(ms):.1f} ms"
        )


@contextlib.contextmanager
def settled() -> Iterator[CollectorPauses]:
    """Within: what the client built before is frozen, collections are rare and counted.

    On the way out the thresholds are put back and the freeze is undone (`gc.unfreeze`, which
    also thaws anything frozen before), so a benchmark run inside a test process leaves that
    process's collector collecting as before.
    """
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    watch = CollectorPauses()
    gc.callbacks.append(watch._callback)
    try:
        yield watch
    finally:
        gc.callbacks.remove(watch._callback)
        gc.set_threshold(*previous)
        gc.unfreeze()
