"""Deferred work (timers, bot moves, zombie checks): Celery in production, a queue in tests.

Services never call Celery directly: they call `schedule`, so the tests can
run the same deferred work deterministically on a virtual clock, while the
integration tests run it on a real worker.

In a web process (a thread of the ASGI server) the broker publish leaves the
action's path: `schedule` hands it to one publisher thread and returns, so an
acknowledgement never waits for the broker (Smack It! re-arms its idle timer
on every flip: a publish of about 2 ms per action, README "Performance").
Publishes leave that thread in the order they were handed over, each countdown
shortened by the time it queued. Nothing durable rests on the publish: a timer
is a PendingTimer row written in the action's own transaction (beat's
`sweep_timers` fires an overdue one), a lost bot plan is made again by
`sweep_bots`, as when the broker itself is away.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)


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


_publisher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="celery-publish")  # one thread: FIFO


def schedule(name: str, args: tuple[Any, ...], delay_s: float = 0.0) -> None:
    """Run task `name` (a Celery task name) with `args` after `delay_s` seconds."""
    if settings.PLATFORM_SCHEDULER == "manual":
        MANUAL.push(name, args, delay_s)
        return
    from games.broadcast import server_loop

    if server_loop() is None:  # a worker, a command, a test: publish here (errors reach the caller)
        _publish(name, args, delay_s)
        return
    _publisher.submit(_publish_later, name, args, delay_s, time.monotonic())


def _publish(name: str, args: tuple[Any, ...], delay_s: float) -> None:
    from config.celery import app

    app.send_task(name, args=list(args), countdown=max(0.0, delay_s))


def _publish_later(name: str, args: tuple[Any, ...], delay_s: float, handed_at: float) -> None:
    try:
        _publish(name, args, delay_s - (time.monotonic() - handed_at))
    except Exception as e:  # noqa: BLE001 - the database says what is owed; beat's sweepers do it
        log.warning("task %s %s not published: %s", name, args, e)
