"""Secrecy soak at scale: thousands of random matches of every game, every seat and a spectator checked after every event.

`tests.support.simulate.play_random` checks, after each event of a random match, the
event as `redact` gives it to every seat and to a spectator and the `view`
of each, against the game's own `may_see` (plus every other invariant of the
harness). Those are exactly the two things a socket is sent (tests/soak/
test_secrecy.py checks, through the real consumer, that messages are built
from nothing else). Seat counts cycle over each game's playable counts; option
sets come from the harness.

`SOAK_RANDOM_MATCHES` (default 1000 per game; about 8 minutes on one core
for the four games) sizes it: `SOAK_RANDOM_MATCHES=20000` is a long local run.
"""

from __future__ import annotations

import os
import random

import pytest

from games.engine import RuleError, Rules
from games.kit.registry import INSTALLED
from tests.support.simulate import harness_of, play_random

MATCHES = int(os.environ.get("SOAK_RANDOM_MATCHES", "1000"))
CHUNKS = 10  # matches of one game split over several tests, so a failure names a narrow seed range


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("slug", INSTALLED)
def test_random_matches_show_no_seat_a_card_it_may_not_see(slug: str, chunk: int) -> None:
    harness = harness_of(slug)
    rules = harness.rules
    seat_counts = [n for n in range(rules.min_seats, rules.max_seats + 1) if _playable(rules, n)]
    per_chunk = -(-MATCHES // CHUNKS)
    finished = played = 0
    for i in range(chunk * per_chunk, min(MATCHES, (chunk + 1) * per_chunk)):
        seats = seat_counts[i % len(seat_counts)]
        try:
            report = play_random(harness, seats, seed=900_000 + i, max_actions=2000)
        except Exception as e:  # the seed and seat count make the failure reproducible
            raise AssertionError(f"{slug}: random match seed {900_000 + i} with {seats} seats: {e}") from e
        played += 1
        finished += report.finished
    assert played == 0 or finished >= played * 0.9, f"{slug}: only {finished} of {played} random matches finished"


def _playable(rules: Rules, seats: int) -> bool:
    """Some games refuse a count inside their range at setup (ZIGZAG's teams of two: not 5)."""
    try:
        rules.setup(seats, {}, random.Random(0))
    except RuleError:
        return False
    return True
