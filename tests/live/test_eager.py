"""`run_now`: a coroutine run without a task, at once when nothing it awaits waits, in order when something does."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref

import pytest

from live.eager import run_now

pytestmark = [pytest.mark.core]


@pytest.mark.asyncio
async def test_a_coroutine_that_never_waits_has_run_when_run_now_returns() -> None:
    seen: list[str] = []

    async def inner() -> str:
        return "sent"

    async def send() -> None:
        seen.append(await inner())

    run_now(send(), what="a send")
    assert seen == ["sent"]  # no turn of the loop was needed


@pytest.mark.asyncio
async def test_a_coroutine_that_waits_is_resumed_once_the_future_is_done_and_finishes_in_order() -> None:
    seen: list[object] = []
    gate: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def send() -> None:
        seen.append("before")
        seen.append(await gate)
        await asyncio.sleep(0)  # a bare yield: the next turn
        seen.append("after")

    run_now(send(), what="a send")
    assert seen == ["before"]
    gate.set_result(7)
    for _ in range(5):
        await asyncio.sleep(0)
    assert seen == ["before", 7, "after"]


@pytest.mark.asyncio
async def test_an_error_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def fails_at_once() -> None:
        raise ValueError("closed")

    async def fails_later() -> None:
        await gate
        raise ValueError("closed later")

    with caplog.at_level(logging.ERROR, logger="live.eager"):
        run_now(fails_at_once(), what="a ping")
        run_now(fails_later(), what="a late ping")
        gate.set_result(None)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    assert [r.getMessage() for r in caplog.records] == ["a ping failed", "a late ping failed"]


@pytest.mark.asyncio
async def test_a_cancelled_wait_ends_it_quietly(caplog: pytest.LogCaptureFixture) -> None:
    gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    reached: list[bool] = []

    async def send() -> None:
        await gate
        reached.append(True)

    with caplog.at_level(logging.ERROR):
        run_now(send(), what="a send")
        gate.cancel()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    assert reached == [] and not caplog.records


@pytest.mark.asyncio
@pytest.mark.parametrize("waits", [False, True])
async def test_a_finished_coroutine_is_freed_at_once_not_left_to_the_collector(waits: bool) -> None:
    """Every socket's ping runs through `run_now`: a reference cycle per call was cyclic garbage
    for the collector, about 3,000 objects a second at 1,000 sockets (docs/performance.md)."""
    gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def send() -> None:
        if waits:
            await gate
            await asyncio.sleep(0)

    coro = send()
    gone = weakref.ref(coro)
    gc.disable()
    try:
        run_now(coro, what="a send")
        del coro
        if waits:
            assert gone() is not None  # still waiting: held by the future's callback
            gate.set_result(None)
            for _ in range(3):
                await asyncio.sleep(0)
        assert gone() is None  # freed by its reference count alone
    finally:
        gc.enable()
