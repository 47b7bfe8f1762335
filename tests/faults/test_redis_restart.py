"""Redis restarts mid-match: the sockets recover by resync and nothing committed is lost.

A private redis-server on a free port (never the shared one) carries the
channel layer and the Celery broker of a ZACK! table's cluster. Mid-match it
is killed and started again empty while the players go on acting: group
messages published meanwhile and queued Celery tasks are gone. Actions are
still committed and acknowledged; the consumers fill the missing seqs from
the database with the next message that gets through; a player who dropped
out meanwhile reconnects and `sync`s from the last seq it holds; play goes
on to the end. Every acknowledged action is in the log, every socket holds
every seq once and in order, and the log folds to the stored state.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.faults.support import assert_everything_kept, needs_services, run_logged, seat_table, split_sockets, start_and_play
from tools.loadtest.client import play
from tools.loadtest.cluster import cluster, make_tokens

pytestmark = [pytest.mark.services, pytest.mark.processes, needs_services, pytest.mark.timeout(240)]


def test_redis_restart_mid_match_recovers_by_resync() -> None:
    with cluster(web=2, private_redis=True) as (s, redis, _):
        assert redis is not None and redis.port != 6379
        tokens = make_tokens(s, 4, "redis")
        table = seat_table(s, "zack", tokens)

        async def run() -> None:
            everyone = split_sockets(s, table, tokens)
            players = everyone[:4]
            match, player, ledger = await start_and_play(s, table, tokens, everyone, players, seed=11, acked=12)
            assert len(ledger.acked) >= 12
            late = players[3]
            late.may_reconnect.clear()
            await late.ws.close()
            restart = asyncio.create_task(asyncio.to_thread(redis.restart, 1.0))
            before = len(ledger.acked)
            await play(player, ledger, rate=8, timeout=60, stop=lambda: restart.done() and len(ledger.acked) >= before + 6)
            await restart
            assert len(ledger.acked) >= before + 6, "the others play on through the restart"
            late.may_reconnect.set()
            assert await play(player, ledger, rate=8, timeout=120), f"the match finishes after the restart: {ledger}"
            await assert_everything_kept(s.env["DATABASE_URL"], match, "zack", everyone, ledger)
            assert late.reconnects >= 1 and late.resyncs >= 1, "the late player caught up with `sync`"

        run_logged(s, run)
