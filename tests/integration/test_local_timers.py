"""A table socket's timers are held by the web process that committed the action (live/local_timers.py).

Real daphne, PostgreSQL and Redis. With no Celery worker at all, the idle
timer a player's flip arms still fires, and so does the one its automatic flip
arms in turn, while the first idle timer (armed by the REST start, which goes to
Celery as before) waits, unfired, for a worker that is not there. And when the
web process holding a timer is killed, the timer is not lost: its PendingTimer
row, written with the flip, is fired by beat's sweeper and reaches the players,
now on the other web process.
"""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest

from tests.faults.support import all_ready, assert_not_corrupted, needs_services, run_logged, seat_table, start
from tools.loadtest.client import TableSocket, connect_all
from tools.loadtest.cluster import cluster, make_tokens

pytestmark = [pytest.mark.services, pytest.mark.processes, needs_services, pytest.mark.timeout(240)]

IDLE_S = 2


def auto_flips(sock: TableSocket) -> int:
    return sum(1 for e in sock.history if e.get("kind") == "flipped" and e["data"].get("auto"))


def timers(database_url: str, match_id: int) -> dict[str, bool]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT timer_id, fired FROM games_pendingtimer WHERE match_id = %s", (match_id,)).fetchall()
    return dict(rows)


async def flip_by_hand(socks: list[TableSocket]) -> None:
    turn = socks[0].view["turn"]
    answer = await socks[turn].act({"kind": "flip"}, timeout=15)
    assert answer.ok, answer.message


def test_a_sockets_timers_fire_in_its_web_process_with_no_worker() -> None:
    with cluster(web=1, worker=False) as (s, _, _):
        db = s.env["DATABASE_URL"]
        tokens = make_tokens(s, 2, "local")
        table = seat_table(s, "smackit", tokens, {"auto_flip_seconds": IDLE_S, "max_minutes": 0})

        async def run() -> None:
            socks = [TableSocket(urls=[s.ws(0)], table_id=table, token=t, name=f"s{i}") for i, t in enumerate(tokens)]
            await connect_all(socks)
            match = await asyncio.to_thread(start, s, table, tokens[0])
            await all_ready(socks)
            await flip_by_hand(socks)
            flipped_at = time.monotonic()
            assert await socks[0].wait_for(lambda x: auto_flips(x) >= 1, IDLE_S + 10), "the idle timer the flip armed fired"
            assert time.monotonic() - flipped_at >= IDLE_S - 0.05, "not before it was due"
            assert await socks[1].wait_for(lambda x: auto_flips(x) >= 2, IDLE_S + 10), "and the one its automatic flip armed"
            held = timers(db, match)
            # The REST start's idle timer went to Celery, where no worker takes it; the first flip's timer
            # replaced it, so that flip's commit marked it fired (engine.timer_event's `replaces`).
            assert held.get("flip:0") is True, "the REST start's timer, replaced by the first flip's, marked in that commit"
            assert held.get("flip:1") is True and held.get("flip:2") is True, held
            assert_not_corrupted(db, match, "smackit")

        run_logged(s, run)


def test_a_timer_held_by_a_killed_web_process_is_fired_by_the_sweeper() -> None:
    with cluster(web=2) as (s, _, _):
        db = s.env["DATABASE_URL"]
        tokens = make_tokens(s, 2, "swept")
        table = seat_table(s, "smackit", tokens, {"auto_flip_seconds": IDLE_S, "max_minutes": 0})

        async def run() -> None:
            urls = [s.ws(0), s.ws(1)]
            socks = [TableSocket(urls=urls, table_id=table, token=t, reconnect=True, name=f"s{i}") for i, t in enumerate(tokens)]
            await connect_all(socks)
            match = await asyncio.to_thread(start, s, table, tokens[0])
            await all_ready(socks)
            await flip_by_hand(socks)
            s.kill_web(0)  # it held the idle timer of that flip, not yet due
            held = timers(db, match)
            assert held.get("flip:1") is False, "the flip's timer is a row before anything holds it"
            assert await socks[0].wait_for(lambda x: auto_flips(x) >= 1, IDLE_S + 20), "the sweeper fired it"
            assert await socks[1].wait_for(lambda x: auto_flips(x) >= 1, 10)
            assert timers(db, match).get("flip:1") is True
            assert_not_corrupted(db, match, "smackit")

        run_logged(s, run)
