"""The live tournament sockets: the whole tournament on connect and after each change; a player's
own socket hears when a round seats them."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from tests.games.factories import user
from tests.tournaments.factories import bot_tournament
from tournaments import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def next_of(comm: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        if msg["type"] == kind:
            return msg


async def test_live_page_gets_the_tournament_and_every_change() -> None:
    t = await database_sync_to_async(bot_tournament)("swiss", 3, table_size=2, rounds=1)
    ana = await database_sync_to_async(user)("ana")
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{t.pk}/")
    assert (await comm.connect())[0]
    first = await next_of(comm, "tournament")
    assert first["tournament"]["id"] == t.pk and len(first["tournament"]["players"]) == 3
    await database_sync_to_async(services.tournament_register)(tournament_id=t.pk, user=ana)
    update = await next_of(comm, "tournament")
    assert [p["username"] for p in update["tournament"]["players"]][-1] == "ana"
    await database_sync_to_async(services.tournament_start)(tournament_id=t.pk, by=t.organiser)
    update = await next_of(comm, "tournament")
    assert update["tournament"]["status"] == "running" and len(update["tournament"]["rounds"][0]["tables"]) == 2
    await comm.send_json_to({"type": "act"})
    assert (await next_of(comm, "error"))["code"] == "bad_message"  # read-only, and still open
    await comm.disconnect()


async def test_unknown_tournament_closes_the_socket() -> None:
    comm = WebsocketCommunicator(application, "/ws/tournaments/999999/")
    connected, _ = await comm.connect()
    assert not connected or (await comm.receive_output(timeout=2))["type"] == "websocket.close"


async def test_a_player_hears_from_any_page_that_their_table_is_ready() -> None:
    t = await database_sync_to_async(bot_tournament)("swiss", 1, table_size=2, rounds=1)
    ana = await database_sync_to_async(user)("ana")
    token = await database_sync_to_async(token_for)(user=ana)
    await database_sync_to_async(services.tournament_register)(tournament_id=t.pk, user=ana)
    mine = WebsocketCommunicator(application, f"/ws/tournaments/mine/?token={token}")
    assert (await mine.connect())[0]
    anonymous = WebsocketCommunicator(application, "/ws/tournaments/mine/")
    connected, _ = await anonymous.connect()
    assert not connected or (await anonymous.receive_output(timeout=2))["type"] == "websocket.close"
    await database_sync_to_async(services.tournament_start)(tournament_id=t.pk, by=t.organiser)
    seated = (await next_of(mine, "seated"))["seated"]
    assert seated["tournament"] == t.pk and seated["round"] == 1 and seated["url"] == f"/tables/{seated['table']}/"
    await mine.disconnect()
