"""Side by side with boardgame.io: `python -m tools.loadtest.versus [--actions N] [--warmup W] [--gap-ms G]`.

One 3-seat flip-the-top-card table on each server, in one run, driven by the
same client design (Python asyncio over `websockets`, one reader task per
socket stamping each frame's arrival; tools/loadtest/client.py for ours,
tools/loadtest/sio.py for boardgame.io's socket.io):

- **this platform**, the production configuration as tools/loadtest starts it
  (a fresh PostgreSQL database, a private redis-server for the channel layer
  and the broker, a Celery worker with beat, one daphne): a real Smack It!
  match, default options but no length limit; the player to move flips. A
  Smack It! card on top is smacked by the turn holder before play goes on
  (not measured: the flip is the scenario);
- **boardgame.io 0.50.2** (Node, socket.io, state in memory, nothing
  durable): tools/loadtest/bgio/server.js, the same flip with the turn
  passing (`npm install` into tools/loadtest/bgio/ on first use).

Measured per flip: from the moment the mover's frame is sent until every seat
holds the new state (ours: the flip's seq on every socket; boardgame.io: a
`_stateID` past the one the move was sent against on every socket), after
`--warmup` unmeasured flips, one flip in flight, `--gap-ms` between flips.
Prints p50/p95/p99 of both, the ratio, and the load average. Every client
answers its server's pings. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.integration.stack import free_port, wait_http
from tools.loadtest import client_gc
from tools.loadtest.bench import Figures, seat_tables, start_tables
from tools.loadtest.bench import rematch as table_rematch
from tools.loadtest.client import TableSocket, connect_all, percentile
from tools.loadtest.cluster import cluster, make_tokens
from tools.loadtest.procstats import load_average
from tools.loadtest.sio import BgioSeat

BGIO = Path(__file__).resolve().parent / "bgio"
SEATS = 3
# Smack It!'s defaults otherwise: the idle-flip timer re-armed by every flip. No human floor: the script smacks a
# smack card the moment it arrives, which a floor judges an anticipation (a false smack, the card left on top until
# the idle timer flips it over, ten seconds of nothing); the floor is for people, the flip is what is measured.
OPTIONS = {"max_minutes": 0}
TABLE = {"min_reaction_ms": 0}


@dataclass
class Run:
    """One server's figures: flip → every seat, in ms."""

    name: str
    ms: list[float] = field(default_factory=list)
    refused: int = 0
    lost: int = 0
    pings: int = 0
    extra: str = ""

    def trio(self) -> tuple[float, float, float]:
        return percentile(self.ms, 50), percentile(self.ms, 95), percentile(self.ms, 99)


async def measure(run: Run, flips: int, warmup: int, gap_s: float, step: Callable[[], Awaitable[float | None]]) -> None:
    """Call `step` (one flip, its latency or None) until `flips` are measured after `warmup` flips."""
    done = 0
    while len(run.ms) < flips:
        latency = await step()
        if latency is None:
            continue
        done += 1
        if done > warmup:
            run.ms.append(latency)
        if gap_s:
            await asyncio.sleep(gap_s)


# --- this platform -----------------------------------------------------------------


class PlatformFlips:
    """The player to move flips on a real Smack It! table; a smack card on top is smacked first."""

    def __init__(self, sockets: list[TableSocket], run: Run, rematch: Callable[[], Awaitable[None]]) -> None:
        self.sockets, self.run, self.rematch = sockets, run, rematch

    def _by_seat(self, seat: int | None) -> TableSocket:
        return next((s for s in self.sockets if s.seat == seat), self.sockets[0])

    async def _everywhere(self, seq: int) -> list[float] | None:
        arrivals = await asyncio.gather(*(s.wait_seq(seq, 15) for s in self.sockets))
        if any(a is None for a in arrivals):
            self.run.lost += 1
            return None
        return arrivals  # type: ignore[return-value]

    async def step(self) -> float | None:
        view = self.sockets[0].view or {}
        if view.get("finished"):
            await self.rematch()
            return None
        top = (view.get("centre") or {}).get("top")
        if view.get("race") is not None or (view.get("turn") is None and not (top and top.get("face") == "smack")):
            await asyncio.sleep(0.005)  # a race being judged, or a round waiting for its timer
            return None
        sock = self._by_seat(view.get("turn"))
        kind = "smack" if top and top.get("face") == "smack" else "flip"
        answer = await sock.act({"kind": kind}, timeout=15)
        if not answer.ok or answer.seq is None:
            self.run.refused += 1
            await asyncio.sleep(0.005)
            return None
        arrivals = await self._everywhere(answer.seq)
        if arrivals is None or kind != "flip":
            return None
        return 1000 * (max(arrivals) - answer.sent_at)


async def platform_run(args: argparse.Namespace) -> Run:
    run = Run("this platform (daphne, PostgreSQL durable commit, Redis)")
    loop = asyncio.get_running_loop()
    # One socket here flips every few ms, far above a person's 20 actions/s: the anti-flood limit is raised (boardgame.io has none).
    with cluster(web=1, extra_env={"WS_MAX_ACTIONS_PER_SECOND": "100000"}) as (s, _redis, _proxy):
        tokens = await asyncio.to_thread(make_tokens, s, SEATS, "versus")
        table = (await asyncio.to_thread(seat_tables, s, "smackit", 1, SEATS, tokens, OPTIONS, TABLE))[0]
        table.sockets = [TableSocket(urls=[s.ws(0)], table_id=table.id, token=t, name=f"v{i}") for i, t in enumerate(tokens)]
        await connect_all(table.sockets)
        try:
            await asyncio.to_thread(start_tables, s, [table])
            await asyncio.gather(*(x.wait_for(lambda x: x.ready, 30) for x in table.sockets))

            async def rematch() -> None:
                await table_rematch(table, Figures())

            flips = PlatformFlips(table.sockets, run, rematch)
            t0 = loop.time()
            await measure(run, args.actions, args.warmup, args.gap_ms / 1000, flips.step)
            run.extra = f"{loop.time() - t0:.1f} s"
        finally:
            run.pings = sum(x.pings for x in table.sockets)
            await asyncio.gather(*(x.close() for x in table.sockets), return_exceptions=True)
    return run


# --- boardgame.io ------------------------------------------------------------------


def bgio_install() -> None:
    """`npm install` boardgame.io@0.50.2 into tools/loadtest/bgio/ unless it is there."""
    if (BGIO / "node_modules" / "boardgame.io" / "package.json").exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is needed for the boardgame.io side (Node 20)")
    print("installing boardgame.io@0.50.2 into tools/loadtest/bgio/ ...", file=sys.stderr)
    subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=BGIO, check=True)


@contextlib.contextmanager
def bgio_server() -> Iterator[int]:
    bgio_install()
    port = free_port()
    log = open(Path(os.environ.get("VAR_DIR", "/tmp")) / f"bgio-{port}.log", "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([shutil.which("node") or "node", "server.js", str(port)], cwd=BGIO, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_http(f"http://127.0.0.1:{port}/games", timeout=30)
        yield port
    finally:
        proc.kill()
        proc.wait(timeout=30)
        log.close()


def lobby(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


async def bgio_run(args: argparse.Namespace) -> Run:
    run = Run("boardgame.io 0.50.2 (Node, socket.io, in memory, nothing durable)")
    loop = asyncio.get_running_loop()
    with bgio_server() as port:
        match = (await asyncio.to_thread(lobby, port, "/games/flip/create", {"numPlayers": SEATS}))["matchID"]
        seats = []
        for p in range(SEATS):
            joined = await asyncio.to_thread(lobby, port, f"/games/flip/{match}/join", {"playerID": str(p), "playerName": f"p{p}"})
            seats.append(BgioSeat(port, "flip", match, str(p), joined["playerCredentials"], SEATS))
        await asyncio.gather(*(s.connect() for s in seats))
        try:

            async def step() -> float | None:
                mover = next(s for s in seats if s.to_move)
                sent = time.perf_counter()
                before = await mover.move("flip")
                arrivals = await asyncio.gather(*(s.wait_past(before, 15) for s in seats))
                if any(a is None for a in arrivals):
                    run.lost += 1
                    return None
                return 1000 * (max(arrivals) - sent)  # type: ignore[type-var]

            t0 = loop.time()
            await measure(run, args.actions, args.warmup, args.gap_ms / 1000, step)
            run.extra = f"{loop.time() - t0:.1f} s"
        finally:
            run.pings = sum(s.pings for s in seats)
            await asyncio.gather(*(s.close() for s in seats), return_exceptions=True)
    return run


# --- report ------------------------------------------------------------------------


def report(ours: Run, theirs: Run, loads: list[str]) -> str:
    lines = ["flip -> every seat holds the new state, one 3-seat table, one flip in flight:",
             f"  {'':66} p50 / p95 / p99 ms"]
    for r in (ours, theirs):
        p50, p95, p99 = r.trio()
        lines.append(f"  {r.name:66} {p50:.2f} / {p95:.2f} / {p99:.2f}   ({len(r.ms)} flips in {r.extra}; "
                     f"{r.refused} refused, {r.lost} lost, {r.pings} pings answered)")
    (a50, a95, a99), (b50, b95, b99) = ours.trio(), theirs.trio()
    lines.append(f"  {'ratio (this platform / boardgame.io)':66} {a50 / b50:.2f}x / {a95 / b95:.2f}x / {a99 / b99:.2f}x")
    lines.append(f"load average before {loads[0]}, between {loads[1]}, after {loads[2]} (2 cores)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.loadtest.versus", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=1000, help="measured flips per server")
    parser.add_argument("--warmup", type=int, default=100, help="unmeasured flips first")
    parser.add_argument("--gap-ms", type=float, default=5.0, help="pause between one flip's arrival everywhere and the next flip")
    parser.add_argument("--only", choices=("platform", "bgio"), default=None, help="run one side only")
    args = parser.parse_args(argv)
    loads = [load_average()]
    with client_gc.settled() as pauses:  # both servers' clients run in this process, under the same collector
        theirs = asyncio.run(bgio_run(args)) if args.only != "platform" else Run("boardgame.io (not run)")
        loads.append(load_average())
        ours = asyncio.run(platform_run(args)) if args.only != "bgio" else Run("this platform (not run)")
        loads.append(load_average())
    print(report(ours, theirs, loads))
    print(pauses.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
