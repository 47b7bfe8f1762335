"""Smack It! bots: people's mistakes by level (late and missed smacks), a hard bot that never makes them, and
reactions within the level's bounds; every draw seeded by its stimulus."""

from __future__ import annotations

import random
import statistics

import pytest

from games.smackit.bot import LATE_FACTOR, LEVELS, reaction_bounds, smack_reaction
from tests.games.smackit.test_bot import _choose, _scripted

DRAWS = 20_000


@pytest.mark.parametrize("name", ["easy", "normal", "hard"])
def test_missed_and_late_smacks_come_at_the_level_rates(name: str) -> None:
    level = LEVELS[name]
    reactions = [smack_reaction(level, random.Random(i)) for i in range(DRAWS)]
    missed = reactions.count(None) / DRAWS
    made = [r for r in reactions if r is not None]
    late = sum(r > level.smack_ms * 2.0 for r in made) / len(made)
    if name == "hard":
        assert missed == 0 and late < 0.001
    else:
        assert 0.7 * level.miss < missed < 1.3 * level.miss
        assert 0.7 * level.late < late < 1.3 * level.late + 0.02  # a few ordinary reactions pass 2x the median too
    low, high = reaction_bounds(level)
    assert low <= min(made) and max(made) <= high
    assert 0.85 * level.smack_ms < statistics.median(made) < 1.3 * level.smack_ms


def test_hard_is_a_human_opponent_and_the_others_are_slower_and_more_variable() -> None:
    hard, normal, easy = LEVELS["hard"], LEVELS["normal"], LEVELS["easy"]
    assert hard.smack_ms == 250 and reaction_bounds(hard)[0] == 150 and hard.late == 0 and hard.miss == 0
    assert easy.smack_ms > normal.smack_ms > hard.smack_ms and easy.spread > normal.spread > hard.spread
    assert LATE_FACTOR > 2


def test_easy_bots_sometimes_miss_a_smack_card_on_the_table() -> None:
    """Through the bot itself: a Smack it! card flipped at many moments (each its own stimulus)."""
    outcomes = {"easy": 0, "hard": 0}
    tries = 300
    for k in range(tries):
        t = 2500 + 7 * k
        log, state = _scripted([[0, 54, 1], [2, 3], [4, 5]], [(0, "flip", 100), (1, "flip", 900), (2, "flip", 1700), (0, "flip", t)])
        for name in outcomes:
            move = _choose(log, state, 1, name)
            if move is None:
                outcomes[name] += 1
            else:
                low, high = reaction_bounds(LEVELS[name])
                assert move.action == {"kind": "smack"} and t + low <= move.at_ms <= t + high
    assert outcomes["hard"] == 0
    assert 0 < outcomes["easy"] < tries * 0.15
