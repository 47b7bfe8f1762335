"""Deferred work (timers, bot moves, zombie checks): Celery in production, a queue in tests.

Services never call Celery directly: they call `schedule`, so the tests can
run the same deferred work deterministically on a virtual clock, while the
integration tests run it on a real worker.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings


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


def schedule(name: str, args: tuple[Any, ...], delay_s: float = 0.0) -> None:
    """Run task `name` (a Celery task name) with `args` after `delay_s` seconds."""
    if settings.PLATFORM_SCHEDULER == "manual":
        MANUAL.push(name, args, delay_s)
        return
    from config.celery import app

    app.send_task(name, args=list(args), countdown=max(0.0, delay_s))
