"""The Celery worker dies with a timer pending, or in a bot match with its queue lost: after its restart the match goes on.

A Smack It! table of two players who do not flip: the table's idle timer
(`auto_flip_seconds`) must flip for them. The worker is killed (SIGKILL) once
it holds the first timer task (a countdown task waits inside the worker,
unacknowledged, so the broker does not hand it out again for an hour). No
flip happens while it is dead, not even after the timer is due. Started
again, its beat runs the overdue-timer sweeper (`games.sweep_timers`, every
5 s): the system flips, the players' sockets receive it, a player flips on
its turn and the next idle timer fires by the ordinary path.

A table of bots (Zwicker, turn timers far off) loses its worker and the
broker's database is flushed (as a Redis restart without persistence would):
the bots' plans, held by the worker or queued, are gone for good, and
nothing moves. The restarted worker's beat runs the bot sweeper
(`games.sweep_bots`, every 5 s, tables silent for 10 s): the bots play on
within 30 s of the restart, and the match ends with its log intact.
"""

from __future__ import annotations

import asyncio
import subprocess
import time

import psycopg
import pytest

from tests.faults.support import all_ready, assert_everything_kept, needs_services, run_logged, seat_table, start, stored
from tests.integration.stack import api
from tools.loadtest.client import TableSocket, connect_all
from tools.loadtest.cluster import cluster, make_tokens, wait_until

pytestmark = [pytest.mark.services, pytest.mark.processes, needs_services, pytest.mark.timeout(240)]

IDLE_S = 3


def auto_flips(sock: TableSocket) -> int:
    return sum(1 for e in sock.history if e.get("kind") == "flipped" and e["data"].get("auto"))


def test_a_killed_worker_fires_its_pending_timer_after_restart() -> None:
    with cluster(web=1, worker_loglevel="info") as (s, _, _):
        db = s.env["DATABASE_URL"]
        tokens = make_tokens(s, 2, "timer")
        table = seat_table(s, "smackit", tokens, {"auto_flip_seconds": IDLE_S, "max_minutes": 0})

        async def run() -> None:
            socks = [TableSocket(urls=[s.ws(0)], table_id=table, token=t, name=f"s{i}") for i, t in enumerate(tokens)]
            await connect_all(socks)
            worker_log = s.logs / "worker.log"
            ready = await asyncio.to_thread(wait_until, lambda: " ready." in worker_log.read_text(errors="replace"), 90, 0.1)
            assert ready, "the worker started"
            match = await asyncio.to_thread(start, s, table, tokens[0])
            started = time.monotonic()
            await all_ready(socks)
            held = await asyncio.to_thread(
                wait_until, lambda: "games.fire_timer" in worker_log.read_text(errors="replace"), IDLE_S - 0.5, 0.05
            )
            assert held, "the worker received the countdown task of the first idle timer"
            s.kill_worker()
            assert time.monotonic() - started < IDLE_S, "killed before the timer was due"
            await asyncio.sleep(IDLE_S + 1.5 - (time.monotonic() - started))
            seq_dead = socks[0].last
            assert auto_flips(socks[0]) == 0, "no timer fires while the worker is dead"
            with psycopg.connect(db) as conn:
                pending = conn.execute(
                    "SELECT count(*) FROM games_pendingtimer WHERE match_id = %s AND fired = false", (match,)
                ).fetchone()[0]
            assert pending >= 1, "the overdue timer is still pending"

            s.start_worker()
            assert await socks[0].wait_for(lambda x: auto_flips(x) >= 1, 60), "the overdue timer fired after the restart"
            assert socks[0].last > seq_dead
            # The match goes on: the player whose turn it is flips, and the next idle timer fires by itself.
            turn = socks[0].view["turn"]
            answer = await socks[turn].act({"kind": "flip"}, timeout=15)
            assert answer.ok, answer.message
            flips = auto_flips(socks[0])
            assert await socks[0].wait_for(lambda x: auto_flips(x) > flips, IDLE_S + 15), "the next idle timer fired"
            await assert_everything_kept(db, match, "smackit", socks)

        run_logged(s, run)


def test_bots_play_on_after_the_worker_dies_and_the_broker_loses_its_queue() -> None:
    with cluster(web=1, worker_loglevel="info") as (s, _, _):
        db = s.env["DATABASE_URL"]
        host = make_tokens(s, 1, "bots")[0]
        created = api(s.url(0), "POST", "/api/tables/", {"game": "zwicker", "seats": 3, "sit": False, "options": {"turn_seconds": 600}}, host)
        table = created["id"]
        for _ in range(3):
            api(s.url(0), "POST", f"/api/tables/{table}/bots/", {"level": "hard"}, host)

        async def run() -> None:
            watcher = TableSocket(urls=[s.ws(0)], table_id=table, name="watcher")
            await connect_all([watcher])
            worker_log = s.logs / "worker.log"
            ready = await asyncio.to_thread(wait_until, lambda: " ready." in worker_log.read_text(errors="replace"), 90, 0.1)
            assert ready, "the worker started"
            match = await asyncio.to_thread(start, s, table, host)
            await all_ready([watcher])
            dealt = watcher.last
            assert await watcher.wait_for(lambda x: x.last >= dealt + 6, 30), "the bots play"

            s.kill_worker()
            broker = s.env["CELERY_BROKER_URL"]
            subprocess.run(["redis-cli", "-u", broker, "flushdb"], check=True, capture_output=True)
            await asyncio.sleep(1)
            seq_dead = watcher.last
            await asyncio.sleep(4)
            assert watcher.last == seq_dead, "nothing moves while the worker is dead"
            _, _, _, status = stored(db, match)
            assert status == "live"

            restarted = time.monotonic()
            s.start_worker()
            assert await watcher.wait_for(lambda x: x.last > seq_dead, 30), "the match moved on within 30 s of the restart"

            def bot_moved() -> bool:
                # A look's end (a timer, seat None) may come first: Zwicker's looks end by timers.
                return any(e["seat"] is not None for e in stored(db, match)[0][seq_dead:])

            assert await asyncio.to_thread(wait_until, bot_moved, 30, 0.2), "a bot moved after the restart"
            print(f"bots resumed {time.monotonic() - restarted:.1f} s after the worker's restart")
            assert await watcher.wait_for(lambda x: bool(x.view and x.view.get("finished")), 120), "the match ends"
            await assert_everything_kept(db, match, "zwicker", [watcher])

        run_logged(s, run)
