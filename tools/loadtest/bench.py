"""Load benchmark: `python -m tools.loadtest --tables N --web 1|2 [--seconds S] [--rate R] ...`.

Starts the production configuration (a fresh PostgreSQL database, the Redis
channel layer and Celery broker, a Celery worker with beat, 1 or 2 daphne
processes), seats real WebSocket clients at N tables (through the REST calls
of PROTOCOL.md: `POST /api/tables/`, `join`, `start`, `?token=` sockets, the
players of a table spread over the web processes), and lets them play real
games: each table's next move is the earliest one its seats' own bots plan
(`games.kit.registry.get_bot(slug).choose` on each socket's view and history),
sent at `--rate` actions per second per table, one action in flight per
table. Finished matches are followed by a rematch.

Prints, for the measured window (after `--warmup`): action → `ack` and
action → the last socket of the table holding the action's events (p50 /
p95 / p99), committed actions per second, deliveries dropped or out of order
(gaps, sockets that end behind the server's log), actions left unanswered,
server CPU and resident memory, and the load average. Figures, not
assertions: the targets are in the docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.integration.stack import api
from tools.loadtest import client_gc
from tools.loadtest.client import BotPlayer, NoAnswerError, TableSocket, connect_all, percentile
from tools.loadtest.cluster import Cluster, cluster, make_tokens
from tools.loadtest.procstats import ProcWatch, Profiler, alone, family, load_average, postgres_backends, redis_pids, summarise

# Long matches so the window measures play, not rematches; every option is the game's own.
GAME_OPTIONS: dict[str, dict[str, Any]] = {
    "zack": {"protect_beginners": False},  # bots act when the bench says, not when a beginner may be challenged
    "smackit": {"max_minutes": 0},
    "zwicker": {},
    "zigzag": {},
}

@dataclass
class Table:
    id: int
    tokens: list[str]
    sockets: list[TableSocket] = field(default_factory=list)
    player: BotPlayer | None = None
    matches: list[int] = field(default_factory=list)


def seat_tables(
    s: Cluster, game: str, tables: int, seats: int, tokens: list[str], options: dict[str, Any],
    table: dict[str, Any] | None = None,
) -> list[Table]:
    """Create, fill and (later) start the tables through the REST API, a few calls at a time.

    `table`: more fields of the table itself (`min_reaction_ms`, `lag_cap_ms`), beside the game's `options`.
    """
    extra = table or {}

    def one(i: int) -> Table:
        mine = tokens[i * seats : (i + 1) * seats]
        base = s.url(i % len(s.ports))
        table = api(base, "POST", "/api/tables/", {"game": game, "seats": seats, "options": options, **extra}, mine[0])
        for seat in range(1, seats):
            api(s.url((i + seat) % len(s.ports)), "POST", f"/api/tables/{table['id']}/join/", {"seat": seat}, mine[seat])
        return Table(id=table["id"], tokens=mine)

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(one, range(tables)))


def start_tables(s: Cluster, tables: list[Table]) -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda t: api(s.url(t.id % len(s.ports)), "POST", f"/api/tables/{t.id}/start/", {}, t.tokens[0]), tables))


@dataclass
class Figures:
    ack_ms: list[float] = field(default_factory=list)
    fanout_ms: list[float] = field(default_factory=list)
    committed: int = 0
    answered: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    no_answer: int = 0
    undelivered: int = 0
    idle: int = 0
    matches_finished: int = 0


async def drive(table: Table, figures: Figures, warm_at: float, stop_at: float, rate: float, rng: random.Random) -> None:
    """One table: every 1/rate s the earliest planned move is sent; wait for its ack and every socket's copy."""
    loop = asyncio.get_running_loop()
    interval = 1.0 / rate
    next_at = loop.time() + rng.random() * interval
    assert table.player is not None
    while True:
        await asyncio.sleep(max(0.0, next_at - loop.time()))
        now = loop.time()
        if now >= stop_at:
            return
        next_at = max(next_at + interval, now)
        if any(sock.finished for sock in table.sockets):
            await rematch(table, figures)
            continue
        move = table.player.next_move()
        if move is None:
            figures.idle += 1
            continue
        sock, action, _ = move
        before = sock.last
        try:
            answer = await sock.act(action, timeout=15)
        except NoAnswerError:
            figures.no_answer += 1
            continue
        measured = answer.sent_at >= warm_at
        if not answer.ok:
            if measured:
                figures.errors[answer.code or "?"] += 1
            continue
        if measured:
            figures.answered += 1
            figures.ack_ms.append(1000 * (answer.answered_at - answer.sent_at))
        if answer.seq is None or answer.seq <= before:
            continue
        arrivals = await asyncio.gather(*(s.wait_seq(answer.seq, 15) for s in table.sockets))
        if any(a is None for a in arrivals):
            figures.undelivered += 1
            continue
        if measured:
            figures.committed += 1
            figures.fanout_ms.append(1000 * (max(arrivals) - answer.sent_at))  # type: ignore[type-var]


async def rematch(table: Table, figures: Figures) -> None:
    old = table.sockets[0].match
    base = table.sockets[0].urls[0].replace("ws://", "http://")
    try:
        await asyncio.to_thread(api, base, "POST", f"/api/tables/{table.id}/rematch/", {}, table.tokens[0])
    except Exception:  # noqa: BLE001 - another seat asked first, or the table is not finished yet
        pass
    ok = await asyncio.gather(*(s.wait_for(lambda x: x.match != old and x.ready and not x.finished, 15) for s in table.sockets))
    if all(ok):
        figures.matches_finished += 1


async def run_tables(s: Cluster, args: argparse.Namespace, tables: list[Table], window: Window) -> Figures:
    urls = [s.ws(i) for i in range(len(s.ports))]
    for t in tables:
        for seat, token in enumerate(t.tokens):
            # Spread one table's players over the web processes, as a balancer would.
            t.sockets.append(TableSocket(urls=[urls[(t.id + seat) % len(urls)]], table_id=t.id, token=token, name=f"t{t.id}s{seat}"))
        for k in range(args.spectators):
            t.sockets.append(TableSocket(urls=[urls[(t.id + k + 1) % len(urls)]], table_id=t.id, name=f"t{t.id}w{k}"))
    try:
        await connect_all([sock for t in tables for sock in t.sockets])
        await asyncio.to_thread(start_tables, s, tables)
        for t in tables:
            ok = await asyncio.gather(*(sock.wait_for(lambda x: x.ready, 30) for sock in t.sockets))
            if not all(ok):
                raise RuntimeError(f"table {t.id} did not start on every socket")
            t.player = BotPlayer(args.game, [x for x in t.sockets if x.token], level=args.level, seed=t.id)
        figures = Figures()
        loop = asyncio.get_running_loop()
        warm_at = time.perf_counter() + args.warmup
        stop_at = loop.time() + args.warmup + args.seconds
        rng = random.Random(1)

        async def measure() -> None:
            await asyncio.sleep(args.warmup)
            await asyncio.to_thread(window.start)

        opener = asyncio.create_task(measure())
        await asyncio.gather(*(drive(t, figures, warm_at, stop_at, args.rate, rng) for t in tables))
        await opener
        await asyncio.to_thread(window.stop)
        await asyncio.sleep(1.0)  # deliveries still on their way before the log is compared
        return figures
    finally:
        await asyncio.gather(*(sock.close() for t in tables for sock in t.sockets), return_exceptions=True)


class Window:
    """The measured window: process figures and, optionally, py-spy of the web processes."""

    def __init__(self, s: Cluster, seconds: float, profile: Path | None, idle: bool = False) -> None:
        self.s, self.seconds, self.profile, self.idle = s, seconds, profile, idle
        self.files: list[Path] = []

    def start(self) -> None:
        pids = self.s.pids()
        db = self.s.env["DATABASE_URL"]
        redis_port = int(self.s.env["REDIS_URL"].rsplit(":", 1)[1].split("/")[0])
        groups = {
            "daphne": lambda: pids["daphne"],
            "celery (worker, beat)": family(pids["celery"][0]) if pids.get("celery") else (lambda: []),
            "postgres (own DB)": lambda: postgres_backends(db),
            "redis-server": lambda: redis_pids(redis_port),
            "load client": alone(os.getpid()),
        }
        self.watch = ProcWatch(groups)
        self.watch.start()
        self.profiler = Profiler(self.profile, pids["daphne"], self.seconds, idle=self.idle) if self.profile else None

    def stop(self) -> None:
        self.wall = time.perf_counter() - self.watch.t0
        self.procs, self.machine = self.watch.stop()
        if self.profiler is not None:
            self.files = self.profiler.wait()


def check_delivery(s: Cluster, tables: list[Table]) -> tuple[int, int, int]:
    """(sockets behind the server's log, gaps seen, regressions): all must be 0."""
    behind = 0
    for t in tables:
        match = t.sockets[0].match
        info = api(s.url(0), "GET", f"/api/matches/{match}/")
        for sock in t.sockets:
            if sock.match == match and sock.last != info["event_count"]:
                behind += 1
    gaps = sum(sock.gaps for t in tables for sock in t.sockets)
    regressions = sum(sock.regressions + sock.resets for t in tables for sock in t.sockets)
    return behind, gaps, regressions


def report(args: argparse.Namespace, figures: Figures, window: float, procs: dict[str, Any], machine: float,
           delivery: tuple[int, int, int], loads: tuple[str, str], sockets: int) -> str:
    def trio(values: list[float]) -> str:
        return " / ".join(f"{percentile(values, q):.1f}" for q in (50, 95, 99))

    lines = [
        f"game {args.game}, {args.tables} table(s) x {args.seats} seats + {args.spectators} spectator(s) = {sockets} sockets, "
        f"{args.web} daphne process(es), {args.rate:g} actions/s per table, {window:.0f} s measured",
        f"action -> ack            p50/p95/p99 ms: {trio(figures.ack_ms)}  ({len(figures.ack_ms)} acks)",
        f"action -> every socket   p50/p95/p99 ms: {trio(figures.fanout_ms)}  ({len(figures.fanout_ms)} actions)",
        f"committed actions/s: {figures.committed / window:.1f}; refused by the rules: {sum(figures.errors.values())} "
        f"{dict(figures.errors) or ''}; matches finished: {figures.matches_finished}; idle turns: {figures.idle}",
        f"dropped or out of order: {delivery[0]} sockets behind the log, {delivery[1]} gaps, {delivery[2]} lost/reset, "
        f"{figures.undelivered} actions not seen by every socket, {figures.no_answer} actions unanswered",
    ]
    for name, g in procs.items():
        lines.append(f"  {name:22} CPU {g.cpu_percent:6.1f}% of a core   RSS {g.rss_mb:7.1f} MB   ({g.processes} processes)")
    lines.append(f"machine CPU {machine:.0f}% of 2 cores; load average before {loads[0]}, after {loads[1]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.loadtest", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--seats", type=int, default=None, help="players per table (default 6 for one table, else 5)")
    parser.add_argument("--spectators", type=int, default=0, help="watching sockets per table")
    parser.add_argument("--web", type=int, default=1, choices=(1, 2), help="daphne processes")
    parser.add_argument("--game", default="zack", choices=sorted(GAME_OPTIONS))
    parser.add_argument("--rate", type=float, default=None, help="actions per second per table (default 10 for one table, else 1)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--profile", type=Path, default=None, help="py-spy the web processes during the window into this folder")
    parser.add_argument("--profile-idle", action="store_true", help="with --profile: sample every thread, waiting ones too (wall time), not only the GIL holder")
    args = parser.parse_args(argv)
    args.seats = args.seats or (6 if args.tables == 1 else 5)
    args.rate = args.rate or (10.0 if args.tables == 1 else 1.0)
    loads = [load_average()]
    with cluster(web=args.web, keep_logs=True) as (s, _redis, _proxy):
        print(f"cluster up: daphne on {', '.join(map(str, s.ports))}; logs in {s.logs}", file=sys.stderr)
        tokens = make_tokens(s, args.tables * args.seats)
        tables = seat_tables(s, args.game, args.tables, args.seats, tokens, GAME_OPTIONS[args.game])
        print(f"{len(tables)} tables seated; playing", file=sys.stderr)
        with client_gc.settled() as pauses:
            window = Window(s, args.seconds, args.profile, args.profile_idle)
            figures = asyncio.run(run_tables(s, args, tables, window))
            delivery = check_delivery(s, tables)
            loads.append(load_average())
            sockets = sum(len(t.sockets) for t in tables)
            print(report(args, figures, min(window.wall, args.seconds), window.procs, window.machine, delivery, (loads[0], loads[1]), sockets))
            print(pauses.summary(window.watch.t0, window.watch.t0 + window.wall))
            if window.files:
                print(summarise(window.files, root=str(Path(__file__).resolve().parents[2])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
