"""A small FIFO for one consumer at a time: each open socket holds three, so their size is the socket's size.

Why: an `asyncio.Queue` is four `collections.deque`s (its items, getters, putters and
the `join` event's waiters) of about 760 bytes each even when empty, 3 KB a queue.
Every open socket had three that are only ever put to without waiting and read by
one task: daphne's input queue of the application instance, the channel layer's
queue of the socket's own channel, and the socket's inbox. tracemalloc on a daphne
holding 300 idle sockets put those queues at about a fifth of the memory a socket
costs (docs/performance.md). This one is a list and, only while its reader waits,
a future: about 150 bytes.

What it keeps of `asyncio.Queue`: items come out in the order they were put; `get`
waits while it is empty; a `get` cancelled while waiting loses nothing (an item is
taken only by a `get` that returns it); `put_nowait` never blocks (unbounded, as
all three callers use theirs). What it drops: `maxsize`, `join`/`task_done`, several
readers at once (a second concurrent `get` is refused rather than served unfairly).

What it adds: a *tap* (`set_tap`), which its reader may install to take an item as it is put,
before anything waits on it. daphne puts a socket's every frame here from inside Twisted's read
callback; Channels' reader then wakes a task, `asyncio.wait`s over the socket's two receive tasks,
dispatches, and makes a new task for the next frame: about a third of an idle socket's CPU (its
pings' pongs, docs/performance.md). A table socket taps its frames straight into its own inbox
instead. Order is kept: the tap only sees an item when nothing is queued before it, and an item it
declines (returns False) is queued as before, with everything after it behind it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any, Generic, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)


class LeanQueue(Generic[T]):
    __slots__ = ("_items", "_tap", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None
        self._tap: Callable[[T], bool] | None = None

    def set_tap(self, tap: Callable[[T], bool] | None) -> None:
        """Offer every item put from now on to `tap` first (None: no tap); what is queued already is offered now, in order.

        `tap(item)` returns True when it took the item (it is not queued). It must not block;
        if it raises, the item is queued as if there were no tap (and the error logged).
        """
        self._tap = tap
        if tap is None:
            return
        items, self._items = self._items, []
        for i, item in enumerate(items):
            if not self._offer(tap, item):
                self._items = items[i:]
                break

    def _offer(self, tap: Callable[[T], bool], item: T) -> bool:
        try:
            return bool(tap(item))
        except Exception:  # noqa: BLE001 - the putter (daphne's read callback) must never see it
            log.exception("a queue's tap failed; the item is queued instead")
            return False

    def put_nowait(self, item: T) -> None:
        tap = self._tap
        if tap is not None and not self._items and self._offer(tap, item):
            return
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

    if Server.create_application is not _create_application:
        # What it replaces, for inspect.unwrap: tests/live/test_upstream_patches.py fingerprints daphne's own.
        _create_application.__wrapped__ = Server.create_application  # type: ignore[attr-defined]
    Server.create_application = _create_application  # type: ignore[method-assign]


def installed_in_daphne() -> bool:
    from daphne.server import Server

    return Server.create_application is _create_application
