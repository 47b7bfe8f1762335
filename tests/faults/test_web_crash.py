"""A web process dies mid-match (SIGKILL): its players fail over to the other and lose nothing.

Two daphne processes on PostgreSQL + Redis; the four players of one ZACK!
table and a spectator are split across them. Mid-match the first process is
killed without warning. Its sockets reconnect to the second, `sync` from the
last seq they hold, and play on: every socket ends with every seq once, in
order; every acknowledged action is still in the log (resending its id
answers the same seq); the match finishes and its log folds to its state.
"""

from __future__ import annotations

import pytest

from tests.faults.support import assert_everything_kept, needs_services, run_logged, seat_table, split_sockets, start_and_play
from tools.loadtest.client import play
from tools.loadtest.cluster import cluster, make_tokens

pytestmark = [pytest.mark.services, pytest.mark.processes, needs_services, pytest.mark.timeout(240)]


def test_sigkill_of_a_web_process_mid_match_loses_nothing() -> None:
    with cluster(web=2) as (s, _, _):
        tokens = make_tokens(s, 4, "crash")
        table = seat_table(s, "zack", tokens)

        async def run() -> None:
            everyone = split_sockets(s, table, tokens)
            players, watcher = everyone[:4], everyone[4]
            match, player, ledger = await start_and_play(s, table, tokens, everyone, players, seed=7, acked=12)
            assert len(ledger.acked) >= 12, f"played before the crash: {ledger}"
            s.kill_web(0)
            assert await play(player, ledger, rate=8, timeout=120), f"the match finishes after the crash: {ledger}"
            assert all(x.reconnects >= 1 for x in (players[0], players[2], watcher)), "the crashed process's sockets moved"
            assert all(x.reconnects == 0 for x in (players[1], players[3])), "the other sockets stayed"
            await assert_everything_kept(s.env["DATABASE_URL"], match, "zack", everyone, ledger)

        run_logged(s, run)
