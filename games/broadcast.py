"""Group messages to live sockets. Every send waits for the surrounding commit."""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def _send(group: str, message: dict[str, Any]) -> None:
    """Send to a group through this process's channel layer (settings.CHANNEL_LAYERS).

    On the embedded default a Celery worker's layer relays to the web process
    (config/relay_layer.py); code here is the same in every configuration.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    loop = server_loop()
    if loop is not None:
        # In a web process (a database_sync_to_async thread): hand the send to the server's
        # event loop and go on, so the action's thread is not held for the Redis round trips.
        # Sends leave the loop in the order they were handed over.
        asyncio.run_coroutine_threadsafe(_send_in_order(layer, group, message), loop).add_done_callback(_report(group))
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as e:  # noqa: BLE001 - the commit stands; sockets catch up by seq (gap fill, `sync`)
        log.warning("group send to %s failed: %s", group, e)


_last_send: dict[tuple[int, str], asyncio.Task[Any]] = {}


async def _send_in_order(layer: Any, group: str, message: dict[str, Any]) -> None:
    """Group sends of one process leave in the order they were handed over, per group (tasks start FIFO)."""
    key = (id(asyncio.get_running_loop()), group)
    previous, me = _last_send.get(key), asyncio.current_task()
    assert me is not None
    _last_send[key] = me
    try:
        if previous is not None and not previous.done():
            await asyncio.wait([previous])
        await layer.group_send(group, message)
    finally:
        if _last_send.get(key) is me:
            del _last_send[key]


def _report(group: str) -> Any:
    def done(future: Any) -> None:
        if not future.cancelled() and future.exception() is not None:
            log.warning("group send to %s failed: %s", group, future.exception())

    return done


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop of the ASGI server when called from one of its sync threads, else None."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() and not loop.is_closed() else None


def match_events(table_id: int, match_id: int, events: list[dict[str, Any]], state: Any) -> None:
    """New events of a match (raw; each consumer redacts them for its own socket)."""
    message = {"type": "match.events", "match": match_id, "events": events, "state": state}
    transaction.on_commit(lambda: _send(table_group(table_id), message))


def table_changed(table_id: int) -> None:
    def send() -> None:
        from games.selectors import table_payload_or_none

        payload = table_payload_or_none(table_id)
        if payload is None:
            return
        _send(table_group(table_id), {"type": "table.changed", "table": payload})
        _send(LOBBY_GROUP, {"type": "lobby.table", "table": payload})

    transaction.on_commit(send)


def table_removed(table_id: int) -> None:
    transaction.on_commit(lambda: _send(LOBBY_GROUP, {"type": "lobby.removed", "table_id": table_id}))


def chat(table_id: int, message: dict[str, Any]) -> None:
    transaction.on_commit(lambda: _send(table_group(table_id), {"type": "chat.message", "message": message}))
