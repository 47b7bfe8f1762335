"""The lean queue every open socket holds three of: FIFO, waits when empty, loses nothing to a cancelled get."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

import pytest

from live import lean_queue
from live.lean_queue import LeanQueue

pytestmark = [pytest.mark.core]


@pytest.mark.asyncio
async def test_items_come_out_in_the_order_they_went_in() -> None:
    q: LeanQueue[int] = LeanQueue()
    for i in range(5):
        q.put_nowait(i)
    await q.put(5)
    assert q.qsize() == 6 and not q.empty()
    assert [await q.get() for _ in range(6)] == [0, 1, 2, 3, 4, 5]
    assert q.empty()
    with pytest.raises(asyncio.QueueEmpty):
        q.get_nowait()


@pytest.mark.asyncio
async def test_get_waits_for_the_next_put() -> None:
    q: LeanQueue[str] = LeanQueue()
    getter = asyncio.ensure_future(q.get())
    await asyncio.sleep(0)
    assert not getter.done(), "nothing to get yet"
    q.put_nowait("a")
    q.put_nowait("b")  # a second put before the reader runs: kept for the next get
    assert await getter == "a"
    assert q.get_nowait() == "b"


@pytest.mark.asyncio
async def test_a_cancelled_get_loses_nothing() -> None:
    q: LeanQueue[str] = LeanQueue()
    getter = asyncio.ensure_future(q.get())
    await asyncio.sleep(0)
    q.put_nowait("kept")  # the waiter is woken, then the get is cancelled before it runs
    getter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await getter
    assert await asyncio.wait_for(q.get(), 1) == "kept"


@pytest.mark.asyncio
async def test_a_second_reader_at_once_is_refused() -> None:
    q: LeanQueue[int] = LeanQueue()
    first = asyncio.ensure_future(q.get())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError):
        await q.get()
    q.put_nowait(1)
    assert await first == 1


@pytest.mark.asyncio
async def test_a_tap_takes_what_it_accepts_and_the_rest_queues_in_order() -> None:
    q: LeanQueue[int] = LeanQueue()
    taken: list[int] = []

    def evens(item: int) -> bool:
        if item % 2 == 0:
            taken.append(item)
            return True
        return False

    q.put_nowait(0)  # before the tap: queued
    q.put_nowait(1)
    q.set_tap(evens)  # what is queued is offered now, in order: 0 taken, 1 declined and kept
    assert taken == [0] and q.qsize() == 1
    q.put_nowait(2)  # something is queued before it: not offered, queued behind 1
    assert taken == [0] and q.qsize() == 2
    assert [q.get_nowait(), q.get_nowait()] == [1, 2]
    q.put_nowait(4)  # nothing queued: the tap takes it, no reader is woken
    getter = asyncio.ensure_future(q.get())
    await asyncio.sleep(0)
    q.put_nowait(6)
    await asyncio.sleep(0)
    assert not getter.done() and taken == [0, 4, 6]
    q.put_nowait(7)
    assert await asyncio.wait_for(getter, 1) == 7
    q.set_tap(None)
    q.put_nowait(8)
    assert q.get_nowait() == 8 and taken == [0, 4, 6]


def test_a_failing_tap_queues_the_item() -> None:
    q: LeanQueue[int] = LeanQueue()

    def broken(item: int) -> bool:
        raise ValueError("tap bug")

    q.set_tap(broken)
    q.put_nowait(1)
    assert q.get_nowait() == 1


def test_it_is_small() -> None:
    import sys

    assert not hasattr(LeanQueue(), "__dict__")
    assert sys.getsizeof(LeanQueue()) + sys.getsizeof([]) < sys.getsizeof(asyncio.Queue().__dict__)


class _Server:
    """What `create_application` touches of daphne's Server."""

    def __init__(self) -> None:
        self.connections: dict[Any, dict[str, Any]] = {}
        self.seen: list[Any] = []

    def application(self, *, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        self.seen.append(receive)

        async def app() -> None:
            return None

        return app()

    async def handle_reply(self, protocol: Any, message: dict[str, Any]) -> None:
        return None


@pytest.mark.asyncio
async def test_daphne_gives_a_websocket_a_lean_queue_and_http_its_own() -> None:
    from daphne.server import Server

    original = Server.create_application
    try:
        lean_queue.install_in_daphne()
        assert lean_queue.installed_in_daphne()
        server = _Server()
        ws, http = object(), object()
        server.connections = {ws: {}, http: {}}
        create = partial(Server.create_application, server)
        ws_queue = create(ws, {"type": "websocket"})
        http_queue = create(http, {"type": "http"})
        assert isinstance(ws_queue, LeanQueue) and isinstance(http_queue, asyncio.Queue)
        assert server.seen == [ws_queue.get, http_queue.get]
        for protocol in (ws, http):
            await server.connections[protocol]["application_instance"]
    finally:
        Server.create_application = original  # type: ignore[method-assign]
