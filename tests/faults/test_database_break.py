"""The PostgreSQL connection breaks during an action: an error, no corruption, the next action works.

The web process reaches PostgreSQL through a relay in the test that cuts a
connection the moment a chosen statement of `action_submit` goes through
it: the row lock (`FOR UPDATE`), the writes (the new events, the match row
and the action id go in one message), and the `COMMIT` itself. Each time the acting client gets an `error` (never an
`ack`), the sockets get no events, the stored log still folds to the stored
state, the same action id can be sent again and is applied once, and play
goes on.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.faults.support import (
    assert_everything_kept,
    assert_not_corrupted,
    needs_services,
    run_logged,
    seat_table,
    settled_seq,
    start_and_play,
)
from tools.loadtest.client import TableSocket, play
from tools.loadtest.cluster import cluster, make_tokens

pytestmark = [pytest.mark.services, pytest.mark.processes, needs_services, pytest.mark.timeout(240)]

CUTS = [b"FOR UPDATE", b"INSERT INTO games_matchevent", b"COMMIT"]


def test_a_broken_database_connection_fails_the_action_cleanly() -> None:
    with cluster(web=1, pg_proxy=True) as (s, _, proxy):
        assert proxy is not None
        db = s.env["DATABASE_URL"]
        tokens = make_tokens(s, 3, "pg")
        table = seat_table(s, "zack", tokens)

        async def run() -> None:
            socks = [TableSocket(urls=[s.ws(0)], table_id=table, token=t, name=f"s{i}") for i, t in enumerate(tokens)]
            match, player, ledger = await start_and_play(s, table, tokens, socks, socks, seed=3, acked=3, timeout=30)
            for n, pattern in enumerate(CUTS):
                seq_before = await settled_seq(db, match)
                move = player.next_move()
                assert move is not None, "a bot has a move"
                sock, action, _ = move
                proxy.arm(pattern)
                answer = await sock.act(action, action_id=f"cut-{n}", timeout=30)
                assert proxy.cuts == n + 1, f"the relay cut the connection at {pattern!r}"
                assert not answer.ok and answer.code == "server_error", answer.message
                await asyncio.sleep(0.3)
                log, seq = assert_not_corrupted(db, match, "zack")
                assert seq == seq_before, f"nothing applied when the connection broke at {pattern!r}"
                assert all(x.last == seq for x in socks), "no socket was sent events"
                again = await sock.act(action, action_id=f"cut-{n}", timeout=30)
                assert again.ok or again.code == "rule", again.message  # the same id, now applied (or refused by the rules)
                if again.ok:
                    repeat = await sock.act(action, action_id=f"cut-{n}", timeout=30)
                    assert repeat.ok and repeat.seq == again.seq, "applied once"
                played = len(ledger.acked)
                await play(player, ledger, rate=8, timeout=30, stop=lambda k=played: len(ledger.acked) >= k + 2)
                assert len(ledger.acked) >= played + 2 or socks[0].finished, "play goes on"
            await assert_everything_kept(db, match, "zack", socks)

        run_logged(s, run)
