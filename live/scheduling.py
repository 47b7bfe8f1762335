"""Deferred work (timers, bot moves, zombie checks, tournament rounds): Celery, or what a test puts instead.

The domain never calls Celery directly: it calls `schedule` (live.bus.schedule),
so the tests can run the same deferred work deterministically on a virtual clock
(`schedule_with`, tests/support/manual_queue.py), while the integration tests
run it on a real worker.

In a web process (a thread of the ASGI server) the broker publish leaves the
action's path: `schedule` hands it to one publisher thread and returns, so an
acknowledgement never waits for the broker (Smack It! re-arms its idle timer
on every flip: a publish of about 2 ms per action, docs/performance.md).
Publishes leave that thread in the order they were handed over, each countdown
shortened by the time it queued. Nothing durable rests on the publish: a timer
is a PendingTimer row written in the action's own transaction (beat's
`sweep_timers` fires an overdue one), a lost bot plan is made again by
`sweep_bots`, as when the broker itself is away.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from celery import current_app

from live.loop import server_loop

log = logging.getLogger(__name__)

Scheduler = Callable[[str, tuple[Any, ...], float], None]

_instead: Scheduler | None = None  # a test's queue in place of Celery (schedule_with)

_publisher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="celery-publish")  # one thread: FIFO


def schedule(name: str, args: tuple[Any, ...], delay_s: float = 0.0) -> None:
    """Run task `name` (a Celery task name) with `args` after `delay_s` seconds."""
    if _instead is not None:
        _instead(name, args, delay_s)
        return
    if server_loop() is None:  # a worker, a command, a test: publish here (errors reach the caller)
        _publish(name, args, delay_s)
        return
    _publisher.submit(_publish_later, name, args, delay_s, time.monotonic())


def schedule_with(scheduler: Scheduler | None) -> None:
    """Tests: hand every scheduled task to `scheduler` (a queue run on a virtual clock) instead of Celery; None: Celery again."""
    global _instead
    _instead = scheduler


def replaced() -> bool:
    """Whether a test's scheduler stands in for Celery (held timers then go to it as well, live/local_timers.py)."""
    return _instead is not None


def _publish(name: str, args: tuple[Any, ...], delay_s: float) -> None:
    # The project's app (config/celery.py) is the current one once Django has loaded config/.
    current_app.send_task(name, args=list(args), countdown=max(0.0, delay_s))


def _publish_later(name: str, args: tuple[Any, ...], delay_s: float, handed_at: float) -> None:
    try:
        _publish(name, args, delay_s - (time.monotonic() - handed_at))
    except Exception as e:  # noqa: BLE001 - the database says what is owed; beat's sweepers do it
        log.warning("task %s %s not published: %s", name, args, e)
