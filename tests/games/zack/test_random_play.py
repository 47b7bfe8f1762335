"""ZACK! in the generic random-play harness: every invariant after every event.

Checks (tests.support.simulate.play_random): cards conserved (the match's ZACK! cards,
72 with six seats and Stop cards), fold of the stored log equals the live
state, JSON round trips, and no view or redacted event shows anyone a card
that `may_see` does not allow (pile order before a card is thrown). On top:
no out-of-turn flag, expected thrower or turn leaks during the match.

`RANDOM_GAMES` (env) sizes the run; the default keeps this file under 20 s.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from games.engine import fold_all
from games.zack.rules import RULES
from tests.games.zack.harness import HARNESS, card_ids
from tests.support.simulate import play_random

GAMES = int(os.environ.get("RANDOM_GAMES", "100"))
SEATS = (3, 4, 5, 6)


@pytest.mark.parametrize("seats", SEATS)
def test_random_games_keep_every_invariant_and_mostly_finish(seats: int) -> None:
    per_seat = max(1, GAMES // len(SEATS))
    finished = actions = 0
    for seed in range(per_seat):
        report = play_random(HARNESS, seats, seed * 10 + seats, max_actions=3000)
        finished += report.finished
        actions += report.actions
        if report.finished:
            assert RULES.outcome(fold_all(RULES, report.log)) is not None
    assert actions > per_seat * 20
    assert finished >= 0.8 * per_seat, f"only {finished} of {per_seat} random {seats}-seat games finished"


def test_all_72_cards_with_six_seats_and_stop_cards_are_conserved() -> None:
    for seed in range(6):
        report = play_random(HARNESS, 6, seed, max_actions=800, options={"stop_cards": True})
        state = fold_all(RULES, report.log)
        ids = sorted(card_ids(state))
        assert ids == list(range(72))


def test_no_turn_flag_or_expected_leaks_while_live() -> None:
    """The secrecy the card checker cannot see: out-of-turn flags, `expected`, and the turn."""
    rng = random.Random(7)
    checked = 0
    for seed in range(15):
        opts = HARNESS.random_options(4, rng)
        opts["show_turn"] = False
        report = play_random(HARNESS, 4, seed, max_actions=600, options=opts)
        state = None
        for e in report.log:
            state = RULES.fold(state, e)
            if state["finished"]:
                break
            for viewer in (None, 0, 1, 2, 3):
                text = json.dumps(RULES.redact(e, viewer))
                assert "out_of_turn" not in text and "expected" not in text and '"oot"' not in text
                view = RULES.view(state, viewer)
                assert view["turn"] is None and view["out_of_turn"] is None
                assert '"oot"' not in json.dumps(view) and 'out_of_turn": [' not in json.dumps(view["box"])
                checked += 1
    assert checked > 500


def test_random_options_vary_every_option() -> None:
    rng = random.Random(1)
    seen: dict[str, set[str]] = {}
    for _ in range(200):
        for key, value in HARNESS.random_options(5, rng).items():
            seen.setdefault(key, set()).add(json.dumps(value))
    for key in RULES.options:
        assert len(seen.get(key, ())) >= 2, key
