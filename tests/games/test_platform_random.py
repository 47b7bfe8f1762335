"""Random play through the whole platform: services, the event log and live sockets.

For every game (and the test-only one): random actions from random seats go
through `action_submit`; afterwards the stored log folds to the stored state,
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
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from games import errors, services
from games.engine import fold_all
from games.models import Match, MatchEvent
from games.registry import INSTALLED
from tests.games.factories import started_table
from tests.support.simulate import Harness, harness_of, random_action, visible_ids

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.core]

GAMES = int(os.environ.get("PLATFORM_RANDOM_GAMES", "2"))
ACTIONS = int(os.environ.get("PLATFORM_RANDOM_ACTIONS", "80"))


def seats_for(h: Harness, rng: random.Random) -> int:
    choices = [n for n in range(h.rules.min_seats, h.rules.max_seats + 1) if not (h.rules.teams and n % 2)]
    return rng.choice(choices)


async def drain(comm: WebsocketCommunicator, into: list[dict[str, Any]]) -> None:
    # receive_nothing peeks without cancelling the consumer (a timed-out receive would).
    while not await comm.receive_nothing(timeout=0.2, interval=0.01):
        into.append(await comm.receive_json_from(timeout=5))


@pytest.mark.parametrize("slug", ["tiny", *INSTALLED])
@pytest.mark.parametrize("game_no", range(GAMES))
async def test_random_play_through_sockets_keeps_log_state_and_secrets(slug: str, game_no: int) -> None:
    h = harness_of(slug)
    rng = random.Random(f"{slug}-{game_no}")
    seats = seats_for(h, rng)
    options = {k: v for k, v in h.random_options(seats, rng).items() if not h.rules.options[k].internal}
    table, match, humans = await database_sync_to_async(started_table)(players=seats, game=slug, options=options)
    tokens = [await database_sync_to_async(token_for)(user=u) for u in humans]
    socks = []
    for viewer in [None, *range(seats)]:
        path = f"/ws/tables/{table.pk}/" + ("" if viewer is None else f"?token={tokens[viewer]}")
        comm = WebsocketCommunicator(application, path)
        assert (await comm.connect())[0]
        socks.append((viewer, comm, [await comm.receive_json_from(timeout=5)]))

    @database_sync_to_async
    def step(i: int) -> None:
        m = Match.objects.get(pk=match.pk)
        if m.status != Match.Status.LIVE:
            return
        seat = rng.randrange(seats)
        action = random_action(h.rules, m.state, seat, rng)
        if action is None:
            return
        try:
            services.action_submit(match_id=match.pk, seat=seat, action=action, action_id=f"r{i}")
        except errors.PlatformError as e:
            assert e.code in ("rule", "match_over", "bad_message"), e.message

    for i in range(ACTIONS):
        await step(i)
    for _, comm, got in socks:
        await drain(comm, got)
        await comm.disconnect()

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
