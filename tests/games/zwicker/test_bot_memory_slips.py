"""Zwicker bots forget what they saw as people do, by level: easy soon, normal later, hard never."""

from __future__ import annotations

import pytest

from games.zwicker.bot import BOT, LEVELS, Memory

CARDS = 2000


def _forgotten(level_name: str, turns_later: int, own: bool) -> float:
    """Share of cards seen at turn 0 (each learned at its own seq) that the bot no longer recalls `turns_later` on."""
    mem = Memory(seat=0)
    target = 0 if own else 1
    for k in range(CARDS):
        mem.known[(target, k)] = (k % 52, 0, 1000 + k, 0)
    mem.turns = turns_later
    level = LEVELS[level_name]
    return sum(BOT.recall(mem, level, target, k) is None for k in range(CARDS)) / CARDS


@pytest.mark.parametrize("own", [True, False])
def test_memory_slips_by_level(own: bool) -> None:
    assert _forgotten("hard", 50, own) == 0.0  # a hard bot never forgets
    assert _forgotten("easy", 0, own) == _forgotten("normal", 0, own) == 0.0  # nobody forgets at once
    for turns in (4, 6, 8, 12):
        assert _forgotten("easy", turns, own) >= _forgotten("normal", turns, own)
    assert _forgotten("easy", 8, own) > 0.5  # easy has forgotten most after a round of turns
    assert _forgotten("normal", 25, own) == 1.0 and _forgotten("easy", 25, own) == 1.0


def test_other_players_cards_are_forgotten_sooner_than_ones_own() -> None:
    for turns in (3, 5, 8):
        assert _forgotten("normal", turns, own=False) >= _forgotten("normal", turns, own=True)
