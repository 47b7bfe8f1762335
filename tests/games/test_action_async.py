"""The fast path sent from the event loop (live/async_db.py): the table socket's action with no thread.

Through the real consumer and PostgreSQL: the second action of a match goes as
the one message on the loop's own connection, lands as the locked path would,
reaches every socket and is acknowledged after them; a match changed behind
the cache is decided again under the lock; a refused attempt hands its
connection back idle. PostgreSQL only, as the fast path is.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone

from games import selectors
from games.kit.registry import get_rules
from games.models import Match, WebProcess
from games.services import action_sql, match_cache
from games.socket.consumers import TableConsumer
from live import async_db, broadcast, bus
from tests.games.factories import started_table
from tests.games.test_consumers import connect, receive_until, reload, setup_table
from tests.games.test_match_cache import _fresh_cache, assert_log_folds_to_state, smack_next  # noqa: F401 - the autouse fixture
from tests.games.test_selectors import socket

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the fast path is PostgreSQL's (run through .ci/run)"),
]


@pytest.fixture
def sent_on_loop(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The outcome of every message the event loop sent ("committed", or the error's name); the thread's fast path refused."""
    outcomes: list[str] = []
    real = action_sql.fast_commit_async

    async def recorded(**kw: Any) -> bool:
        try:
            bots = await real(**kw)
        except Exception as e:
            outcomes.append(type(e).__name__)
            raise
        outcomes.append("committed")
        return bots

    def not_here(**kw: Any) -> bool:
        raise AssertionError("the thread's fast path is not taken while the event loop's is on")

    monkeypatch.setattr(action_sql, "fast_commit_async", recorded)
    monkeypatch.setattr(action_sql, "fast_commit", not_here)
    return outcomes


async def turn_card(match: Match) -> tuple[int, dict[str, Any]]:
    match = await reload(match)
    seat = match.state["turn"]
    return seat, {"kind": "play", "card": match.state["hands"][seat][0]["id"]}


async def test_the_second_action_is_one_message_from_the_loop_and_reaches_every_socket(sent_on_loop: list[str]) -> None:
    table, match, tokens = await setup_table(players=3, options={"hand": 8})
    socks = [(await connect(table.pk, t))[0] for t in tokens]
    for n in range(3):
        seat, action = await turn_card(match)
        await socks[seat].send_json_to({"type": "act", "id": f"a{n}", "action": action})
        answered = await receive_until(socks[seat], "ack")
        assert [m["type"] for m in answered] == ["events", "ack"], "the events before the ack"
        for other in (s for i, s in enumerate(socks) if i != seat):
            (events,) = await receive_until(other, "events")
            assert events["seq"] == answered[-1]["seq"]
    assert sent_on_loop == ["committed", "committed"], "the first action reads the row under its lock; the next two go from the loop"
    stored = await reload(match)
    assert stored.seq == answered[-1]["seq"]
    await database_sync_to_async(assert_log_folds_to_state)(match.pk)
    for s in socks:
        await s.disconnect()


async def test_a_match_changed_behind_the_cache_is_decided_again_and_the_connection_goes_back_idle(
    sent_on_loop: list[str],
) -> None:
    table, match, tokens = await setup_table(players=3, options={"hand": 8})
    socks = [(await connect(table.pk, t))[0] for t in tokens]
    seat, action = await turn_card(match)
    await socks[seat].send_json_to({"type": "act", "id": "a0", "action": action})
    await receive_until(socks[seat], "ack")
    row = await reload(match)
    # Another process commits a state at the same seq (a slap emptying the centre, say): only the guard can tell.
    await database_sync_to_async(Match.objects.filter(pk=match.pk).update)(state={**row.state, "centre": []})
    seat, action = await turn_card(match)
    await socks[seat].send_json_to({"type": "act", "id": "a1", "action": action})
    answered = await receive_until(socks[seat], "ack")
    assert sent_on_loop == ["ConflictError"], "tried from the loop, refused by the guard"
    assert answered[-1]["seq"] == row.seq + 2, "decided on the row: the card played and the next turn's timer"
    stored = await reload(match)
    assert [c["id"] for c in stored.state["centre"]] == [action["card"]], "decided on the row's state, not the cached one"
    pool = async_db._pool()
    assert pool.idle and all(c.info.transaction_status.name == "IDLE" for c in pool.idle), "handed back rolled back"
    assert match_cache.get(match.pk) is None, "a contended match skips the fast path for a while"
    for s in socks:
        await s.disconnect()


async def test_the_loops_read_of_the_seats_round_trips_is_the_threads() -> None:
    @database_sync_to_async
    def arrange() -> tuple[int, tuple[int, dict[int, int]]]:
        table, _match, humans = started_table(players=3, bots=1)
        alive = WebProcess.objects.create(id=uuid.uuid4(), seen_at=timezone.now())
        dead = WebProcess.objects.create(id=uuid.uuid4(), seen_at=timezone.now() - dt.timedelta(hours=1))
        socket(table, humans[0], alive, 40)
        socket(table, humans[0], alive, 95)  # a second, slower tab: the longest counts
        socket(table, humans[1], alive, None)  # no pong yet
        socket(table, humans[2], dead, 10)  # its process stopped beating
        return table.pk, selectors.seat_round_trips(table_id=table.pk)

    table_id, expected = await arrange()
    async with async_db.connection() as conn:
        got = await selectors.seat_round_trips_async(conn=conn, table_id=table_id)
    assert got == expected and expected[1] == {0: 95}


async def test_a_race_claim_from_the_loop_is_timed_and_lands_as_on_the_thread(sent_on_loop: list[str]) -> None:
    table, match, tokens = await setup_table(players=3, game="smackit", options={"auto_flip_seconds": 60})
    turn = await database_sync_to_async(smack_next)(match)
    socks = [(await connect(table.pk, t))[0] for t in tokens]
    await socks[turn].send_json_to({"type": "act", "id": "f1", "action": {"kind": "flip"}})
    await receive_until(socks[turn], "ack")
    claimer = (turn + 1) % 3
    await receive_until(socks[claimer], "events")
    await socks[claimer].send_json_to({"type": "act", "id": "s1", "action": {"kind": "smack"}})
    answered = await receive_until(socks[claimer], "ack")
    assert sent_on_loop == ["committed"], "the flip read the row under its lock; the claim went from the loop"
    claimed = next(e for m in answered if m["type"] == "events" for e in m["events"] if e["kind"] == "race_claimed")
    claim = claimed["data"]["claim"]
    assert claim["seat"] == claimer and claim["judged_ms"] <= claim["arrival_ms"], "judged from the frame's arrival, no round trip yet"
    assert claimed["data"]["comp_ms"] == [0, 0, 0], "no seat's round trip is stored: nobody is waited for"
    await database_sync_to_async(assert_log_folds_to_state)(match.pk)
    for s in socks:
        await s.disconnect()


async def test_the_idle_sockets_here_take_the_loops_commit_without_the_group_message(
    sent_on_loop: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    table, match, tokens = await setup_table(players=3, options={"hand": 8})
    socks = [(await connect(table.pk, t))[0] for t in tokens]
    seat, action = await turn_card(match)
    await socks[seat].send_json_to({"type": "act", "id": "a0", "action": action})  # the locked path: now cached
    await receive_until(socks[seat], "ack")
    for other in (s for i, s in enumerate(socks) if i != seat):
        await receive_until(other, "events")
    withheld: list[dict[str, Any]] = []
    real = bus.match_events

    def no_group_message(table_id: int, match_id: int, events: Any, state: Any, **kw: Any) -> None:
        if kw.get("committed"):
            withheld.append(events)  # the loop's commit: its group message never goes
            return
        real(table_id, match_id, events, state, **kw)

    monkeypatch.setattr(bus, "match_events", no_group_message)  # what the domain calls (live/bus.py)
    seat, action = await turn_card(match)
    await socks[seat].send_json_to({"type": "act", "id": "a1", "action": action})
    answered = await receive_until(socks[seat], "ack")
    assert sent_on_loop == ["committed"] and withheld, "from the loop, and no group message went"
    assert [m["type"] for m in answered] == ["events", "ack"], "the acting socket's own events, then its ack"
    stored = await reload(match)
    for i, other in enumerate(socks):
        if i == seat:
            continue
        (events,) = await receive_until(other, "events")
        assert events["seq"] == answered[-1]["seq"] == stored.seq, "handed over in-process"
        assert events["view"] == get_rules(stored.game).view(stored.state, i), "that socket's own seat's view"
    for s in socks:
        await s.disconnect()


class _Socket(TableConsumer):
    """A table consumer with no connection: what `deliver_now` would send, recorded."""

    def __init__(self, match_id: int, last_seq: int) -> None:
        self.inbox, self.handling, self.blind, self.game, self.seat = [], False, False, "tiny", 0
        self.match_id, self.last_seq, self.sent = match_id, last_seq, []

    async def _send_events(self, events: list[dict[str, Any]], view: dict[str, Any] | None) -> None:
        self.sent.append(events)
        self.last_seq = events[-1]["seq"]


async def test_a_socket_takes_a_handed_over_commit_only_when_idle_and_next_in_line() -> None:
    @database_sync_to_async
    def committed() -> dict[str, Any]:
        _, match, _ = started_table(players=3, options={"hand": 8})
        match.refresh_from_db()
        event = {"seq": match.seq + 1, "t_ms": 1, "kind": "noted", "seat": None, "data": {}}
        return broadcast.match_events_message(match.pk, [event], match.state)

    message = await committed()
    seq = message["events"][0]["seq"]
    idle = _Socket(message["match"], seq - 1)
    await idle.deliver_now(message)
    assert [e["seq"] for e in idle.sent[0]] == [seq]
    behind = _Socket(message["match"], seq - 2)  # a gap: the group message fills it from the database
    busy = _Socket(message["match"], seq - 1)
    busy.handling = True  # awaiting inside a message of its own
    queued = _Socket(message["match"], seq - 1)
    queued.inbox.append({"type": "match.events"})  # something earlier still waits in its inbox
    other = _Socket(message["match"] + 1, seq - 1)  # it shows another match
    blind = _Socket(message["match"], seq - 1)
    blind.blind = True
    done = _Socket(message["match"], seq)  # it has them already
    for left in (behind, busy, queued, other, blind, done):
        await left.deliver_now(message)
        assert left.sent == [], "left to the group message, which delivers in order"
