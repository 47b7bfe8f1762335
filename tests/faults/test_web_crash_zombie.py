"""A web process dies (SIGKILL) and its player never comes back: a bot takes the seat in time.

Presence used to be a counter that the dead process could never decrement:
its player stayed "connected" for ever and the table waited for nobody. Now a
socket counts only while its web process's heartbeat is fresh (a lease): once
the lease is over the presence sweeper (beat, every 5 s) removes its sockets,
counts the player away from the process's last beat and, past the table's
`zombie_seconds`, a normal bot plays the seat.

Two daphne processes on PostgreSQL + Redis and a worker with beat, in their
production settings (lease 10 s). A ZACK! table: player 0 on process 0,
player 1 on process 1, a server bot. Mid-match process 0 is killed and player
0's socket does not reconnect. Player 1 stays connected without acting and is
never zombied; player 0's seat is a zombie within max(zombie_seconds, lease) +
a sweep (+ slack for a loaded machine), the server bot plays for it, and
player 1 plays the match to its end with it.
"""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest

from tests.faults.support import assert_not_corrupted, needs_services, run_logged, seat_table, start_and_play
from tools.loadtest.client import BotPlayer, TableSocket, play
from tools.loadtest.cluster import cluster, make_tokens

pytestmark = [pytest.mark.services, pytest.mark.processes, needs_services, pytest.mark.timeout(300)]

ZOMBIE_SECONDS = 2
LEASE_S, SWEEP_S, SLACK_S = 10, 5, 10  # config/settings.py PRESENCE_LEASE_SECONDS, the beat schedule


def seats_now(db: str, table_id: int) -> dict[int, bool]:
    with psycopg.connect(db) as conn:
        rows = conn.execute("SELECT seat, zombie FROM games_seat WHERE table_id = %s", (table_id,)).fetchall()
    return dict(rows)


def bot_moves_for(db: str, match_id: int, seat: int) -> int:
    """Actions of the server's bot for `seat` (games.bot_act ids them `bot:<seq>:<seat>`)."""
    with psycopg.connect(db) as conn:
        return conn.execute(
            "SELECT count(*) FROM games_actionrecord WHERE match_id = %s AND seat = %s AND client_id LIKE 'bot:%%'",
            (match_id, seat),
        ).fetchone()[0]


def test_the_seat_of_a_player_whose_web_process_died_goes_to_a_bot() -> None:
    with cluster(web=2) as (s, _, _):
        db = s.env["DATABASE_URL"]
        tokens = make_tokens(s, 2, "gone")
        table = seat_table(s, "zack", tokens, bots=1)
        with psycopg.connect(db) as conn:  # a short grace, as a table option would set it
            conn.execute("UPDATE games_table SET zombie_seconds = %s WHERE id = %s", (ZOMBIE_SECONDS, table))

        async def run() -> None:
            gone = TableSocket(urls=[s.ws(0)], table_id=table, token=tokens[0], reconnect=False, name="gone")
            stays = TableSocket(urls=[s.ws(1)], table_id=table, token=tokens[1], reconnect=True, name="stays")
            match, _, ledger = await start_and_play(s, table, tokens, [gone, stays], [gone, stays], seed=3, acked=4)
            assert seats_now(db, table) == {0: False, 1: False, 2: False}, "nobody is a zombie while connected"
            s.kill_web(0)
            killed = time.monotonic()

            zombied_after = None
            while time.monotonic() - killed < LEASE_S + SWEEP_S + SLACK_S + 20:
                zombies = await asyncio.to_thread(seats_now, db, table)
                assert not zombies[1], "player 1's process beats: an idle player is not away"
                if zombies[0]:
                    zombied_after = time.monotonic() - killed
                    break
                await asyncio.sleep(0.25)
            assert zombied_after is not None, "the dead process's player was never handed to a bot"
            print(f"seat 0 a zombie {zombied_after:.1f} s after the crash")
            assert zombied_after <= max(ZOMBIE_SECONDS, LEASE_S) + SWEEP_S + SLACK_S, zombied_after

            assert await play(BotPlayer("zack", [stays], level="hard", seed=5), ledger, rate=8, timeout=150), (
                f"the match finishes with a bot in seat 0: {ledger}"
            )
            assert bot_moves_for(db, match, 0) > 0, "the server's bot played seat 0"
            assert not (await asyncio.to_thread(seats_now, db, table))[1]
            assert_not_corrupted(db, match, "zack")
            await stays.close()

        run_logged(s, run)
