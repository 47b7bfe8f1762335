"""Fair races on real sockets: `python -m tools.loadtest.races [--races N] [--delays 0,40,80,150] [--services]`.

Two players race for Smack It! smack cards through real daphne (and Celery)
processes: "near" connects directly, "far" through a delay line the kernel's
TCP sees, by the one-way time given (tests/support/delayline.py; as root). A
TCP proxy (tests/support/delayproxy.py, without root) hides the delay from the
kernel, whose round trip bounds the compensation (PROTOCOL.md "Fair play"):
through it the far player is not compensated, as the table says. Each
player smacks a fixed reaction time after its own socket received the smack
card (the moment its screen could show it); the far player reacts faster.
Both answer the server's pings at once, as the browser does (a cheating
client of the security tests answers them `pong_delay_ms` late, and may reach
the server through a socket of its own: tests/support/delayline.py).

For each delay, with compensation (`lag_cap_ms` 200) and without (0), it
prints how many races the faster reactor won, and the extra time the race
result took to appear: from the first claimant's own `race_claimed` to its
`race_settled` (p50/p99; by design at most `lag_cap_ms` minus that claimant's
round trip, plus the platform's own delay). Figures, not assertions; the
integration test (tests/integration/test_fair_races.py) asserts the outcome.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import websockets

from tests.integration.stack import api, register
from tests.support.delayproxy import delayed
from tools.loadtest.client import percentile
from tools.loadtest.line_stack import platform

_ids = itertools.count(1)
OPTIONS = {"max_minutes": 0, "auto_flip_seconds": 1, "smack_grace_ms": 300}


@dataclass
class Racer:
    """One player's socket: answers pings, flips on its turn, smacks `reaction_ms` after seeing a smack card."""

    name: str
    url: str
    reaction_ms: float
    seat: int | None = None
    match: int | None = None
    view: dict[str, Any] | None = None
    smacked_race: Any = None
    claimed_at: dict[str, float] = field(default_factory=dict)  # race id -> when its own race_claimed arrived
    settled: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    race_due: dict[tuple[Any, str], int] = field(default_factory=dict)  # (match, race) -> due_ms of its race:<id> timer
    rtt_seen: int | None = None
    pong_delay_ms: float = 0.0  # > 0: a client faking a slower line by answering pings late (its cards are not late)
    connect_sock: Callable[[], socket.socket] | None = None  # a connected socket of its own (another namespace's)
    _pending_card: float | None = None

    async def run(self, stop: asyncio.Event, on_finished: Any) -> None:
        sock = None if self.connect_sock is None else await asyncio.to_thread(self.connect_sock)
        async with websockets.connect(self.url, max_size=2**22, compression=None, sock=sock) as ws:
            self.ws = ws
            reader = asyncio.create_task(self._read(ws, on_finished))
            await stop.wait()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    async def _send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps(message, separators=(",", ":")))

    async def act(self, kind: str) -> None:
        await self._send({"type": "act", "id": f"{self.name}-{next(_ids)}", "action": {"kind": kind}})

    async def _read(self, ws: Any, on_finished: Any) -> None:
        async for raw in ws:
            at = time.perf_counter()
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "ping":
                pong = {"type": "pong", "n": msg["n"]}
                if self.pong_delay_ms > 0:
                    asyncio.get_running_loop().call_later(self.pong_delay_ms / 1000, lambda p=pong: asyncio.ensure_future(self._send(p)))
                else:
                    await self._send(pong)  # at once, as static/platform/table.js does
                continue
            if kind == "hello":
                self.seat, self.view, self.match = msg.get("seat"), msg.get("view"), msg.get("match")
            elif kind == "table":
                mine = [p for p in msg["table"]["players"] if p["seat"] == self.seat]
                if mine:
                    self.rtt_seen = mine[0].get("rtt_ms")
                continue
            elif kind == "events":
                for e in msg["events"]:
                    self._event(e, at)
                if msg.get("view") is not None:
                    self.view = msg["view"]
            else:
                continue
            await self._maybe_act(on_finished, at)

    def _event(self, e: dict[str, Any], at: float) -> None:
        k, d = e.get("kind"), e.get("data") or {}
        if k == "flipped" and (d.get("card") or {}).get("face") == "smack":
            self._pending_card = at
        elif k == "race_claimed":
            if e.get("seat") == self.seat:
                self.claimed_at[(self.match, d["race"])] = at
            self.claims.append({"at": at, **e})
        elif k == "timer" and str(d.get("id", "")).startswith("race:"):
            self.race_due[(self.match, str(d["id"])[len("race:"):])] = int(d["due_ms"])
        elif k == "race_settled":
            self.settled.append((at, {**d, "match": self.match, "t_ms": e.get("t_ms")}))

    async def _maybe_act(self, on_finished: Any, at: float) -> None:
        view = self.view
        if not view:
            return
        if view.get("finished"):
            if not getattr(self, "_rematch", None) or self._rematch.done():
                self._rematch = asyncio.ensure_future(on_finished(self))  # never block this socket's reading
            return
        centre = view.get("centre") or {}
        top = centre.get("top") or {}
        key = (top.get("id"), centre.get("top_at_ms"), centre.get("count"))
        if top.get("face") == "smack" and self.smacked_race != key:
            self.smacked_race = key  # one smack per smack card on top, whoever wins it
            seen = self._pending_card or at  # the smack card's own message, else this one (a forfeited smack card)
            self._pending_card = None
            loop = asyncio.get_running_loop()
            loop.call_at(loop.time() + max(0.0, seen + self.reaction_ms / 1000 - time.perf_counter()),
                         lambda: asyncio.ensure_future(self.act("smack")))
            return
        if view.get("race") is None and view.get("turn") == self.seat and top.get("face") != "smack":
            await self.act("flip")


@dataclass
class Outcome:
    delay_ms: int
    lag_cap_ms: int
    races: int = 0
    faster_won: int = 0
    extra_ms: list[float] = field(default_factory=list)
    timer_late_ms: list[float] = field(default_factory=list)  # settled at t_ms this long after its timer was due
    far_rtt_ms: int | None = None
    reactions: list[tuple[int, int]] = field(default_factory=list)  # (far's judged reaction, near's) per race
    far_won: int = 0
    near_won: int = 0
    far_anticipated: int = 0  # far's claims below the table's human floor (never winners)
    both_claimed: int = 0  # races in which both players' claims were judged (a claim the line delays past the window is none)
    faster_won_both: int = 0  # of those, won by the faster reactor


async def race_once(base: str, ws_near: str, ws_far: str, tokens: tuple[str, str], *, delay_ms: int, lag_cap_ms: int,
                    races: int, near_ms: float, far_ms: float, timeout: float, verbose: bool = False,
                    min_reaction_ms: int | None = None, far_pong_delay_ms: float = 0.0,
                    far_sock: Callable[[], socket.socket] | None = None,
                    near_sock: Callable[[], socket.socket] | None = None) -> Outcome:
    """One table, near at seat 0 and far at seat 1, until `races` smack races were settled.

    `far_pong_delay_ms`: far answers pings that late (a fake slow line); `far_sock`/`near_sock`: how each
    connects (a socket of its own, e.g. in the delay line's client namespace); `min_reaction_ms`: the table's floor.
    """
    body: dict[str, Any] = {"game": "smackit", "seats": 2, "options": OPTIONS, "lag_cap_ms": lag_cap_ms}
    if min_reaction_ms is not None:
        body["min_reaction_ms"] = min_reaction_ms
    table = await asyncio.to_thread(api, base, "POST", "/api/tables/", body, tokens[0])
    await asyncio.to_thread(api, base, "POST", f"/api/tables/{table['id']}/join/", {"seat": 1}, tokens[1])
    near = Racer("near", f"{ws_near}/ws/tables/{table['id']}/?token={tokens[0]}", near_ms, connect_sock=near_sock)
    far = Racer("far", f"{ws_far}/ws/tables/{table['id']}/?token={tokens[1]}", far_ms,
                pong_delay_ms=far_pong_delay_ms, connect_sock=far_sock)
    stop = asyncio.Event()
    rematching = asyncio.Lock()

    async def on_finished(racer: Racer) -> None:
        if racer is not near or rematching.locked():
            return
        async with rematching:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(api, base, "POST", f"/api/tables/{table['id']}/rematch/", {}, tokens[0])

    runs = [asyncio.create_task(r.run(stop, on_finished)) for r in (near, far)]
    await asyncio.sleep(1.5 + 4 * (delay_ms + far_pong_delay_ms) / 1000)  # the first pings measure both lines
    await asyncio.to_thread(api, base, "POST", f"/api/tables/{table['id']}/start/", {}, tokens[0])
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline and len(near.settled) < races:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3 + 2 * delay_ms / 1000)
    stop.set()
    await asyncio.gather(*runs, return_exceptions=True)
    out = Outcome(delay_ms=delay_ms, lag_cap_ms=lag_cap_ms, far_rtt_ms=far.rtt_seen)
    faster = 1 if far_ms < near_ms else 0
    for _at, d in near.settled[:races]:
        if not d.get("ranking"):
            continue
        out.races += 1
        out.faster_won += d.get("winner") == faster
        out.far_won += d.get("winner") == 1
        out.near_won += d.get("winner") == 0
        out.far_anticipated += sum(1 for c in d["ranking"] if c["seat"] == 1 and c.get("anticipated"))
        first = min(d["ranking"], key=lambda c: c["arrival_ms"])
        who = near if first["seat"] == 0 else far
        key = (d["match"], d["race"])
        due = near.race_due.get(key)
        if due is not None and d.get("t_ms") is not None and d["t_ms"] >= due:
            out.timer_late_ms.append(d["t_ms"] - due)
        got = [a for a, x in who.settled if (x["match"], x.get("race")) == key]
        if key in who.claimed_at and got:
            out.extra_ms.append(1000 * (got[0] - who.claimed_at[key]))
        if verbose:
            print("   ", d["race"], "winner", d.get("winner"), [(c["seat"], c["arrival_ms"], c["judged_ms"], c["reaction_ms"]) for c in d["ranking"]],
                  f"extra {out.extra_ms[-1]:.0f} ms" if key in who.claimed_at and got else "")
        by_seat = {c["seat"]: c["reaction_ms"] for c in d["ranking"]}
        out.reactions.append((by_seat.get(1, -1), by_seat.get(0, -1)))
        if len(by_seat) == 2:
            out.both_claimed += 1
            out.faster_won_both += d.get("winner") == faster
    return out


async def bench(base: str, ws: str, port: int, args: argparse.Namespace, line: Any = None) -> list[Outcome]:
    """Each delay with and without compensation; `line`: a tools.loadtest.fair_play.Platform (else the TCP proxy)."""
    results: list[Outcome] = []
    n = 0
    for delay in args.delays:
        with contextlib.ExitStack() as stack:
            if line is not None:
                await asyncio.to_thread(line.line.set_delay, delay)
                ws_far, far_sock = line.line_ws, line.line_socket()
            else:
                proxy = stack.enter_context(delayed(port, delay))
                ws_far, far_sock = f"ws://127.0.0.1:{proxy.port}", None
            for cap in (200, 0):
                n += 1
                tokens = (await asyncio.to_thread(register, base, f"near{n}-{os.getpid()}"),
                          await asyncio.to_thread(register, base, f"far{n}-{os.getpid()}"))
                results.append(await race_once(base, ws, ws_far, tokens, delay_ms=delay, lag_cap_ms=cap, races=args.races,
                                               near_ms=args.near_ms, far_ms=args.far_ms, timeout=args.timeout,
                                               verbose=args.verbose, far_sock=far_sock))
                print(format_row(results[-1], args.races), flush=True)
    return results


HEADER = (f"{'one-way delay':>14} {'lag_cap_ms':>10} {'far rtt':>8} {'faster won':>11} {'extra p50':>10} {'extra p99':>10}"
          f" {'timer late p50/p99 (n)':>23}")


def format_row(o: Outcome, races: int) -> str:
    rtt = "-" if o.far_rtt_ms is None else f"{o.far_rtt_ms} ms"
    p50, p99 = percentile(o.extra_ms, 50), percentile(o.extra_ms, 99)
    late = (f"{percentile(o.timer_late_ms, 50):.0f}/{percentile(o.timer_late_ms, 99):.0f} ms ({len(o.timer_late_ms)})"
            if o.timer_late_ms else "- (0)")
    return f"{o.delay_ms:>11} ms {o.lag_cap_ms:>10} {rtt:>8} {o.faster_won:>5} of {o.races:<3} {p50:>7.0f} ms {p99:>7.0f} ms {late:>23}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=10)
    parser.add_argument("--delays", type=lambda s: [int(x) for x in s.split(",")], default=[0, 40, 80, 150])
    parser.add_argument("--near-ms", type=float, default=240, help="the near player's reaction time")
    parser.add_argument("--far-ms", type=float, default=200, help="the far player's reaction time (the faster one)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per configuration")
    parser.add_argument("--verbose", action="store_true", help="print every race's claims (seat, arrival, judged, reaction)")
    parser.add_argument("--services", action="store_true", help="PostgreSQL + Redis from the environment (else the embedded default)")
    args = parser.parse_args(argv)
    from tests.integration.stack import stack
    from tests.support.delayline import unavailable

    no_line = unavailable()
    print(f"Fair races: near reacts in {args.near_ms:.0f} ms, far (behind the delay) in {args.far_ms:.0f} ms; "
          f"{args.races} races per row; {'PostgreSQL + Redis' if args.services else 'embedded default'}; "
          + ("far through the TCP proxy, which the server's kernel cannot see (" + no_line + ")" if no_line else
             "far through the namespace delay line"))
    print(HEADER)
    if no_line is None:
        with platform(args.services) as p:
            asyncio.run(bench(p.s.url(), p.s.ws(), p.s.ports[0], args, line=p))
    else:
        with stack(services=args.services) as s:
            try:
                asyncio.run(bench(s.url(), s.ws(), s.ports[0], args))
            except BaseException:
                print(s.log_text(), file=sys.stderr)
                raise
    print("extra: from the first claimant's own race_claimed to its race_settled, on its socket")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
