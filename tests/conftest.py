"""Shared fixtures: the test-only game, the manual scheduler and a virtual clock."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from games.kit import registry
from live import heartbeat, scheduling
from tests.support import tinygame
from tests.support.manual_queue import MANUAL


@pytest.fixture(scope="session", autouse=True)
def _short_lived_connections() -> None:
    """Consumer threads must not keep connections open past a test (PostgreSQL drops the test DB at the end)."""
    from django.db import connections

    connections.settings["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture(scope="session", autouse=True)
def _sockets_read_as_daphne_reads_them() -> Iterator[None]:
    """Test sockets get daphne's input queue, a LeanQueue (live/lean_queue.install_in_daphne), not asgiref's asyncio.Queue.

    So the consumers under test take frames as under daphne (a table socket taps them).
    """
    from asgiref.testing import ApplicationCommunicator

    from live.lean_queue import LeanQueue

    original = ApplicationCommunicator.input_queue

    def input_queue(self: ApplicationCommunicator) -> Any:
        if self._input_queue is None and self.scope.get("type") == "websocket":
            self._input_queue = LeanQueue()
        return original.fget(self)  # type: ignore[attr-defined]

    ApplicationCommunicator.input_queue = property(input_queue)  # type: ignore[method-assign,assignment]
    yield
    ApplicationCommunicator.input_queue = original  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """After each test, no PostgreSQL pool connection may stay checked out: start the next one on a fresh pool.

    Each asyncio test runs on an event loop of its own, whose executor threads end with it. Now and
    then (more often under load) a consumer's database call on such a thread (seen: `_hello`) leaves
    its pooled connection checked out when the thread ends, and the pool never gets it back; a few
    hundred socket tests then exhaust the pool (16) and later tests time out waiting for it. Why the
    connection outlives channels' close_old_connections there is not found yet; a web process keeps
    one loop and its threads for its life. Nothing runs between tests, so a connection still checked
    out here is one of those: a fresh pool keeps one test's leak from failing the next.
    """
    from live import async_db

    # The event loop's fast-path connections (live/async_db.py), before the test's own teardown: left open
    # until after it, that teardown took 5 s and the test database could not be dropped at the end.
    async_db.close_all()
    result = yield
    from django.db import connections

    try:
        asyncio.get_running_loop()
        return result  # a loop runs in this thread (Playwright's, in browser modules): no database calls here
    except RuntimeError:
        pass
    wrapper = connections["default"]
    pool = getattr(wrapper, "_connection_pools", {}).get(wrapper.alias) if wrapper.vendor == "postgresql" else None
    if pool is not None:
        connections.close_all()  # this thread's own connection goes back first
        stats = pool.get_stats()
        if stats.get("pool_size", 0) > stats.get("pool_available", 0):
            wrapper.close_pool()
    return result


@pytest.fixture(autouse=True)
def _platform(settings: Any) -> Iterator[None]:
    scheduling.schedule_with(MANUAL.push)
    # No round-trip pings unless a test asks (tests/games/test_latency.py): most socket tests read a fixed order.
    settings.WS_PING_SECONDS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # With REDIS_URL set the consumer tests run on the real Redis channel layer.
    registry.register(tinygame.RULES, tinygame.BOT)
    MANUAL.clear()
    MANUAL.clock_s = 0.0
    heartbeat.reset()  # sockets an earlier test left open belong to its event loop and database
    yield
    MANUAL.clear()
    scheduling.schedule_with(None)
    registry.unregister("tiny")


class Clock:
    """Moves `timezone.now` so match time (now_ms) advances without sleeping."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.base = timezone.now()
        self.offset = 0.0
        monkeypatch.setattr(timezone, "now", self.now)

    def now(self) -> dt.datetime:
        return self.base + dt.timedelta(seconds=self.offset)

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def run_jobs(clock: Clock | None = None, until_s: float | None = None, max_jobs: int = 10_000) -> int:
    """Run scheduled jobs in due order, moving the clock to each job's time."""
    from games import tasks

    names = {
        "games.fire_timer": tasks.fire_timer,
        "games.plan_bots": tasks.plan_bots,
        "games.bot_act": tasks.bot_act,
        "games.zombie_check": tasks.zombie_check,
        "games.sweep_presence": tasks.sweep_presence,
        "games.match_finished": tasks.match_finished,
        "games.sweep_timers": tasks.sweep_timers,
        "games.sweep_bots": tasks.sweep_bots,
    }
    from tournaments.tasks import TASKS as TOURNAMENT_TASKS

    names.update(TOURNAMENT_TASKS)
    ran = 0
    while ran < max_jobs:
        job = MANUAL.jobs[0] if MANUAL.jobs else None
        if job is None or (until_s is not None and job.due_s > until_s):
            break
        MANUAL.pop()
        if clock is not None and job.due_s > MANUAL.clock_s:
            clock.advance(job.due_s - MANUAL.clock_s)
        MANUAL.clock_s = max(MANUAL.clock_s, job.due_s)
        task = names.get(job.name)
        if task is None:  # a task another app registered by name (stats.match_finished, ...)
            from config.celery import app

            task = app.tasks[job.name]
        task(*job.args)
        ran += 1
    return ran

