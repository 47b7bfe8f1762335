"""A small FIFO for one consumer at a time: each open socket holds three, so their size is the socket's size.

Why: an `asyncio.Queue` is four `collections.deque`s (its items, getters, putters and
the `join` event's waiters) of about 760 bytes each even when empty, 3 KB a queue.
Every open socket had three that are only ever put to without waiting and read by
one task: daphne's input queue of the application instance, the channel layer's
queue of the socket's own channel, and the socket's inbox. tracemalloc on a daphne
holding 300 idle sockets put those queues at about a fifth of the memory a socket
costs (README "Performance"). This one is a list and, only while its reader waits,
a future: about 150 bytes.

What it keeps of `asyncio.Queue`: items come out in the order they were put; `get`
waits while it is empty; a `get` cancelled while waiting loses nothing (an item is
taken only by a `get` that returns it); `put_nowait` never blocks (unbounded, as
all three callers use theirs). What it drops: `maxsize`, `join`/`task_done`, several
readers at once (a second concurrent `get` is refused rather than served unfairly).
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class LeanQueue(Generic[T]):
    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def put(self, item: T) -> None:
        self.put_nowait(item)

    def get_nowait(self) -> T:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    async def get(self) -> T:
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("LeanQueue has one reader at a time")
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items


def _create_application(self: Any, protocol: Any, scope: dict[str, Any]) -> Any:
    """daphne 4's `Server.create_application`, with a `LeanQueue` as a WebSocket's input queue.

    An HTTP request keeps `asyncio.Queue`: it lives for one response, and Django's handler
    is not held to one reader at a time.
    """
    assert "application_instance" not in self.connections[protocol]
    input_queue: Any = LeanQueue() if scope.get("type") == "websocket" else asyncio.Queue()
    scope.setdefault("asgi", {"version": "3.0"})
    application_instance = self.application(scope=scope, receive=input_queue.get, send=partial(self.handle_reply, protocol))
    if protocol not in self.connections:
        return None
    self.connections[protocol]["application_instance"] = asyncio.ensure_future(application_instance, loop=asyncio.get_event_loop())
    return input_queue


def install_in_daphne() -> None:
    """Give every WebSocket application instance daphne creates from now on a `LeanQueue` (idempotent).

    daphne only calls `put_nowait` on it and hands `get` to the application as `receive`.
    """
    from daphne.server import Server

    Server.create_application = _create_application  # type: ignore[method-assign]


def installed_in_daphne() -> bool:
    from daphne.server import Server

    return Server.create_application is _create_application
