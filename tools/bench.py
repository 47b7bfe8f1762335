"""Benchmark of the pure rules: `python -m tools.bench [slug ...] [--seconds S]`.

Prints random-play throughput (decided actions per second on one core, no
invariant checks, the table's default options, actions drawn from
`legal_actions` with the driver's few malformed ones) and, with bots, the
median match length in actions and match seconds. Figures, not assertions:
see the docs/performance.md. Nothing from tests/ and no Django.
"""

from __future__ import annotations

import argparse
import statistics
import time

from games.engine import Rules
from games.kit.registry import INSTALLED, get_bot, get_rules
from tools.sim import play_bots, play_random


def throughput(rules: Rules, seats: int, seconds: float) -> float:
    actions, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play_random(rules, seats, seed, max_actions=2000).actions
        seed += 1
    return actions / (time.perf_counter() - start)


def bot_lengths(slug: str, seats: int, matches: int) -> tuple[float, float, int]:
    rules, bot = get_rules(slug), get_bot(slug)
    reports = [play_bots(rules, bot, ["normal"] * seats, seed) for seed in range(matches)]
    finished = sum(r.outcome is not None for r in reports)
    return (
        statistics.median(r.actions for r in reports),
        statistics.median(r.duration_ms for r in reports) / 1000,
        finished,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("slugs", nargs="*", default=list(INSTALLED))
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--matches", type=int, default=50)
    args = parser.parse_args()
    for slug in args.slugs:
        rules = get_rules(slug)
        seats = 4 if rules.min_seats <= 4 <= rules.max_seats else rules.min_seats
        rate = throughput(rules, seats, args.seconds)
        actions, seconds, finished = bot_lengths(slug, seats, args.matches)
        print(
            f"{slug:8} random play: {rate:,.0f} actions/s (one core, {seats} seats) | "
            f"{args.matches} {seats}-bot matches: median {actions:.0f} actions, "
            f"{seconds:.1f} s of match time, {finished} finished"
        )


if __name__ == "__main__":
    main()
