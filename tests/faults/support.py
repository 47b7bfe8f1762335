"""Helpers of the fault tests: seat a table over REST, check what the sockets and the database hold."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

from games.engine import fold_all
from games.kit.registry import get_rules
from tests.integration.stack import api
from tools.loadtest.client import BotPlayer, Ledger, TableSocket, connect_all, play
from tools.loadtest.cluster import Cluster, services_available

needs_services = pytest.mark.skipif(
    not services_available(), reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: run through .ci/run"
)


def seat_table(s: Cluster, game: str, tokens: list[str], options: dict[str, Any] | None = None, bots: int = 0) -> int:
    """A table whose seats are the token holders (seat i = tokens[i]) and `bots` server bots; not started."""
    table = api(s.url(0), "POST", "/api/tables/", {"game": game, "seats": len(tokens) + bots, "options": options or {}}, tokens[0])
    for seat, token in enumerate(tokens[1:], start=1):
        api(s.url(seat % len(s.ports)), "POST", f"/api/tables/{table['id']}/join/", {"seat": seat}, token)
    for _ in range(bots):
        api(s.url(0), "POST", f"/api/tables/{table['id']}/bots/", {"level": "hard"}, tokens[0])
    return table["id"]


def start(s: Cluster, table_id: int, token: str) -> int:
    return api(s.url(0), "POST", f"/api/tables/{table_id}/start/", {}, token)["match"]


async def all_ready(sockets: list[TableSocket], timeout: float = 30) -> None:
    ok = await asyncio.gather(*(x.wait_for(lambda y: y.ready, timeout) for x in sockets))
    assert all(ok), "every socket holds the match and its history"


def stored(database_url: str, match_id: int) -> tuple[list[dict[str, Any]], Any, int, str]:
    """The match's stored log (plain events, in seq order), state, seq and status, read straight from PostgreSQL."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT seq, kind, seat, data FROM games_matchevent WHERE match_id = %s ORDER BY seq", (match_id,)
        ).fetchall()
        state, seq, status = conn.execute("SELECT state, seq, status FROM games_match WHERE id = %s", (match_id,)).fetchone()
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), "stored seqs are consecutive"
    return [{"kind": k, "seat": st, "data": d} for _, k, st, d in rows], state, seq, status


async def settled_seq(database_url: str, match_id: int, *, quiet_s: float = 1.5, timeout: float = 20) -> int:
    """The stored seq once nothing has been committed for `quiet_s`: no race or timer is about to settle.

    A test that compares the seq before and after one action must not start while a
    timer is due (a ZACK! race settles by its timer after the window closes): the timer's
    events would be counted as the action's, or the timer's statement would be the one cut.
    `quiet_s` is longer than any race window (`lag_cap_ms`) and the settling window.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seq, since = stored(database_url, match_id)[2], loop.time()
    while loop.time() - since < quiet_s:
        assert loop.time() < deadline, f"the match kept committing for {timeout} s"
        await asyncio.sleep(0.1)
        now = stored(database_url, match_id)[2]
        if now != seq:
            seq, since = now, loop.time()
    return seq


def assert_not_corrupted(database_url: str, match_id: int, game: str) -> tuple[list[dict[str, Any]], int]:
    """The stored log folds to the stored state, and the match row's seq is the log's length."""
    log, state, seq, _ = stored(database_url, match_id)
    assert seq == len(log), "the match row's seq is the last stored event"
    assert fold_all(get_rules(game), log) == state, "fold of the stored log equals the stored state"
    return log, seq


def assert_socket_log(sock: TableSocket, log: list[dict[str, Any]]) -> None:
    """A socket saw every seq once, in order, from 1 to the end, each event of the kind stored."""
    assert sock.gaps == 0 and sock.regressions == 0 and sock.resets == 0, (sock.name, sock.gaps, sock.regressions, sock.resets)
    assert [e["seq"] for e in sock.history] == list(range(1, len(log) + 1)), f"{sock.name}: seqs consecutive from 1"
    for seen, kept in zip(sock.history, log, strict=True):
        if "kind" in seen:
            assert seen["kind"] == kept["kind"], f"{sock.name}: event {seen['seq']} is {kept['kind']}, got {seen['kind']}"


async def assert_acks_kept(ledger: Ledger, log: list[dict[str, Any]]) -> None:
    """Every acknowledged action is in the log: resending its id answers the same seq (nothing applied again)."""
    assert ledger.acked, "the test acknowledged actions"
    for sock, action_id, seq in ledger.acked:
        assert seq <= len(log), f"ack {action_id} at seq {seq} beyond the stored log ({len(log)})"
        await asyncio.sleep(0.06)  # under the socket's rate limit
        answer = await sock.act({"kind": "noop-repeat"}, action_id=action_id, timeout=10, retries=2)
        assert answer.ok and answer.seq == seq, f"{action_id}: acknowledged at {seq}, now {answer.message}"


async def assert_everything_kept(
    database_url: str, match_id: int, game: str, sockets: list[TableSocket], ledger: Ledger | None = None
) -> list[dict[str, Any]]:
    """The end state of a fault test: log intact, every socket holding all of it in order, every ack kept."""
    log, seq = assert_not_corrupted(database_url, match_id, game)
    ends = await asyncio.gather(*(x.wait_for(lambda y, n=seq: y.last >= n and y.ready, 20) for x in sockets))
    assert all(ends), [(x.name, x.last, x.awaiting_sync) for x in sockets]
    for x in sockets:
        assert_socket_log(x, log)
    if ledger is not None:
        assert ledger.unanswered == 0, "every action was answered"
        await assert_acks_kept(ledger, log)
    for x in sockets:
        await x.close()
    return log


def split_sockets(s: Cluster, table_id: int, tokens: list[str]) -> list[TableSocket]:
    """The players' sockets (even seats on web process 0, odd on 1, each failing over to the other) and a spectator."""
    urls = [s.ws(i) for i in range(len(s.ports))]
    socks = [
        TableSocket(urls=urls if i % 2 == 0 else urls[::-1], table_id=table_id, token=t, reconnect=True, name=f"s{i}")
        for i, t in enumerate(tokens)
    ]
    return [*socks, TableSocket(urls=urls, table_id=table_id, reconnect=True, name="watcher")]


def run_logged(s: Cluster, main: Any) -> None:
    """Run the test's coroutine; on failure print the processes' logs."""
    try:
        asyncio.run(main())
    except BaseException:
        print(s.log_text())
        raise


async def start_and_play(
    s: Cluster, table_id: int, tokens: list[str], sockets: list[TableSocket], players: list[TableSocket],
    *, seed: int, acked: int, timeout: float = 60,
) -> tuple[int, BotPlayer, Ledger]:
    """Connect every socket, start the ZACK! match and play it with hard bots until `acked` actions are acknowledged."""
    await connect_all(sockets)
    match = await asyncio.to_thread(start, s, table_id, tokens[0])
    await all_ready(sockets)
    player = BotPlayer("zack", players, level="hard", seed=seed)
    ledger = Ledger()
    await play(player, ledger, rate=8, timeout=timeout, stop=lambda: len(ledger.acked) >= acked)
    return match, player, ledger
