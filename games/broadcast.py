"""Group messages to live sockets. Every send waits for the surrounding commit."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


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
