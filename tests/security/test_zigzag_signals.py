"""ZIGZAG with `signals_seen` off: a sign is indistinguishable from nothing for everyone outside the signing team.

Written as the attack: an opponent (or a spectator) records every byte it is sent
and compares two matches that differ only in the signs one team made. Before the fix a sign was an
event of its own: opponents got a `{seq, t_ms}` placeholder at that moment, the view's `clock`
ticked, and every later seq (events, acks, the replay's `next`) was one higher, so the two records
differed at the first sign. Now (games/zigzag/rules.py, "Secret signs") a secret sign rides on the
signer's own move and is cut from that move's event for outsiders: same bytes, same seqs, same
views. The partner still gets the sign at once (checked, so the test cannot pass by dropping signs),
and once the match is over the log and the "everything" replay show every sign.

Three layers: many random matches through the pure rules (the redacted events and views a socket is
built from); the same through the real consumer, two tables dealt from one seed, every opponent and
a spectator connected; and the replay API during the match (spectator, an opponent's seat, the
partner's seat) and after it (`all`). `RANDOM_GAMES` sizes the pure part (half of it: 8 matches by default);
`SIGNS_SOCKET_ACTIONS` the socket part (default 120 actions per table).
"""

from __future__ import annotations

import heapq
import json
import os
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from accounts.services import token_for
from config.asgi import application
from games import errors
from games.engine import Event, RuleError
from games.models import Match
from games.services import actions
from games.services.actions import action_submit
from games.services.matches import match_abort
from games.services.tables import table_create, table_join, table_start
from games.zigzag.rules import RULES, SIGNS, partner_of, team_seats
from tests.games.factories import user
from tests.support.simulate import harness_action, harness_of, redacted_history

HARNESS = harness_of("zigzag")

GAMES = int(os.environ.get("RANDOM_GAMES", "16"))
SOCKET_ACTIONS = int(os.environ.get("SIGNS_SOCKET_ACTIONS", "120"))
MOVES = ("open", "exchange", "stop", "z", "pass")
DECIDE_SEED = 20_240_614
"""The socket part fixes the platform's per-action random numbers, so two tables decide alike."""


# --- the pure rules: two matches that differ only by signs ---------------------------------------


@dataclass
class Run:
    """One match as its sockets see it: per viewer (None: a spectator) every message, as JSON text."""

    viewers: list[int | None]
    state: Any = None
    log: list[Event] = field(default_factory=list)
    streams: dict[int | None, list[str]] = field(default_factory=dict)

    def deliver(self, events: list[Event], now: int) -> None:
        """Fold and log `events` (seq, t_ms as the platform adds them); each viewer gets them and its view."""
        new = []
        for e in events:
            e = dict(e, seq=len(self.log) + 1, t_ms=now)
            self.state = RULES.fold(self.state, e)
            self.log.append(e)
            new.append(e)
        for v in self.viewers:
            message = {"events": redacted_history(RULES, new, v), "seq": len(self.log), "view": RULES.view(self.state, v)}
            self.streams.setdefault(v, []).append(json.dumps(message))


@dataclass
class Step:
    """One moment of the script: a timer or a seat's move; run A may sign with it (or try a sign of its own first)."""

    t_ms: int
    seat: int | None
    action: Any
    signed: Any  # run A's action: `action` with a sign riding on it, or `action`
    alone: dict[str, Any] | None  # run A only: a sign of its own just before (the old way to sign)


def twin_matches(
    seed: int,
    seats: int,
    max_actions: int,
    *,
    options: dict[str, Any] | None = None,
    deal: str | None = None,
    team: int | None = None,
    fixed_rng: bool = False,
) -> tuple[Run, Run, list[Step], set[int]]:
    """Matches A (team T signs) and B (nobody signs) played from one script; returns them, the script and T's seats.

    `options`, `deal` (the setup's seed), `team` and `fixed_rng` (every decide gets DECIDE_SEED) let the
    socket test replay the script at two real tables; by default all are random.
    """
    rng = random.Random(f"zigzag-signs-{seed}")
    options = {**(options if options is not None else HARNESS.random_options(seats, rng)), "signals_seen": False}
    friends = set(team_seats(rng.randrange(seats // 2) if team is None else team, seats))
    viewers: list[int | None] = [None, *range(seats)]
    a, b = Run(viewers), Run(viewers)
    setup = RULES.setup(seats, options, random.Random(seed if deal is None else deal))
    a.deliver(setup, 0)
    b.deliver(setup, 0)
    timers = [(e["data"]["due_ms"], e["data"]["id"]) for e in setup if e["kind"] == "timer"]
    script: list[Step] = []
    now = 0
    for _ in range(max_actions):
        if b.state["finished"]:
            break
        now += rng.choice((0, 5, 20, 150, 400, 1200))
        seat: int | None
        if timers and (timers[0][0] <= now or rng.random() < 0.05):
            due, tid = heapq.heappop(timers)
            now, seat, action = max(now, due), None, {"kind": "timer", "id": tid}
        else:
            seat = rng.randrange(seats)
            action = harness_action(HARNESS, b.state, seat, rng)
            if action is None:
                continue
            if isinstance(action, dict):  # the harness signs at random: here only team T signs, in A only
                action = {k: v for k, v in action.items() if k != "sign"}
        signed, alone = action, None
        if seat in friends and isinstance(action, dict):
            if rng.random() < 0.1:
                alone = {"kind": "signal", "sign": rng.choice(SIGNS)}
            if action.get("kind") in MOVES and rng.random() < 0.35:
                signed = {**action, "sign": rng.choice(SIGNS)}
        step = Step(now, seat, action, signed, alone)
        script.append(step)
        step_seed = DECIDE_SEED if fixed_rng else rng.randrange(2**63)
        play(a, b, step, step_seed)
        for e in b.log[-20:]:
            if e["kind"] == "timer" and e["t_ms"] == now and (e["data"]["due_ms"], e["data"]["id"]) not in timers:
                heapq.heappush(timers, (e["data"]["due_ms"], e["data"]["id"]))
    return a, b, script, friends


def play(a: Run, b: Run, step: Step, step_seed: int) -> None:
    """Decide the step in both matches with the same random numbers; a refused action delivers nothing."""
    if step.alone is not None:
        try:
            a.deliver(RULES.decide(a.state, step.seat, step.alone, step.t_ms, random.Random(step_seed)), step.t_ms)
        except RuleError:
            pass  # the signer alone is told (an error message on its own socket)
    results = []
    for run, action in ((a, step.signed), (b, step.action)):
        try:
            results.append(RULES.decide(run.state, step.seat, action, step.t_ms, random.Random(step_seed)))
        except RuleError:
            results.append(None)
    assert (results[0] is None) == (results[1] is None), f"a sign changed whether {step.action!r} is allowed"
    if results[0] is not None:
        a.deliver(results[0], step.t_ms)
        b.deliver(results[1], step.t_ms)


def signs_made(run: Run) -> list[tuple[int, int, str]]:
    """(seq, signer, sign) of every sign in a log."""
    out = []
    for e in run.log:
        if e["kind"] == "signalled":
            out.append((e["seq"], e["seat"], e["data"]["sign"]))
        elif isinstance(e["data"].get("signal"), dict):
            out.append((e["seq"], e["seat"], e["data"]["signal"]["sign"]))
    return out


def live_part(stream: list[str]) -> list[str]:
    """The stream with the signs the finished table shows everyone cut from its last view (the end reveals them)."""
    out = []
    for text in stream:
        m = json.loads(text)
        if m["view"].get("finished"):
            m["view"].pop("signals")
            text = json.dumps(m)
        out.append(text)
    return out


def first_difference(x: list[str], y: list[str]) -> str:
    for i, (p, q) in enumerate(zip(x, y, strict=False)):
        if p != q:
            return f"message {i}:\n  with signs:    {p[:400]}\n  without signs: {q[:400]}"
    return f"{len(x)} messages with signs, {len(y)} without"


@pytest.mark.core
def test_random_matches_an_opponent_and_a_spectator_are_sent_the_same_bytes_with_or_without_signs() -> None:
    signs = finished = 0
    matches = max(2, GAMES // 2)
    for i in range(matches):
        seats = (4, 6)[i % 2]
        a, b, _, friends = twin_matches(i, seats, max_actions=900)
        for v in [None, *(s for s in range(seats) if s not in friends)]:
            sa, sb = live_part(a.streams[v]), live_part(b.streams[v])
            assert sa == sb, f"match {i}, viewer {v}: " + first_difference(sa, sb)
        made = signs_made(a)
        assert not signs_made(b)
        signs += len(made)
        finished += a.state["finished"]
        at = {seq for seq, _, _ in made}
        states = {}
        state = None
        for e in a.log:
            state = RULES.fold(state, e)
            if e["seq"] in at:
                states[e["seq"]] = state
        for seq, signer, sign in made:  # the partner is told at once: in the event and in its view
            partner = partner_of(signer, seats)
            assert signer in friends
            carrier = RULES.redact(a.log[seq - 1], partner)
            assert carrier["data"]["signal"]["sign"] == sign
            state = states[seq]
            assert RULES.view(state, partner)["signals"][str(signer)]["sign"] == sign
            assert RULES.view_all(state)["signals"][str(signer)]["sign"] == sign  # the "everything" replay at that seq
        if made:
            for s in friends:
                assert a.streams[s] != b.streams[s], "the signing team must see its signs"
    assert signs > 5 * matches, signs
    assert finished > 0, "at least one match ran to its end"


@pytest.mark.core
def test_a_finished_match_shows_every_sign_to_everyone() -> None:
    for i in range(40):
        a, _, _, friends = twin_matches(1000 + i, 4, max_actions=1500)
        made = signs_made(a)
        if not a.state["finished"] or not made:
            continue
        # the replay of a finished match: perspective `all` is the stored log, unredacted
        assert [(e["seq"], e["data"]["signal"]["sign"]) for e in a.log if "signal" in e["data"]] == [(s, g) for s, _, g in made]
        # and the table at the end shows every sign still standing to every viewer, the opponents included
        standing = {str(s): sig["sign"] for s, sig in enumerate(a.state["signals"]) if sig is not None}
        for v in (None, 0, 1, 2, 3):
            assert {k: x.get("sign") for k, x in RULES.view(a.state, v)["signals"].items()} == standing
        return
    pytest.fail("no random match finished with a sign")


# --- the real consumer and the replay API ------------------------------------------------------------


class _FixedRandbits:
    """`secrets` for games.services.actions with fixed per-action random numbers (both tables must decide alike)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)

    @staticmethod
    def randbits(k: int) -> int:
        return DECIDE_SEED


OPTIONS = {"signals_seen": False, "tour_seconds": 45}


def _table(name: str, seed: str) -> tuple[int, int, list[Any], list[str]]:
    humans = [user(f"signs{name}{i}") for i in range(4)]
    # min_reaction_ms 0: the script was played by the pure rules without a human floor, and must be
    # accepted here as it was there (its takes come as fast as the script's clock says)
    table = table_create(host=humans[0], game="zigzag", seats=4, options=OPTIONS, min_reaction_ms=0)
    for h in humans[1:]:
        table_join(table_id=table.pk, user=h)
    match = table_start(table_id=table.pk, by=humans[0], seed=seed)
    return table.pk, match.pk, humans, [token_for(user=h) for h in humans]


async def _socket(table_id: int, token: str | None) -> tuple[WebsocketCommunicator, list[dict[str, Any]]]:
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/" + (f"?token={token}" if token else ""))
    assert (await comm.connect())[0]
    got = [await comm.receive_json_from(timeout=5)]
    assert got[0]["type"] == "hello"
    return comm, got


async def _until(comm: WebsocketCommunicator, got: list[dict[str, Any]], seq: int) -> None:
    """Receive until this socket holds the events up to `seq`."""
    while not any(m["type"] == "events" and m["seq"] >= seq for m in got):
        got.append(await comm.receive_json_from(timeout=10))


def _comparable(messages: list[dict[str, Any]]) -> list[str]:
    """What must be the same bytes at both tables: every `events` message, and the hello's match part (not its ids)."""
    out = []
    for m in messages:
        if m["type"] == "events":
            out.append(json.dumps(m))
        elif m["type"] == "hello":
            out.append(json.dumps({k: m.get(k) for k in ("seat", "seq", "view", "now_ms")}))
    return out


def _replay(match_id: int, who: Any, perspective: str) -> dict[str, Any]:
    c = APIClient()
    if who is not None:
        c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=who)}")
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = c.get(f"/api/matches/{match_id}/timeline/?perspective={perspective}&from={after}&limit=500")
        assert page.status_code == 200, (perspective, page.content)
        events += page.json()["events"]
        after = page.json()["next"]
    seq = Match.objects.get(pk=match_id).seq
    state = c.get(f"/api/matches/{match_id}/state/?at={seq}&perspective={perspective}")
    assert state.status_code == 200, state.content
    return {"events": events, "view": state.json()["view"]}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_through_the_socket_and_the_replay_api_opponents_get_the_same_bytes_with_or_without_signs(
    clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(actions, "secrets", _FixedRandbits())  # what `_rules_decide` draws from
    # team 0 (seats 0 and 2) signs at table A; seats 1 and 3 and a spectator watch both tables
    deal = f"zigzag-signs-{os.getpid()}"
    options = {**OPTIONS, "dealer": -1}  # what the platform's setup is given
    _, _, script, friends = twin_matches(7, 4, SOCKET_ACTIONS, options=options, deal=deal, team=0, fixed_rng=True)
    assert friends == {0, 2}
    # The tables play one after the other: a spectator of a deal another live table still plays sees
    # nothing of it (duplicate tournaments), so each is the only live match of its seed while it plays.
    received: dict[str, dict[int | None, list[dict[str, Any]]]] = {}
    replays: dict[str, dict[str, Any]] = {}
    matches: dict[str, int] = {}
    for name in ("A", "B"):
        clock.offset = 0.0  # dealt at match time 0, from one seed
        table_id, match_id, humans, tokens = await database_sync_to_async(_table)(name, deal)
        matches[name] = match_id
        sockets = {v: await _socket(table_id, None if v is None else tokens[v]) for v in (None, 1, 2, 3)}

        @database_sync_to_async
        def submit(seat: int | None, action: Any, i: int, match_id: int = match_id) -> int | None:
            try:
                return action_submit(match_id=match_id, seat=seat, action=action, action_id=f"s{i}").seq
            except errors.PlatformError as e:
                assert e.code in ("rule", "bad_message"), e.message
                return None

        for i, step in enumerate(script):
            clock.offset = step.t_ms / 1000
            for action, key in ((step.alone, 10_000 + i), (step.signed if name == "A" else step.action, i)):
                if action is None or (name == "B" and key >= 10_000):
                    continue
                seq = await submit(step.seat, action, key)
                if seq is not None:  # whatever was committed reaches every socket before the next step
                    for comm, got in sockets.values():
                        await _until(comm, got, seq)
        for comm, got in sockets.values():
            while not await comm.receive_nothing(timeout=0.2, interval=0.01):
                got.append(await comm.receive_json_from(timeout=5))
            await comm.disconnect()
        received[name] = {v: got for v, (_comm, got) in sockets.items()}

        @database_sync_to_async
        def read_and_abort(match_id: int = match_id, humans: list[Any] = humans) -> dict[str, Any]:
            """The replay API while live (a spectator, an opponent's seat, the partner's seat); then abort."""
            out = {
                "spectator": _replay(match_id, None, "spectator"),
                "seat:1": _replay(match_id, humans[1], "seat:1"),
                "seat:2": _replay(match_id, humans[2], "seat:2"),
            }
            match_abort(match_id=match_id, by=humans[0])
            return out

        replays[name] = await read_and_abort()

    for v in (None, 1, 3):
        a, b = _comparable(received["A"][v]), _comparable(received["B"][v])
        assert a == b, f"viewer {v}: " + first_difference(a, b)
        assert len(a) > SOCKET_ACTIONS // 3, "most of the script was refused: nothing much was compared"
    signed_events = [e for m in received["A"][2] if m["type"] == "events" for e in m["events"] if "signal" in e.get("data", {})]
    assert signed_events and all(e["data"]["signal"]["sign"] in SIGNS for e in signed_events), "the partner saw no sign"
    assert _comparable(received["A"][2]) != _comparable(received["B"][2])
    # the replay API while live: the spectator's and an opponent's timelines and views are the same bytes
    for perspective in ("spectator", "seat:1"):
        assert json.dumps(replays["A"][perspective]) == json.dumps(replays["B"][perspective]), perspective
    assert [e for e in replays["A"]["seat:2"]["events"] if "signal" in e["data"]] == signed_events

    @database_sync_to_async
    def everything(match_id: int) -> list[dict[str, Any]]:
        return _replay(match_id, None, "all")["events"]

    # over (aborted here; a finished match opens the same way): perspective `all` shows every sign
    shown = [(e["seq"], e["seat"], e["data"]["signal"]) for e in await everything(matches["A"]) if "signal" in e["data"]]
    assert shown == [(e["seq"], e["seat"], e["data"]["signal"]) for e in signed_events]
    assert not any("signal" in e["data"] for e in await everything(matches["B"]))
