"""The live socket as another seat, another table's player, a deactivated account: nobody acts for a seat not theirs."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from tests.games.test_consumers import connect, reload, setup_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.core]


async def test_a_seat_cannot_act_for_another_seat() -> None:
    table, match, tokens = await setup_table()
    assert match.state["turn"] == 0
    intruder, _ = await connect(table.pk, tokens[1])
    card = match.state["hands"][0][0]["id"]  # seat 0's card on seat 0's turn
    for message in (
        {"type": "act", "id": "a", "seat": 0, "action": {"kind": "play", "card": card}},
        {"type": "act", "id": "b", "action": {"kind": "play", "card": card, "seat": 0}},
    ):
        await intruder.send_json_to(message)
        answer = await intruder.receive_json_from(timeout=5)
        assert answer["type"] == "error" and answer["id"] == message["id"]
    assert (await reload(match)).seq == match.seq  # nothing applied
    await intruder.disconnect()


async def test_a_seat_is_never_taken_from_the_address() -> None:
    table, match, tokens = await setup_table()
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/?token={tokens[1]}&seat=0")
    assert (await comm.connect())[0]
    hello = await comm.receive_json_from(timeout=5)
    assert hello["seat"] == 1 and hello["view"]["hand"] == match.state["hands"][1]
    await comm.disconnect()


async def test_a_player_of_another_table_is_a_spectator_here() -> None:
    table, match, _ = await setup_table()
    other, _, other_tokens = await setup_table()
    comm, hello = await connect(table.pk, other_tokens[0])
    assert hello["seat"] is None and hello["view"]["hand"] is None
    await comm.send_json_to({"type": "act", "id": "x", "action": {"kind": "slap"}})
    assert (await comm.receive_json_from(timeout=5))["code"] == "not_seated"
    assert (await reload(match)).seq == match.seq
    await comm.disconnect()


async def test_a_deactivated_accounts_token_is_anonymous() -> None:
    table, match, tokens = await setup_table()
    await database_sync_to_async(lambda: User.objects.filter(auth_token__key=tokens[0]).update(is_active=False))()
    comm, hello = await connect(table.pk, tokens[0])
    assert hello["seat"] is None and hello["view"]["hand"] is None
    await comm.disconnect()


async def test_a_made_up_token_is_anonymous() -> None:
    table, _, _ = await setup_table()
    comm, hello = await connect(table.pk, "0" * 40)
    assert hello["seat"] is None
    await comm.disconnect()
