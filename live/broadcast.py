"""Group messages to live sockets. Every send waits for the surrounding commit."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from live.loop import database_sync_to_async, server_loop

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"

TablePayload = Callable[[int], "dict[str, Any] | None"]
_table_payload: TablePayload | None = None


def table_payload_from(read: TablePayload) -> None:
    """The domain's read of a table's public payload (None: gone), for `table.changed` (live.bus.serve)."""
    global _table_payload
    _table_payload = read


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def send(group: str, message: dict[str, Any], here: frozenset[str] = frozenset()) -> None:
    """Send to a group through this process's channel layer (settings.CHANNEL_LAYERS).

    On the embedded default a Celery worker's layer relays to the web process
    (live/relay_layer.py); code here is the same in every configuration.
    `here`: channels of this process that have the message already (live/local_sockets.py),
    skipped by a layer that can (live/pubsub_layer.py); any other delivers to them too and
    their seq check drops it.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    loop = server_loop()
    if loop is not None:
        # In a web process (a database_sync_to_async thread): hand the send to the server's
        # event loop and go on, so the action's thread is not held for the Redis round trips.
        # Sends leave the loop in the order they were handed over.
        asyncio.run_coroutine_threadsafe(_send_in_order(layer, group, message, here), loop).add_done_callback(_report(group))
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as e:  # noqa: BLE001 - the commit stands; sockets catch up by seq (gap fill, `sync`)
        log.warning("group send to %s failed: %s", group, e)


def send_on_commit(group: str, message: dict[str, Any]) -> None:
    """`send` once the surrounding transaction commits (at once outside one); nothing for a rollback."""
    transaction.on_commit(lambda: send(group, message))


_last_send: dict[tuple[int, str], asyncio.Task[Any]] = {}


async def _send_in_order(layer: Any, group: str, message: dict[str, Any], here: frozenset[str] = frozenset()) -> None:
    """Group sends of one process leave in the order they were handed over, per group (tasks start FIFO)."""
    key = (id(asyncio.get_running_loop()), group)
    previous, me = _last_send.get(key), asyncio.current_task()
    assert me is not None
    _last_send[key] = me
    try:
        if previous is not None and not previous.done():
            await asyncio.wait([previous])
        if here and hasattr(layer, "group_send_except"):
            await layer.group_send_except(group, message, here)
        else:
            await layer.group_send(group, message)
    finally:
        if _last_send.get(key) is me:
            del _last_send[key]


def _report(group: str) -> Any:
    def done(future: Any) -> None:
        if not future.cancelled() and future.exception() is not None:
            log.warning("group send to %s failed: %s", group, future.exception())

    return done


def match_events_message(match_id: int, events: list[dict[str, Any]], state: Any) -> dict[str, Any]:
    """The `match.events` group message (raw: each consumer redacts it for its own socket)."""
    return {"type": "match.events", "match": match_id, "events": events, "state": state}


def match_events(
    table_id: int, match_id: int, events: list[dict[str, Any]], state: Any, *, committed: bool = False,
    here: frozenset[str] = frozenset(),
) -> None:
    """New events of a match (raw; each consumer redacts them for its own socket).

    `committed`: the events are committed already, outside Django's transactions (the event
    loop's fast path, live/async_db.py): sent now instead of on Django's commit. `here`: this
    process's channels that have them already (live/local_sockets.py), not sent them again.
    """
    message = match_events_message(match_id, events, state)
    if committed:
        send(table_group(table_id), message, here)
        return
    transaction.on_commit(lambda: send(table_group(table_id), message))


def table_changed(table_id: int) -> None:
    read = _table_payload
    assert read is not None, "the domain serves the table payload at app ready (live.bus.serve)"

    def send_payload() -> None:
        payload = read(table_id)
        if payload is None:
            return
        send(table_group(table_id), {"type": "table.changed", "table": payload})
        send(LOBBY_GROUP, {"type": "lobby.table", "table": payload})

    transaction.on_commit(send_payload)


ROUND_TRIPS_GAP_S = 10.0
"""A table hears of its players' round trips moving at most once per this gap (from one web process)."""

_round_trips_next: dict[int, tuple[float, bool]] = {}  # table -> (loop time the next may go, one is waiting)


def table_round_trips_changed(table_id: int, *, committed: bool = False) -> None:
    """A stored round trip of the table moved: the table message, at most once per ROUND_TRIPS_GAP_S.

    Every player's round trip is on the table page, and each message is the whole table
    payload (a few queries) sent to every socket of the table: one per round trip written
    was most of a busy web process's time (docs/performance.md). The first goes at once;
    what moves within the gap goes in one message at its end, which reads every round
    trip as it then stands. Outside a web process: at once, as any table change.
    `committed`: written outside Django's transactions, from the event loop itself.
    """
    loop = server_loop()
    if loop is None:
        table_changed(table_id)
        return
    if committed:
        _round_trips_soon(loop, table_id)
        return
    transaction.on_commit(lambda: loop.call_soon_threadsafe(_round_trips_soon, loop, table_id, context=contextvars.Context()))


def _round_trips_soon(loop: asyncio.AbstractEventLoop, table_id: int) -> None:
    next_at, waiting = _round_trips_next.get(table_id, (0.0, False))
    if waiting:
        return  # the message at the end of the gap carries this one too
    if loop.time() >= next_at:
        _round_trips_send(loop, table_id)
        return
    _round_trips_next[table_id] = (next_at, True)
    loop.call_at(next_at, _round_trips_send, loop, table_id)


def _round_trips_send(loop: asyncio.AbstractEventLoop, table_id: int) -> None:
    now = loop.time()
    _round_trips_next[table_id] = (now + ROUND_TRIPS_GAP_S, False)
    if len(_round_trips_next) > 10_000:
        for key in [k for k, (at, waiting) in _round_trips_next.items() if at < now and not waiting]:
            del _round_trips_next[key]
    task = loop.create_task(database_sync_to_async(table_changed)(table_id), name=f"round trips of table {table_id}")
    _sending.add(task)
    task.add_done_callback(_round_trips_done)


_sending: set[asyncio.Task[Any]] = set()


def _round_trips_done(task: asyncio.Task[Any]) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.warning("the round trips of a table were not sent: %s", task.exception())


def table_removed(table_id: int) -> None:
    transaction.on_commit(lambda: send(LOBBY_GROUP, {"type": "lobby.removed", "table_id": table_id}))


def chat(table_id: int, message: dict[str, Any]) -> None:
    transaction.on_commit(lambda: send(table_group(table_id), {"type": "chat.message", "message": message}))
