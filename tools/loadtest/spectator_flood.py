"""Spectators flooding `sync` against honest players: `python -m tools.loadtest.spectator_flood [--services] [--root DIR]`.

The attack of docs/security.md "Limits": anonymous spectator sockets on a live table, each
sending `sync` from the start of the match at just under its own rate limit, while the table's
players play. Three players play one ZACK! table at `--rate` actions a second (the earliest
move their own bots plan, as tools/loadtest/bench.py drives a table), first alone for
`--seconds` (idle), then with `--flooders` spectators syncing (flood). Prints the players'
action -> ack p50 and p95 in both windows, the syncs answered, and the ratio.

The flooders are assumed to come from as many addresses (the attack keeps within every
per-socket and per-address limit): the per-address budgets are lifted for the run, so what is
measured is how a sync is served, not the budget refusing it. `--root DIR` runs the daphne of
another checkout (an older commit: the figures before), with this checkout's clients.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import websockets

from tests.integration import stack as stack_module
from tests.integration.stack import api, register, stack
from tools.loadtest.bench import GAME_OPTIONS, Figures, Table, drive
from tools.loadtest.client import BotPlayer, TableSocket, connect_all, percentile


async def flood(url: str, stop: asyncio.Event, rate: float, answered: list[int]) -> None:
    """One spectator: `sync` from 0 at `rate` a second, reading whatever comes back."""
    async with websockets.connect(url, max_size=2**24, compression=None) as ws:

        async def read() -> None:
            async for raw in ws:
                if '"events"' in raw[:40]:
                    answered[0] += 1

        reader = asyncio.create_task(read())
        try:
            while not stop.is_set():
                await ws.send(json.dumps({"type": "sync", "since": 0}))
                await asyncio.sleep(1.0 / rate)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader


def _flood_process(url: str, n: int, rate: float, answered: Any) -> None:
    async def all_of_them() -> None:
        counted = [0]

        async def tally() -> None:
            while True:
                await asyncio.sleep(0.5)
                answered.value = counted[0]

        asyncio.create_task(tally())
        await asyncio.gather(*(flood(url, asyncio.Event(), rate, counted) for _ in range(n)))

    asyncio.run(all_of_them())


async def window(table: Table, seconds: float, rate: float) -> list[float]:
    figures = Figures()
    loop = asyncio.get_running_loop()
    start = loop.time()
    import random

    await drive(table, figures, warm_at=time.perf_counter() + 1.0, stop_at=start + seconds, rate=rate, rng=random.Random(1))
    return figures.ack_ms


async def run(args: argparse.Namespace, base: str, ws: str) -> dict[str, Any]:
    tokens = [await asyncio.to_thread(register, base, f"flood{i}x{os.getpid() % 1000}") for i in range(3)]
    created = await asyncio.to_thread(api, base, "POST", "/api/tables/", {"game": "zack", "seats": 3, "options": GAME_OPTIONS["zack"]}, tokens[0])
    for seat in (1, 2):
        await asyncio.to_thread(api, base, "POST", f"/api/tables/{created['id']}/join/", {"seat": seat}, tokens[seat])
    table = Table(id=created["id"], tokens=tokens)
    table.sockets = [TableSocket(urls=[ws], table_id=table.id, token=t, name=f"p{i}") for i, t in enumerate(tokens)]
    await connect_all(table.sockets)
    await asyncio.to_thread(api, base, "POST", f"/api/tables/{table.id}/start/", {}, tokens[0])
    await asyncio.gather(*(s.wait_for(lambda x: x.ready, 30) for s in table.sockets))
    table.player = BotPlayer(game="zack", sockets=table.sockets, level="normal", seed=1)
    idle = await window(table, args.seconds, args.rate)
    # The flooders run in a process of their own: in the players' event loop, reading forty sockets'
    # frames would delay reading the players' acks and be measured as the server's slowness.
    answered = multiprocessing.Value("l", 0)
    flooders = multiprocessing.Process(
        target=_flood_process, args=(f"{ws}/ws/tables/{table.id}/", args.flooders, args.sync_rate, answered), daemon=True
    )
    flooders.start()
    await asyncio.sleep(2.0)
    flooded = await window(table, args.seconds, args.rate)
    flooders.terminate()
    flooders.join(10)
    for s in table.sockets:
        await s.close()
    return {"idle": idle, "flood": flooded, "syncs_answered": answered.value}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--services", action="store_true", help="PostgreSQL + Redis from DATABASE_URL/REDIS_URL")
    parser.add_argument("--root", type=Path, default=None, help="run the server of another checkout")
    parser.add_argument("--flooders", type=int, default=40)
    parser.add_argument("--sync-rate", type=float, default=19.0, help="syncs a second per flooder (the socket budget is 20)")
    parser.add_argument("--rate", type=float, default=10.0, help="the players' actions a second")
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    if args.root is not None:
        stack_module.ROOT = args.root
    os.environ.update(WS_ADDRESS_MESSAGES_PER_SECOND="0", WS_MAX_SOCKETS_PER_ADDRESS="1000")
    with stack(services=args.services, web=1, worker=True) as s:
        out = asyncio.run(run(args, s.url(), s.ws()))
    idle, flooded = out["idle"], out["flood"]
    p50_idle, p50_flood = percentile(idle, 50), percentile(flooded, 50)
    print(f"server: {args.root or 'this checkout'}; {'PostgreSQL + Redis' if args.services else 'embedded default'}")
    print(f"idle : action->ack p50 {p50_idle:.1f} ms, p95 {percentile(idle, 95):.1f} ms ({len(idle)} actions)")
    print(f"flood: action->ack p50 {p50_flood:.1f} ms, p95 {percentile(flooded, 95):.1f} ms ({len(flooded)} actions), "
          f"{args.flooders} spectators syncing {args.sync_rate}/s each, {out['syncs_answered']} events frames reached them (sync answers and live play)")
    print(f"flood p50 / idle p50: {p50_flood / p50_idle:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
