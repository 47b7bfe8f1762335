"""Random play through the generic harness: fold equals live, cards conserved, no leaks.

`RANDOM_GAMES` (default 150, spread over 2-6 seats) sizes the run; set it
higher locally for a soak, e.g. `RANDOM_GAMES=5000`.
"""

from __future__ import annotations

import copy
import os
import random

import pytest

from games.zwicker.rules import RULES
from tests.games.zwicker.harness import HARNESS, card_ids
from tests.support.simulate import play_random

GAMES = int(os.environ.get("RANDOM_GAMES", "150"))
SEATS = (2, 3, 4, 5, 6)


@pytest.mark.parametrize("seats", SEATS)
def test_random_games_keep_every_invariant(seats: int) -> None:
    per_seat = max(1, GAMES // len(SEATS))
    finished = 0
    kinds: set[str] = set()
    for seed in range(per_seat):
        report = play_random(HARNESS, seats, seed * 7919 + seats, max_actions=400)
        finished += report.finished
        kinds.update(e["kind"] for e in report.log)
    assert finished >= 0.8 * per_seat, f"only {finished}/{per_seat} random games finished"
    if per_seat >= 20:  # a fair run exercises every rule
        assert kinds >= {
            "snapped",
            "snap_wrong",
            "took_discard",
            "replaced",
            "used",
            "called",
            "revealed",
            "turn_timeout",
            "discarded",
            "finished",
        }


def test_fold_never_mutates_its_input() -> None:
    """Replays fold the same stored states again: fold must copy what it changes."""
    for seed in range(20):
        log = play_random(HARNESS, 2 + seed % 5, seed, max_actions=300, check=False).log
        state = None
        for e in log:
            before = copy.deepcopy(state)
            new = RULES.fold(state, e)
            assert state == before, f"fold mutated the state on {e['kind']}"
            state = new
        assert len(card_ids(state)) == 52


def test_harness_catches_a_leak() -> None:
    """The secrecy check is real: a rules object that shows hidden cards fails it."""

    class Leaky(type(RULES)):  # type: ignore[misc]
        def redact(self, e, seat):  # type: ignore[no-untyped-def]
            return e  # shows every drawn card to everyone

    leaky = copy.copy(HARNESS)
    object.__setattr__(leaky, "rules", Leaky())
    with pytest.raises(AssertionError, match="may not see"):
        for seed in range(5):
            play_random(leaky, 3, seed, max_actions=200)


def test_random_options_vary() -> None:
    rng = random.Random(1)
    seen = [HARNESS.random_options(4, rng) for _ in range(200)]
    assert any(o.get("snap_window_ms") == 0 for o in seen) and any("dealer" in o for o in seen)
