"""Cheaters against an honest player through real sockets: `python -m tools.loadtest.fair_play [--races N] [--services] [--root DIR]`.

The two attacks of PROTOCOL.md "Fair play", each against an honest player who
smacks a Smack It! card 180 ms after it reached its socket:

- fake lag: a client on a real 80 ms line (tests/support/delayline.py: two
  network namespaces and a userspace wire, so the kernel's TCP sees the delay)
  that answers the server's pings 185 ms late and smacks 250 ms after the card;
- a script: a client that smacks 8 ms after the card arrives.

Prints, per attack, the races each side won, the cheater's judged reactions
and the round trip the table showed for it, and for the fake lag whether its
player's fair-play record counted `rtt_inflated`. `--root DIR` runs the daphne
of another checkout (an older commit: the figures before), with this
checkout's clients. Needs root for the delay line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from pathlib import Path

from tests.integration.stack import register
from tools.loadtest.line_stack import ONE_WAY_MS, Platform, platform
from tools.loadtest.races import Outcome, race_once

HONEST_MS = 180.0
FAKE_LAG_MS = 185.0
LAGGER_MS = 250.0
SCRIPT_MS = 8.0


async def fake_lag(p: Platform, tag: str, races: int, timeout: float = 200) -> Outcome:
    """Honest (direct, 180 ms) at seat 0 against a fake-lag client (80 ms line, pongs 185 ms late, 250 ms) at seat 1."""
    base = p.s.url()
    tokens = (await asyncio.to_thread(register, base, f"honest{tag}"), await asyncio.to_thread(register, base, f"lagger{tag}"))
    return await race_once(base, p.s.ws(), p.line_ws, tokens, delay_ms=int(ONE_WAY_MS), lag_cap_ms=200, races=races,
                           near_ms=HONEST_MS, far_ms=LAGGER_MS, timeout=timeout, far_pong_delay_ms=FAKE_LAG_MS,
                           far_sock=p.line_socket())


async def honest_line(p: Platform, tag: str, races: int, timeout: float = 200) -> Outcome:
    """A direct player reacting in 300 ms against an honest one on the 80 ms line reacting in 200 ms."""
    base = p.s.url()
    tokens = (await asyncio.to_thread(register, base, f"near{tag}"), await asyncio.to_thread(register, base, f"far{tag}"))
    return await race_once(base, p.s.ws(), p.line_ws, tokens, delay_ms=int(ONE_WAY_MS), lag_cap_ms=200, races=races,
                           near_ms=300.0, far_ms=200.0, timeout=timeout, far_sock=p.line_socket())


async def script(p: Platform, tag: str, races: int, timeout: float = 200) -> Outcome:
    """Honest (180 ms) at seat 0 against a script smacking 8 ms after the card at seat 1, both direct."""
    base = p.s.url()
    tokens = (await asyncio.to_thread(register, base, f"person{tag}"), await asyncio.to_thread(register, base, f"script{tag}"))
    return await race_once(base, p.s.ws(), p.s.ws(), tokens, delay_ms=0, lag_cap_ms=200, races=races,
                           near_ms=HONEST_MS, far_ms=SCRIPT_MS, timeout=timeout)


def summary(name: str, o: Outcome, inflated: int | None = None) -> dict[str, object]:
    far = sorted(r for r, _ in o.reactions if r >= 0)
    return {
        "attack": name, "settled": o.races, "cheater_won": o.far_won, "honest_won": o.near_won,
        "cheater_judged_ms": [far[0], far[len(far) // 2], far[-1]] if far else None,
        "cheater_rtt_ms_shown": o.far_rtt_ms, "cheater_anticipated": o.far_anticipated,
        **({} if inflated is None else {"rtt_inflated": inflated}),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=10)
    parser.add_argument("--services", action="store_true", help="PostgreSQL + Redis from the environment")
    parser.add_argument("--root", type=Path, default=None, help="run the daphne of this checkout instead")
    args = parser.parse_args(argv)
    tag = str(os.getpid())
    with platform(args.services, args.root) as p:
        lag = asyncio.run(fake_lag(p, tag, args.races))
        print(json.dumps(summary("fake lag 185 ms on an 80 ms line, reacting 250 ms vs 180 ms", lag,
                                 p.rtt_inflated(f"lagger{tag}"))), flush=True)
        bot = asyncio.run(script(p, tag, args.races))
        print(json.dumps(summary("script smacking 8 ms after the card vs 180 ms", bot)), flush=True)
        line = asyncio.run(honest_line(p, tag, args.races))
        print(json.dumps(summary("honest on the 80 ms line reacting 200 ms vs direct 300 ms", line,
                                 p.rtt_inflated(f"far{tag}"))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
