"""A block at the table: neither player joins a table the other hosts (409), and the blocked player's chat
never reaches the blocker's table socket (everyone else still reads it)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from accounts.services import token_for
from config.asgi import application
from games.services.tables import table_create, table_join
from people.models import Block
from tests.games.factories import user
from tests.people.sockets import heard


def api_as(token: str) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return c


@pytest.mark.django_db
@pytest.mark.parametrize("who_blocks", ["host", "joiner"])
def test_neither_joins_a_table_the_other_hosts(who_blocks: str) -> None:
    ana, bob, cem = user("ana"), user("bob"), user("cem")
    table = table_create(host=ana, game="tiny", seats=3)
    if who_blocks == "host":
        Block.objects.create(blocker=ana, blocked=bob)
    else:
        Block.objects.create(blocker=bob, blocked=ana)
    r = api_as(token_for(user=bob)).post(f"/api/tables/{table.pk}/join/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "blocked" and "block" in r.json()["detail"]
    assert list(table.seat_set.values_list("user__username", flat=True)) == ["ana"]
    assert api_as(token_for(user=cem)).post(f"/api/tables/{table.pk}/join/", {}, format="json").status_code == 200
    bobs = table_create(host=bob, game="tiny", seats=2)
    r = api_as(token_for(user=ana)).post(f"/api/tables/{bobs.pk}/join/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "blocked"


async def _socket(table_id: int, token: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/?token={token}")
    assert (await comm.connect())[0]
    assert (await comm.receive_json_from(timeout=5))["type"] == "hello"
    return comm


async def _chats(comm: WebsocketCommunicator) -> list[tuple[str, str]]:
    return [(m["message"]["user"], m["message"]["text"]) for m in await heard(comm, "chat")]


@database_sync_to_async
def _table_of_three() -> tuple[Any, dict[str, str]]:
    ana, bob, cem = user("ana"), user("bob"), user("cem")
    table = table_create(host=cem, game="tiny", seats=3)
    for u in (ana, bob):
        table_join(table_id=table.pk, user=u)
    Block.objects.create(blocker=ana, blocked=bob)
    return table, {u.username: token_for(user=u) for u in (ana, bob, cem)}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_blocked_players_chat_never_reaches_the_blocker() -> None:
    table, tokens = await _table_of_three()
    sockets = {name: await _socket(table.pk, token) for name, token in tokens.items()}
    await sockets["bob"].send_json_to({"type": "chat", "text": "hello from bob"})
    await sockets["ana"].send_json_to({"type": "chat", "text": "hello from ana"})
    heard = {name: await _chats(comm) for name, comm in sockets.items()}
    both = sorted([("bob", "hello from bob"), ("ana", "hello from ana")])  # two sockets: either line may commit first
    assert heard["ana"] == [("ana", "hello from ana")]  # bob's line never reached ana
    assert sorted(heard["cem"]) == both
    assert sorted(heard["bob"]) == both  # a block mutes one way
    await database_sync_to_async(Block.objects.all().delete)()
    await sockets["bob"].send_json_to({"type": "chat", "text": "unblocked"})
    assert await _chats(sockets["ana"]) == [("bob", "unblocked")]  # the rule is read when a line arrives
    for comm in sockets.values():
        await comm.disconnect()
