"""A match made by the queue is told on each player's lobby socket (`ws/lobby/`, group `user-<id>`)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from games.models import Table
from tests.games.factories import user
from tests.moderation.factories import client


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_match_made_is_told_on_each_players_lobby_socket() -> None:
    ada, bea, cy = [await database_sync_to_async(user)(n) for n in ("ada", "bea", "cy")]
    tokens = [await database_sync_to_async(token_for)(user=u) for u in (ada, bea, cy)]
    sockets = []
    for token in tokens:
        comm = WebsocketCommunicator(application, f"/ws/lobby/?token={token}")
        assert (await comm.connect())[0]
        sockets.append(comm)
    await asyncio.sleep(0.1)
    for u in (ada, bea):
        r = await database_sync_to_async(lambda u=u: client(u).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json"))()
        assert r.status_code == 201
    table = await database_sync_to_async(lambda: Table.objects.get())()

    async def matched(comm: WebsocketCommunicator) -> dict[str, Any]:
        while True:
            msg = await comm.receive_json_from(timeout=5)
            if msg["type"] == "matched":
                return msg

    for comm in sockets[:2]:
        assert await matched(comm) == {"type": "matched", "table": table.pk}
    # cy did not queue: lobby news only, never a match (read until quiet: a timed-out receive ends the socket)
    while not await sockets[2].receive_nothing(timeout=0.5):
        assert (await sockets[2].receive_json_from(timeout=5))["type"] != "matched"
    for comm in sockets:
        await comm.disconnect()
