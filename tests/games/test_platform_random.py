"""Random play through the whole platform: services, the event log and live sockets.

For every game (and the test-only one): random actions from random seats
(tests/support/platform_random.py: the harness's own draw) go through
`action_submit`; afterwards the stored log folds to the stored state,
every stored event survives JSON, and every message each seat's socket and a
spectator's socket received carries only cards that seat may see (checked
against the game's own `may_see`, folding the log alongside).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.engine import fold_all
from games.kit.registry import INSTALLED
from games.models import Match, MatchEvent
from tests.support.platform_random import play_through_sockets, random_table
from tests.support.simulate import harness_of, visible_ids

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.core]

GAMES = int(os.environ.get("PLATFORM_RANDOM_GAMES", "2"))
ACTIONS = int(os.environ.get("PLATFORM_RANDOM_ACTIONS", "80"))


@pytest.mark.parametrize("slug", ["tiny", *INSTALLED])
@pytest.mark.parametrize("game_no", range(GAMES))
async def test_random_play_through_sockets_keeps_log_state_and_secrets(slug: str, game_no: int) -> None:
    h = harness_of(slug)
    rng = random.Random(f"{slug}-{game_no}")
    match, _, socks = await random_table(h, slug, rng)
    await play_through_sockets(h, match, socks, rng, ACTIONS)

    @database_sync_to_async
    def stored() -> tuple[list[dict[str, Any]], Any]:
        m = Match.objects.get(pk=match.pk)
        log = [e.as_event() for e in MatchEvent.objects.filter(match=m).order_by("seq")]
        return log, m.state

    log, state = await stored()
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    plain = [{"kind": e["kind"], "seat": e["seat"], "data": e["data"]} for e in log]
    assert fold_all(h.rules, plain) == state
    # The states before and after each event, for the secrecy oracle.
    states: list[Any] = [None]
    for e in plain:
        states.append(h.rules.fold(states[-1], e))

    for viewer, _, got in socks:
        last = 0
        for msg in got:
            if msg["type"] == "hello":
                last = msg["seq"]
                leaked = visible_ids(msg["view"]) - h.may_see(states[last - 1], states[last], plain[last - 1], viewer)
                assert not leaked, f"{slug}: hello to seat {viewer} shows {sorted(leaked)}"
                continue
            if msg["type"] != "events":
                continue
            for e in msg["events"]:
                assert e["seq"] == last + 1, "seqs consecutive per socket"
                last = e["seq"]
                allowed = h.may_see(states[last - 1], states[last], plain[last - 1], viewer)
                leaked = visible_ids(e) - allowed
                assert not leaked, f"{slug}: event {e.get('kind')} #{last} shows seat {viewer} cards {sorted(leaked)}"
            leaked = visible_ids(msg["view"]) - h.may_see(states[last - 1], states[last], plain[last - 1], viewer)
            assert not leaked, f"{slug}: view after #{last} shows seat {viewer} cards {sorted(leaked)}"
        assert last == len(log), f"socket of seat {viewer} ended at {last} of {len(log)}"
