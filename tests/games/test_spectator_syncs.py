"""Spectators' `sync` from memory (games/socket/spectator_syncs.py): the same answer as the database's, loaded once for a flood."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import selectors
from games.kit.registry import get_rules
from games.models import Match
from games.socket import spectator_syncs
from tests.games.test_consumers import connect, receive_until, setup_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.core]


@database_sync_to_async
def public_log(match_id: int, since: int) -> tuple[list[dict[str, Any]], dict[str, Any], int]:
    match = Match.objects.get(pk=match_id)
    rules = get_rules(match.game)
    events = selectors.events_between(match_id=match_id, after=since, upto=match.seq)
    return selectors.redact_for(rules, events, None), rules.view(match.state, None), match.seq


async def sync(comm: Any, since: int) -> dict[str, Any]:
    await comm.send_json_to({"type": "sync", "since": since})
    while True:
        msg = await comm.receive_json_from(timeout=5)
        if msg["type"] in ("events", "hello", "error"):
            return msg


async def test_a_spectators_sync_is_what_the_database_says_and_follows_play() -> None:
    table, match, tokens = await setup_table()
    me, _ = await connect(table.pk, tokens[0])
    watcher, _ = await connect(table.pk)
    for since in (0, 1):
        events, view, seq = await public_log(match.pk, since)
        assert await sync(watcher, since) == {"type": "events", "events": events, "seq": seq, "view": view}
    card = match.state["hands"][0][0]["id"]
    await me.send_json_to({"type": "act", "id": "a1", "action": {"kind": "play", "card": card}})
    await receive_until(me, "ack")
    assert (await watcher.receive_json_from(timeout=5))["type"] == "events"  # the play, as it happened
    loads = spectator_syncs.loaded
    events, view, seq = await public_log(match.pk, 0)
    answer = await sync(watcher, 0)
    assert answer["seq"] == seq > match.seq and answer == {"type": "events", "events": events, "seq": seq, "view": view}
    assert spectator_syncs.loaded == loads  # the play reached the entry through the group message, not a load
    hidden = {c["id"] for hand in (await database_sync_to_async(lambda: Match.objects.get(pk=match.pk).state)())["hands"] for c in hand}
    assert not any(isinstance(e.get("data"), dict) and e["data"].get("card", {}).get("id") in hidden for e in answer["events"])
    assert (await sync(watcher, seq + 5))["type"] == "hello"  # ahead of the log: greeted again, as before
    await me.disconnect()
    await watcher.disconnect()


async def test_a_flood_of_spectator_syncs_reads_the_database_once() -> None:
    table, match, _ = await setup_table()
    watchers = [(await connect(table.pk))[0] for _ in range(8)]
    spectator_syncs._entries.clear()
    loads = spectator_syncs.loaded
    for w in watchers:
        for _ in range(5):
            await w.send_json_to({"type": "sync", "since": 0})
    for w in watchers:
        assert (await sync(w, 0))["seq"] == match.seq
    assert spectator_syncs.loaded - loads == 1
    for w in watchers:
        await w.disconnect()


async def test_a_seated_players_sync_still_reads_its_own_view() -> None:
    table, match, tokens = await setup_table()
    me, _ = await connect(table.pk, tokens[0])
    msg = await sync(me, 0)
    assert msg["view"]["hand"] == match.state["hands"][0]
    await me.disconnect()
