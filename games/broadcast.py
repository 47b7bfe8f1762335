"""Group messages to live sockets. Every send waits for the surrounding commit."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import urllib.request
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def relay_token() -> str:
    return hmac.new(settings.SECRET_KEY.encode(), b"channel-relay", hashlib.sha256).hexdigest()


def _send(group: str, message: dict[str, Any]) -> None:
    """Send to a group; a worker of the embedded default relays to the web process.

    The in-memory channel layer lives inside one process, so a Celery worker
    (timers, bots) without Redis hands its group messages to daphne over
    loopback HTTP (`CHANNEL_RELAY_URL`, set by bin/run for the worker only).
    """
    if settings.CHANNEL_RELAY_URL:
        body = json.dumps({"group": group, "message": message}).encode()
        request = urllib.request.Request(
            settings.CHANNEL_RELAY_URL,
            data=body,
            headers={"Content-Type": "application/json", "X-Relay-Token": relay_token()},
            method="POST",
        )
        try:
            urllib.request.urlopen(request, timeout=5).read()
        except OSError as e:
            log.warning("relay to %s failed: %s", settings.CHANNEL_RELAY_URL, e)
        return
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
