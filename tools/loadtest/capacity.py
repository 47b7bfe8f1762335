"""Throughput, memory and the figures behind docs/capacity.md: `python -m tools.loadtest.capacity <what>`.

- `ramp [--tables T] [--rates 1,2,4,...] [--game smackit]`: one daphne
  process (the production configuration of tools/loadtest), T tables played
  by the game's bots, the rate per table raised step by step. Per step:
  committed actions/s, action → ack and action → every socket p50/p99,
  daphne's CPU per committed action (ms; the cost one core divides), and
  what the step cost the stores: PostgreSQL commits and rows written per
  second (`pg_stat_database`), WAL MB/s (`pg_current_wal_lsn()` deltas: the
  whole PostgreSQL cluster, so other databases' writes count too), events per
  action and the events table's bytes per event, Redis commands and PUBLISHes
  per second (`INFO commandstats` deltas of the private redis-server). Then
  the highest rate whose every-socket p99 ≤ 50 ms with nothing lost.
- `memory [--steps 500,1000,2000]`: resident memory of one daphne with 0 and
  then that many idle sockets open (spectators of a few tables, answering
  pings), KB per socket, and daphne's CPU over 10 s at each step (what idle sockets cost).
- `queries [--calls N]`: what one table message and one stored round trip cost
  a web process's database thread, through the ORM and by hand, in turns (a
  4-seat table with its players' live sockets, on the cluster's PostgreSQL).
- `rates [--matches M]`: the action rate of a realistic table per game, from
  bot-vs-bot matches simulated as the platform times them (pure rules, no
  server): actions and events per second of match time.

Figures, not assertions; each line notes the load average (a shared 2-core
machine: re-run on a quiet one for docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import time
from dataclasses import dataclass

import psutil

from tools.loadtest import client_gc
from tools.loadtest.bench import GAME_OPTIONS, Figures, Table, drive, seat_tables, start_tables
from tools.loadtest.client import BotPlayer, TableSocket, connect_all, percentile
from tools.loadtest.cluster import Cluster, cluster, make_tokens, run_script
from tools.loadtest.procstats import ProcWatch, load_average

P99_BOUND_MS = 50.0


# --- what the stores did during a window ------------------------------------------


@dataclass
class StoreCounters:
    """PostgreSQL and Redis counters at one moment; `minus` gives a window's rates."""

    at: float
    wal: int  # bytes of WAL position
    commits: int
    rows: int  # inserted + updated + deleted
    events: int
    commands: int
    publishes: int
    net_in: int

    def minus(self, before: StoreCounters) -> dict[str, float]:
        dt = self.at - before.at
        return {
            "wal_mb_s": (self.wal - before.wal) / dt / 2**20,
            "commits_s": (self.commits - before.commits) / dt,
            "rows_s": (self.rows - before.rows) / dt,
            "events_s": (self.events - before.events) / dt,
            "redis_cmds_s": (self.commands - before.commands) / dt,
            "publish_s": (self.publishes - before.publishes) / dt,
            "redis_in_kb_s": (self.net_in - before.net_in) / dt / 1024,
        }


class Stores:
    """Reads the counters of the cluster's own database and private redis-server."""

    def __init__(self, s: Cluster) -> None:
        import psycopg
        import redis

        self.db = psycopg.connect(s.env["DATABASE_URL"], autocommit=True)
        self.redis = redis.Redis.from_url(s.env["REDIS_URL"])

    def read(self) -> StoreCounters:
        self.db.execute("select pg_stat_clear_snapshot()")
        row = self.db.execute(
            "select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, xact_commit, tup_inserted + tup_updated + tup_deleted,"
            " (select count(*) from games_matchevent) from pg_stat_database where datname = current_database()"
        ).fetchone()
        assert row is not None
        cmd = self.redis.info("commandstats")
        stats = self.redis.info("stats")
        return StoreCounters(
            at=time.perf_counter(), wal=int(row[0]), commits=int(row[1]), rows=int(row[2]), events=int(row[3]),
            commands=int(stats["total_commands_processed"]), publishes=int(cmd.get("cmdstat_publish", {}).get("calls", 0)),
            net_in=int(stats["total_net_input_bytes"]),
        )

    def event_bytes(self) -> float:
        """The events table's bytes (heap, indexes, TOAST) per stored event."""
        row = self.db.execute("select pg_total_relation_size('games_matchevent'), count(*) from games_matchevent").fetchone()
        assert row is not None
        return row[0] / max(1, row[1])

    def close(self) -> None:
        self.db.close()
        self.redis.close()


# --- ramp --------------------------------------------------------------------------


async def ramp(s: Cluster, args: argparse.Namespace, tables: list[Table]) -> list[str]:
    for t in tables:
        t.sockets = [TableSocket(urls=[s.ws(0)], table_id=t.id, token=tok, name=f"t{t.id}s{i}") for i, tok in enumerate(t.tokens)]
    stores = Stores(s)
    lines = []
    try:
        await connect_all([x for t in tables for x in t.sockets], batch=10, tries=6)
        await asyncio.to_thread(start_tables, s, tables)
        for t in tables:
            await asyncio.gather(*(x.wait_for(lambda x: x.ready, 30) for x in t.sockets))
            t.player = BotPlayer(args.game, t.sockets, seed=t.id)
        best: tuple[float, str] | None = None
        loop = asyncio.get_running_loop()
        watch_pid = s.pids()["daphne"][0]
        for rate in args.rates:
            figures = Figures()
            warm_at = time.perf_counter() + args.warmup
            stop_at = loop.time() + args.warmup + args.seconds
            rng = random.Random(int(rate * 1000))

            async def window(stop_at: float = stop_at) -> tuple[StoreCounters, StoreCounters, float]:
                await asyncio.sleep(args.warmup)
                watch = ProcWatch({"daphne": lambda: [watch_pid]})
                watch.start()
                before = await asyncio.to_thread(stores.read)
                await asyncio.sleep(max(0.0, stop_at - loop.time()))
                after = await asyncio.to_thread(stores.read)
                procs, _ = watch.stop()
                return before, after, procs["daphne"].cpu_percent

            counting = asyncio.create_task(window())
            await asyncio.gather(*(drive(t, figures, warm_at, stop_at, rate, rng) for t in tables))
            before, after, cpu = await counting
            d = after.minus(before)
            committed = figures.committed / args.seconds
            p50, p99 = percentile(figures.fanout_ms, 50), percentile(figures.fanout_ms, 99)
            lost = figures.undelivered + figures.no_answer
            ok = p99 <= P99_BOUND_MS and lost == 0
            per_action = d["events_s"] / committed if committed else float("nan")
            cpu_ms = cpu * 10 / committed if committed else float("nan")  # % of a core = 10 ms of CPU per second
            line = (
                f"{len(tables)} tables x {rate:g}/s = {len(tables) * rate:g} offered: {committed:6.1f} committed/s | "
                f"every socket p50 {p50:6.1f} p99 {p99:6.1f} ms, ack p99 {percentile(figures.ack_ms, 99):6.1f} ms | "
                f"lost {lost} | daphne CPU {cpu:5.1f}% = {cpu_ms:.2f} ms per committed action | PG {d['commits_s']:6.1f} commits/s {d['rows_s']:7.1f} rows/s "
                f"WAL {d['wal_mb_s']:.2f} MB/s, {per_action:.2f} events/action | Redis {d['redis_cmds_s']:6.0f} cmds/s "
                f"{d['publish_s']:6.0f} PUBLISH/s {d['redis_in_kb_s']:.0f} KB/s in | load {load_average()}"
                f"{'  <= bound' if ok else ''}"
            )
            print(line, flush=True)
            lines.append(line)
            if ok:
                best = (committed, line)
            if p99 > 4 * P99_BOUND_MS or committed < 0.7 * len(tables) * rate:
                break  # saturated: the next step only measures a queue
        lines.append(f"events table: {stores.event_bytes():.0f} bytes per event (heap + indexes + TOAST)")
        lines.append(
            f"highest rate with every-socket p99 <= {P99_BOUND_MS:g} ms and nothing lost: "
            + (f"{best[0]:.0f} committed actions/s" if best else "none of the steps")
        )
        return lines
    finally:
        stores.close()
        await asyncio.gather(*(x.close() for t in tables for x in t.sockets), return_exceptions=True)


def run_ramp(args: argparse.Namespace) -> None:
    with cluster(web=1) as (s, _redis, _proxy):
        tokens = make_tokens(s, args.tables * args.seats)
        tables = seat_tables(s, args.game, args.tables, args.seats, tokens, GAME_OPTIONS[args.game])
        print(f"{len(tables)} tables x {args.seats} seats seated ({args.game}); ramping, {args.seconds:g} s per step", file=sys.stderr)
        with client_gc.settled() as pauses:
            lines = asyncio.run(ramp(s, args, tables))
    print("\n".join(lines))
    print(pauses.summary())


# --- memory ------------------------------------------------------------------------


def cpu_percent(pid: int, seconds: float = 10.0) -> float:
    """The process's CPU over `seconds`, in % of one core: what idle sockets cost (their pings and pongs)."""
    proc = psutil.Process(pid)
    before = proc.cpu_times()
    time.sleep(seconds)
    after = proc.cpu_times()
    return 100 * ((after.user - before.user) + (after.system - before.system)) / seconds


def rss_settled(pid: int, seconds: float = 3.0) -> int:
    """daphne's resident bytes once the last connections settled (the largest of a few samples)."""
    proc = psutil.Process(pid)
    samples = []
    for _ in range(int(seconds / 0.5)):
        time.sleep(0.5)
        samples.append(proc.memory_info().rss)
    return max(samples)


async def memory(s: Cluster, args: argparse.Namespace, table_ids: list[int]) -> list[str]:
    pid = s.pids()["daphne"][0]
    base = await asyncio.to_thread(rss_settled, pid)
    lines = [f"daphne RSS with 0 sockets: {base / 2**20:.1f} MB"]
    sockets: list[TableSocket] = []
    try:
        for target in args.steps:
            fresh = [TableSocket(urls=[s.ws(0)], table_id=table_ids[i % len(table_ids)], name=f"m{i}", full_history=False)
                     for i in range(len(sockets), target)]
            await connect_all(fresh, batch=20, tries=6)  # daphne drops a handshake its app has not accepted in 5 s
            sockets.extend(fresh)
            gc.collect()
            rss = await asyncio.to_thread(rss_settled, pid)
            per = (rss - base) / len(sockets) / 1024
            cpu = await asyncio.to_thread(cpu_percent, pid)
            line = (f"daphne RSS with {len(sockets):5} idle sockets: {rss / 2**20:7.1f} MB -> {per:5.1f} KB per socket; "
                    f"CPU {cpu:5.1f} % of a core idle (pings and pongs) "
                    f"(pings answered so far {sum(x.pings for x in sockets)}; load {load_average()})")
            print(line, flush=True)
            lines.append(line)
        return lines
    finally:
        await asyncio.gather(*(x.close() for x in sockets), return_exceptions=True)


def run_memory(args: argparse.Namespace) -> None:
    with cluster(web=1) as (s, _redis, _proxy):
        tokens = make_tokens(s, 2 * args.tables)
        tables = seat_tables(s, "smackit", args.tables, 2, tokens, GAME_OPTIONS["smackit"])
        start_tables(s, tables)
        lines = asyncio.run(memory(s, args, [t.id for t in tables]))
    print("\n".join(lines))


# --- queries -----------------------------------------------------------------------

QUERIES_SCRIPT = """
import time, uuid
from django.utils import timezone
from accounts.models import User
from games import selectors
from games.services.presence import presence_rtt_set
from games.services.tables import table_create, table_join, table_start
from games.models import Table, TableConnection, WebProcess

users = [User.objects.create_user(f"q{i}-{uuid.uuid4().hex[:6]}", password="!") for i in range(4)]
table = table_create(host=users[0], game="zack", seats=4, options={})
for u in users[1:]:
    table_join(table_id=table.pk, user=u)
table_start(table_id=table.pk, by=users[0])
process = WebProcess.objects.create(id=uuid.uuid4(), seen_at=timezone.now())
channels = [f"q-{uuid.uuid4().hex}" for _ in users]
for u, c in zip(users, channels):
    TableConnection.objects.create(table=table, user=u, channel_name=c, process_id=process.pk, opened_at=timezone.now(), rtt_ms=30)

def orm_payload():
    return selectors.table_payload(Table.objects.select_related("host").filter(pk=table.pk).first())

def orm_rtt():
    TableConnection.objects.filter(channel_name=channels[0]).update(rtt_ms=31)

assert orm_payload() == selectors.table_payload_or_none(table.pk)
cases = [
    ("table message payload, ORM (3 queries)", orm_payload),
    ("table message payload, one query (selectors.table_payload_or_none)", lambda: selectors.table_payload_or_none(table.pk)),
    ("round trip stored, ORM update", orm_rtt),
    ("round trip stored, by hand (presence_rtt_set)", lambda: presence_rtt_set(channel_name=channels[0], rtt_ms=32)),
]
for turn in range(2):
    for name, fn in cases:
        start = time.perf_counter()
        for _ in range(CALLS):
            fn()
        print(f"{name:72} {(time.perf_counter() - start) / CALLS * 1000:6.3f} ms per call (turn {turn + 1})", flush=True)
"""


def run_queries(args: argparse.Namespace) -> None:
    with cluster(web=1, worker=False) as (s, _redis, _proxy):
        print(run_script(s, f"CALLS = {args.calls}\n" + QUERIES_SCRIPT), end="")


# --- rates -------------------------------------------------------------------------


def run_rates(args: argparse.Namespace) -> None:
    from games.kit.registry import INSTALLED, get_bot, get_rules
    from tools.sim import play_bots

    for slug in INSTALLED:
        rules, bot = get_rules(slug), get_bot(slug)
        for seats in sorted({rules.min_seats, min(4, rules.max_seats)}):
            if seats < rules.min_seats:
                continue
            reports = [play_bots(rules, bot, ["normal"] * seats, seed) for seed in range(args.matches)]
            seconds = sum(r.duration_ms for r in reports) / 1000
            actions = sum(r.actions for r in reports)
            events = sum(r.events for r in reports)
            print(
                f"{slug:8} {seats} bots: {actions / seconds:5.2f} actions/s per table, {events / seconds:5.2f} events/s, "
                f"{events / max(1, actions):.2f} events/action; median match {statistics.median(r.duration_ms for r in reports) / 1000:.0f} s "
                f"({args.matches} matches, {sum(r.outcome is not None for r in reports)} finished)",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.loadtest.capacity", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("ramp", help="committed actions/s of one daphne under a rising rate, and what the stores did")
    r.add_argument("--tables", type=int, default=100)
    r.add_argument("--seats", type=int, default=3)
    r.add_argument("--game", default="smackit", choices=sorted(GAME_OPTIONS))
    r.add_argument("--rates", default="0.5,1,2,3,4,6,8", help="actions/s per table, one step each")
    r.add_argument("--seconds", type=float, default=8.0, help="measured window per step")
    r.add_argument("--warmup", type=float, default=2.0)
    m = sub.add_parser("memory", help="daphne resident memory per idle socket")
    m.add_argument("--steps", default="500,1000,2000")
    m.add_argument("--tables", type=int, default=20)
    q = sub.add_parser("queries", help="a table message's and a stored round trip's database cost, ORM against by hand")
    q.add_argument("--calls", type=int, default=500)
    a = sub.add_parser("rates", help="actions/s per table of bot-vs-bot matches, per game")
    a.add_argument("--matches", type=int, default=20)
    args = parser.parse_args(argv)
    print(f"load average before: {load_average()}", file=sys.stderr)
    if args.what == "ramp":
        args.rates = [float(x) for x in args.rates.split(",")]
        run_ramp(args)
    elif args.what == "queries":
        run_queries(args)
    elif args.what == "memory":
        args.steps = [int(x) for x in args.steps.split(",")]
        run_memory(args)
    else:
        run_rates(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
