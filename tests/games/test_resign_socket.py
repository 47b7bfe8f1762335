"""A resignation seen from the table's sockets: everyone gets the public `resigned` event and the table with the
seat left; the resigner's own moves are refused from then on; a player cannot resign through the socket."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.services.tables import table_resign
from tests.games.test_consumers import connect, receive_until, setup_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_everyone_hears_the_resignation_and_the_resigner_acts_no_more() -> None:
    table, match, tokens = await setup_table(players=3)
    leaver, _ = await connect(table.pk, tokens[1])
    other, _ = await connect(table.pk, tokens[0])
    watcher, _ = await connect(table.pk)
    user = await database_sync_to_async(lambda: User.objects.get(seats__table=table, seats__seat=1))()
    await database_sync_to_async(table_resign)(table_id=table.pk, user=user)
    for sock in (leaver, other, watcher):
        got = await receive_until(sock, "events")
        resigned = [e for e in got[-1]["events"] if e.get("kind") == "resigned"]
        assert resigned and resigned[0]["seat"] == 1 and resigned[0]["seq"] == match.seq + 1
        tables = await receive_until(sock, "table")
        assert {p["seat"]: p["left"] for p in tables[-1]["table"]["players"]}[1] is True
    await leaver.send_json_to({"type": "act", "id": "late", "action": {"kind": "slap"}})
    refused = await receive_until(leaver, "error")
    assert refused[-1]["code"] == "withdrawn"
    for c in (leaver, other, watcher):
        await c.disconnect()


async def test_a_seat_cannot_send_the_systems_resign_action() -> None:
    table, match, tokens = await setup_table()
    me, _ = await connect(table.pk, tokens[0])
    await me.send_json_to({"type": "act", "id": "r", "action": {"kind": "resign", "seat": 1}})
    refused = await receive_until(me, "error")
    assert refused[-1]["code"] == "rule"
    seq = await database_sync_to_async(lambda: type(match).objects.get(pk=match.pk).seq)()
    assert seq == match.seq
    await me.disconnect()
