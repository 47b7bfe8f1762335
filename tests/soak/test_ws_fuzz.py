"""The table socket fuzzed with hypothesis: random and malformed messages, random moves of every game.

Each example seats a table of every game (and the test-only one), connects
every seat and a spectator, and plays a script hypothesis draws: moves of
the game's bot for some seat (from that seat's view, so the match moves
on), moves from the game's random-play harness (legal ones, punished
mistakes, the odd impossible one) sent by a random socket (a spectator's or
another seat's included), `sync` from any point, pings, chat, and garbage (not JSON, JSON
that is no message, wrong field types, unknown types, over 4 KiB, binary
frames, and what json.loads lets through to the database or an encoder:
nesting past Python's recursion limit, NUL characters and lone surrogates in
ids, kinds, keys and chat text, NaN, Infinity, 1e999 and integers past 2^53). Every message is answered (an `ack` or an `error` naming the
action, `pong`, the `sync` answer), no answer is a `server_error`, every
socket's seqs stay consecutive and it still answers a ping at the end, and
the stored log folds to the stored state.

`SOAK_WS_EXAMPLES` (default 3 per game) and `SOAK_WS_STEPS` (default 40)
size the run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accounts.services import token_for
from config.asgi import application
from games.engine import BotContext, fold_all
from games.kit.registry import INSTALLED, get_bot
from games.models import Match, MatchEvent
from games.selectors import events_between, redact_for
from tests.games.factories import started_table
from tests.support.simulate import harness_action, harness_of

pytestmark = [pytest.mark.django_db(transaction=True)]

EXAMPLES = int(os.environ.get("SOAK_WS_EXAMPLES", "3"))
STEPS = int(os.environ.get("SOAK_WS_STEPS", "40"))
ANSWER_S = 10.0

# Text the database cannot hold: NUL (PostgreSQL refuses it) and lone surrogates (no UTF-8 encoding).
hostile_text = st.one_of(
    st.text(max_size=12),
    st.tuples(st.text(max_size=4), st.sampled_from(["\x00", "\ud800", "\udbff", "\udc00", "\udfff"]), st.text(max_size=4)).map("".join),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | hostile_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3),
    max_leaves=8,
)
nested = st.tuples(st.integers(1, 1900), st.sampled_from(["[]", "{}"])).map(
    lambda n_kind: ("[" * n_kind[0] + "]" * n_kind[0]) if n_kind[1] == "[]" else ('{"a":' * n_kind[0] + "1" + "}" * n_kind[0])
)
garbage = st.one_of(
    st.text(min_size=1, max_size=40),
    json_values.map(json.dumps),
    st.fixed_dictionaries({"type": json_values}).map(json.dumps),
    st.fixed_dictionaries({"type": st.text(max_size=10)}).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("act"), "id": json_values, "action": json_values}).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("act"), "id": st.text(min_size=1, max_size=8), "action": json_values}).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("sync"), "since": json_values}).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("chat"), "text": json_values}).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("chat"), "text": hostile_text}).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("act"), "id": hostile_text, "action": st.fixed_dictionaries({"kind": hostile_text})}).map(json.dumps),
    nested,
    nested.map(lambda inner: '{"type":"act","id":"n","action":{"kind":"play","card":' + inner + "}}"),
    st.sampled_from(["NaN", "Infinity", "1e999", str(10**23)]).map(lambda n: '{"type":"act","id":"f","action":{"kind":"play","card":' + n + "}}"),
    st.sampled_from(["NaN", "-Infinity", "1e999", str(10**23), "-1", "1.5", "true"]).map(lambda n: '{"type":"sync","since":' + n + "}"),
    st.just(json.dumps({"type": "act", "id": "big", "action": {"kind": "x" * 5000}})),
    st.binary(min_size=1, max_size=24),
)
steps = st.lists(
    st.tuples(
        st.integers(0, 6),  # who sends (modulo the sockets; the last one is the spectator)
        st.sampled_from(["move", "move", "bot", "bot", "bot", "garbage", "garbage", "sync", "ping", "chat"]),
        garbage,
        st.integers(0, 2**32),
    ),
    min_size=max(3, STEPS // 2),
    max_size=STEPS,
)


async def next_message(comm: WebsocketCommunicator, deadline: float) -> dict[str, Any] | None:
    """The next message, or None by the deadline (peeking first: a timed-out receive would cancel the consumer)."""
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        if not await comm.receive_nothing(timeout=0.02, interval=0.002):
            return json.loads(await comm.receive_from(timeout=ANSWER_S))
    return None


class Socket:
    def __init__(self, comm: WebsocketCommunicator, seat: int | None) -> None:
        self.comm, self.seat = comm, seat
        self.got: list[dict[str, Any]] = []
        self.last = 0
        self.sync_from: int | None = None  # the `since` of the last sync sent, whose answer may still be on its way

    def take(self, msg: dict[str, Any]) -> None:
        """Check the seqs as a client sees them: consecutive, and a sync's answer restarting after its `since`.

        Events the server sent before it handled the sync (a race settled by a timer, say)
        continue the old sequence; only the answer starts again at since + 1. Where the two
        coincide (since = the last seq held), a later re-send of the same seqs is that answer.
        """
        self.got.append(msg)
        if msg["type"] == "hello":
            self.last, self.sync_from = msg["seq"], None
        elif msg["type"] == "events" and msg["events"]:
            first = msg["events"][0]["seq"]
            if self.sync_from is not None and first == self.sync_from + 1 and first != self.last + 1:
                self.last, self.sync_from = self.sync_from, None  # the sync's answer
            assert first == self.last + 1, f"seat {self.seat}: {first} after {self.last}"
            assert [e["seq"] for e in msg["events"]] == list(range(self.last + 1, msg["seq"] + 1))
            self.last = msg["seq"]
        assert not (msg["type"] == "error" and msg.get("code") == "server_error"), f"server error: {msg}"

    async def answer(self, predicate: Any) -> dict[str, Any]:
        deadline = asyncio.get_running_loop().time() + ANSWER_S
        while True:
            msg = await next_message(self.comm, deadline)
            assert msg is not None, f"seat {self.seat}: no answer"
            self.take(msg)
            if predicate(msg):
                return msg

    async def drain(self) -> None:
        while (msg := await next_message(self.comm, asyncio.get_running_loop().time() + 0.05)) is not None:
            self.take(msg)


async def run_script(slug: str, script: list[tuple[int, str, Any, int]]) -> None:
    h = harness_of(slug)
    rng = random.Random(len(script))
    seats = rng.choice([n for n in range(h.rules.min_seats, h.rules.max_seats + 1) if not (h.rules.teams and n % 2)])

    @database_sync_to_async
    def setup() -> tuple[int, int, list[str]]:
        table, match, humans = started_table(players=seats, game=slug)
        return table.pk, match.pk, [token_for(user=u) for u in humans]

    table, match_id, tokens = await setup()
    socks: list[Socket] = []
    for seat in [*range(seats), None]:
        comm = WebsocketCommunicator(application, f"/ws/tables/{table}/" + ("" if seat is None else f"?token={tokens[seat]}"))
        assert (await comm.connect())[0]
        sock = Socket(comm, seat)
        await sock.answer(lambda m: m["type"] == "hello")
        socks.append(sock)

    @database_sync_to_async
    def live() -> Any:
        return Match.objects.values_list("state", "last_t_ms").get(pk=match_id)

    @database_sync_to_async
    def bot_move(seed: int) -> tuple[int, dict[str, Any]] | None:
        """What a bot of some seat would do now, from that seat's view and history: mostly legal moves."""
        match = Match.objects.get(pk=match_id)
        history = events_between(match_id=match_id, after=0)
        order = list(range(seats))
        random.Random(seed).shuffle(order)
        for seat in order:
            ctx = BotContext(seat=seat, level="hard", view=h.rules.view(match.state, seat),
                             history=redact_for(h.rules, history, seat), now_ms=match.last_t_ms + 500)
            move = bot.choose(ctx, random.Random(seed))
            if move is not None:
                return seat, move.action
        return None

    bot = get_bot(slug)
    for n, (who, kind, junk, seed) in enumerate(script):
        sock = socks[who % len(socks)]
        if kind == "bot":
            planned = await bot_move(seed)
            if planned is None:
                kind = "ping"
            else:
                sock = socks[planned[0]]
                await sock.comm.send_to(text_data=json.dumps({"type": "act", "id": f"b{n}", "action": planned[1]}))
                await sock.answer(lambda m, i=f"b{n}": m["type"] in ("ack", "error") and m.get("id") == i)
        if kind == "move":
            state, t_ms = await live()
            seat = sock.seat if sock.seat is not None else random.Random(seed).randrange(seats)
            action = harness_action(h, state, seat, random.Random(seed))
            if action is None:
                kind = "ping"
            else:
                await sock.comm.send_to(text_data=json.dumps({"type": "act", "id": f"m{n}", "action": action}))
                await sock.answer(lambda m, i=f"m{n}": m["type"] in ("ack", "error") and m.get("id") == i)
        if kind == "garbage":
            if isinstance(junk, bytes):
                await sock.comm.send_to(bytes_data=junk)
            else:
                await sock.comm.send_to(text_data=junk)
            await sock.answer(lambda m: m["type"] in ("error", "ack", "pong", "events", "hello", "chat"))
        elif kind == "sync":
            since = random.Random(seed).randint(0, max(sock.last, 0))
            sock.sync_from = since
            await sock.comm.send_to(text_data=json.dumps({"type": "sync", "since": since}))
            await sock.answer(lambda m, s=since: m["type"] == "hello" or (m["type"] == "events" and (not m["events"] or m["events"][0]["seq"] == s + 1)))
        elif kind == "chat":
            await sock.comm.send_to(text_data=json.dumps({"type": "chat", "text": f"hello {n}"}))
            await sock.answer(lambda m: m["type"] in ("chat", "error"))
        elif kind == "ping":
            await sock.comm.send_to(text_data=json.dumps({"type": "ping"}))
            await sock.answer(lambda m: m["type"] == "pong")
        for other in socks:
            await other.drain()
    await asyncio.sleep(0.3)  # a rate-limit bucket refills before the last pings
    for sock in socks:
        await sock.drain()
        await sock.comm.send_to(text_data=json.dumps({"type": "ping"}))
        await sock.answer(lambda m: m["type"] == "pong")
        await sock.comm.disconnect()

    @database_sync_to_async
    def stored() -> tuple[list[dict[str, Any]], Any]:
        rows = list(MatchEvent.objects.filter(match_id=match_id).order_by("seq").values_list("seq", "kind", "seat", "data"))
        assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
        return [{"kind": k, "seat": s, "data": d} for _, k, s, d in rows], Match.objects.get(pk=match_id).state

    log, state = await stored()
    assert fold_all(h.rules, log) == state, "fold of the log equals the stored state"
    assert all(s.last == len(log) for s in socks if s.got), [s.last for s in socks]


@pytest.mark.parametrize("slug", ["tiny", *INSTALLED])
def test_socket_fuzz_never_crashes_answers_everything_and_keeps_the_log(slug: str) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # a failing script is reported as drawn: shrinking tables of sockets takes too long
    )
    @given(script=steps)
    def check(script: list[tuple[int, str, Any, int]]) -> None:
        async_to_sync(run_script)(slug, script)

    check()
