"""The tests' scheduler: deferred work waits on a queue until a test runs it (tests/conftest.py `run_jobs`).

Installed for every test by `tests/conftest.py` through `live.scheduling.schedule_with`, so
the deferred work of an action runs deterministically on a virtual clock.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any


@dataclass(order=True)
class Job:
    due_s: float
    order: int
    name: str = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)


class ManualQueue:
    """Jobs waiting for a test to run them; `clock_s` is the virtual time they were scheduled at."""

    def __init__(self) -> None:
        self.jobs: list[Job] = []
        self.clock_s = 0.0
        self._order = itertools.count()

    def push(self, name: str, args: tuple[Any, ...], delay_s: float) -> None:
        heapq.heappush(self.jobs, Job(self.clock_s + max(0.0, delay_s), next(self._order), name, args))

    def pop(self) -> Job | None:
        return heapq.heappop(self.jobs) if self.jobs else None

    def clear(self) -> None:
        self.jobs.clear()


MANUAL = ManualQueue()
