"""Secrecy soak: every message every socket receives in random matches of every game shows only what it may.

The soak version of tests/games/test_platform_random.py, through the real
consumer: random moves of the game's harness from random seats and the
table's timers fired as the system, every seat and a spectator connected
from the start, a socket of a random seat (or a spectator) joining late
(its `hello`), `sync` from random earlier seqs (answers read back from the
database), matches played until they end (the end reveals everything) and
a rematch at the same table (the socket switching match). Each card in a
`hello`, an `events` message or its `view` must be one the game's own
`may_see` allows that socket at that seq.

`SOAK_SECRECY_MATCHES` (default 1 per game) and `SOAK_SECRECY_ACTIONS`
(default 150 per match) size it; `SOAK_SECRECY_MATCHES=1000` is the long
local run.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from games import errors
from games.engine import fold_all
from games.kit.registry import INSTALLED
from games.models import Match, MatchEvent, PendingTimer, Table
from games.services.actions import action_submit
from games.services.tables import table_rematch
from tests.games.factories import started_table
from tests.support.simulate import Harness, harness_of, random_move, visible_ids

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MATCHES = int(os.environ.get("SOAK_SECRECY_MATCHES", "1"))
ACTIONS = int(os.environ.get("SOAK_SECRECY_ACTIONS", "150"))


async def drain(comm: WebsocketCommunicator, into: list[dict[str, Any]]) -> None:
    # receive_nothing peeks without cancelling the consumer (a timed-out receive would).
    while not await comm.receive_nothing(timeout=0.1, interval=0.005):
        into.append(json.loads(await comm.receive_from(timeout=5)))


class Watcher:
    """One socket and everything it was sent."""

    def __init__(self, comm: WebsocketCommunicator, viewer: int | None) -> None:
        self.comm, self.viewer = comm, viewer
        self.got: list[dict[str, Any]] = []


async def watch(table_id: int, viewer: int | None, token: str | None) -> Watcher:
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/" + (f"?token={token}" if token else ""))
    assert (await comm.connect())[0]
    w = Watcher(comm, viewer)
    await drain(comm, w.got)
    return w


def check(h: Harness, slug: str, w: Watcher, logs: dict[int, list[dict[str, Any]]]) -> int:
    """Every card sent to `w` is one its seat may see at that seq; returns the number of messages checked."""
    oracle: dict[int, list[Any]] = {}

    def allowed(match: int, seq: int) -> set[int]:
        log = logs[match]
        if match not in oracle:
            states: list[Any] = [None]
            for e in log:
                states.append(h.rules.fold(states[-1], e))
            oracle[match] = states
        states = oracle[match]
        return h.may_see(states[seq - 1], states[seq], log[seq - 1], w.viewer)

    match, checked = None, 0
    for msg in w.got:
        if msg["type"] == "hello":
            match = msg.get("match")
            if match is None:
                continue
            leaked = visible_ids(msg["view"]) - allowed(match, msg["seq"])
            assert not leaked, f"{slug}: hello to seat {w.viewer} at #{msg['seq']} shows {sorted(leaked)}"
        elif msg["type"] == "events" and match is not None:
            for e in msg["events"]:
                leaked = visible_ids(e) - allowed(match, e["seq"])
                assert not leaked, f"{slug}: event {e.get('kind')} #{e['seq']} shows seat {w.viewer} cards {sorted(leaked)}"
            leaked = visible_ids(msg["view"]) - allowed(match, msg["seq"])
            assert not leaked, f"{slug}: view at #{msg['seq']} shows seat {w.viewer} cards {sorted(leaked)}"
        else:
            continue
        checked += 1
    return checked


@pytest.mark.parametrize("slug", INSTALLED)
async def test_no_socket_is_ever_sent_a_card_it_may_not_see(slug: str) -> None:
    h: Harness = harness_of(slug)
    for m in range(MATCHES):
        rng = random.Random(f"secrecy-{slug}-{m}")
        seats = rng.choice([n for n in range(h.rules.min_seats, h.rules.max_seats + 1) if not (h.rules.teams and n % 2)])
        options = {k: v for k, v in h.random_options(seats, rng).items() if not h.rules.options[k].internal}
        await one_table(h, slug, seats, options, rng)


async def one_table(h: Harness, slug: str, seats: int, options: dict[str, Any], rng: random.Random) -> None:
    table, match, humans = await database_sync_to_async(started_table)(players=seats, game=slug, options=options)
    tokens = [await database_sync_to_async(token_for)(user=u) for u in humans]
    watchers = [await watch(table.pk, v, None if v is None else tokens[v]) for v in [None, *range(seats)]]
    late_at = rng.randrange(ACTIONS)
    late_viewer = rng.choice([None, *range(seats)])

    @database_sync_to_async
    def step(match_id: int, i: int) -> bool:
        """One random move (or a due timer); False once the match is over."""
        m = Match.objects.get(pk=match_id)
        if m.status != Match.Status.LIVE:
            return False
        timer = PendingTimer.objects.filter(match=m, fired=False).order_by("due_ms").first()
        if timer is not None and rng.random() < 0.08:
            seat, action, action_id = None, {"kind": "timer", "id": timer.timer_id}, f"timer:{timer.timer_id}"[:64]
        else:
            seat, action = random_move(h, m.state, seats, rng)  # the harness's own draw (choose, kind weights)
            action_id = f"r{i}"
            if action is None:
                return True
        try:
            action_submit(match_id=match_id, seat=seat, action=action, action_id=action_id)
        except errors.PlatformError as e:
            assert e.code in ("rule", "match_over", "bad_message"), e.message
        return True

    @database_sync_to_async
    def rematch() -> int:
        t = Table.objects.get(pk=table.pk)
        return table_rematch(table_id=t.pk, by=humans[0]).pk

    matches = [match.pk]
    for round_no in range(2):
        for i in range(ACTIONS):
            if not await step(matches[-1], i + round_no * ACTIONS):
                break
            if round_no == 0 and i == late_at:
                watchers.append(await watch(table.pk, late_viewer, None if late_viewer is None else tokens[late_viewer]))
            if i % 25 == 7:
                w = rng.choice(watchers)
                await drain(w.comm, w.got)
                last = max((msg["seq"] for msg in w.got if msg["type"] in ("hello", "events")), default=0)
                await w.comm.send_to(text_data=json.dumps({"type": "sync", "since": rng.randint(0, last)}))
            if i % 10 == 0:
                for w in watchers:
                    await drain(w.comm, w.got)
        over = await database_sync_to_async(lambda mid=matches[-1]: Match.objects.get(pk=mid).status)()
        if round_no == 1 or over == Match.Status.LIVE:
            break
        matches.append(await rematch())
    for w in watchers:
        await drain(w.comm, w.got)
        await w.comm.disconnect()

    @database_sync_to_async
    def logs() -> dict[int, list[dict[str, Any]]]:
        out = {}
        for mid in matches:
            rows = list(MatchEvent.objects.filter(match_id=mid).order_by("seq").values_list("kind", "seat", "data"))
            out[mid] = [{"kind": k, "seat": s, "data": d} for k, s, d in rows]
            assert fold_all(h.rules, out[mid]) == Match.objects.get(pk=mid).state
        return out

    stored = await logs()
    checked = sum(check(h, slug, w, stored) for w in watchers)
    assert checked >= len(watchers), "every socket was sent something to check"
