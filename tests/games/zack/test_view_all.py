"""ZACK!'s `view_all`: the replay's "everything" table shows every secret the live view keeps.

Checked on random matches (every state of the log) and on a hand-built
out-of-turn throw: `view_all` equals `view(state, None)` in every public
field, adds each pile's cards, the out-of-turn flags, whose turn it is and
the out-of-turn counts, never changes the state, and at the end equals the
finished view (which reveals all of it anyway).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.zack.rules import RULES
from tests.games.view_all_checks import public_and_everything
from tests.games.zack.harness import HARNESS, card_ids
from tests.games.zack.scenario import Game
from tests.support.simulate import play_random, visible_ids

SECRET_TOP = {"turn", "out_of_turn", "seats", "box"}


def _without(d: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in keys}


def check_view_all(state: dict[str, Any]) -> dict[str, Any]:
    public, everything = public_and_everything(RULES, state, set(), SECRET_TOP)
    assert len(everything["seats"]) == len(public["seats"])
    for row_all, row in zip(everything["seats"], public["seats"], strict=True):
        assert _without(row_all, "cards") == _without(row, "cards")
        assert len(row_all["cards"]) == row["pile"]
    assert len(everything["box"]) == len(public["box"])
    for item_all, item in zip(everything["box"], public["box"], strict=True):
        assert _without(item_all, "out_of_turn") == _without(item, "out_of_turn")
        if "card" in item_all:
            assert isinstance(item_all["out_of_turn"], bool)
    assert everything["turn"] == state["turn"]
    assert everything["out_of_turn"] == state["oot_counts"]
    assert visible_ids(everything) == set(card_ids(state)), "every ZACK! card is face up in view_all"
    if state["finished"]:
        assert everything == public
    return everything


@pytest.mark.parametrize("seed", range(6))
def test_view_all_shows_everything_and_agrees_with_the_public_view(seed: int) -> None:
    seats = 3 + seed % 4
    report = play_random(HARNESS, seats, 900 + seed, max_actions=1500, options={"stop_cards": True}, check=False)
    state = None
    hidden_seen = 0
    for e in report.log:
        state = RULES.fold(state, e)
        check_view_all(state)
        public = RULES.view(state, None)
        hidden_seen += public["turn"] is None and not state["finished"] and state["turn"] is not None
    assert hidden_seen > 0, "the live view should have hidden the turn at least once"


def test_view_all_marks_the_out_of_turn_card_the_live_view_keeps_secret() -> None:
    g = Game([["red", "links"], ["blue", "links"], ["yellow", "links"]])
    g.throw(0)  # red circle: red (seat 0) again
    g.throw(2)  # yellow out of turn
    public = RULES.view(g.state, None)
    everything = check_view_all(g.state)
    assert "out_of_turn" not in public["box"][-1] and public["turn"] is None and public["out_of_turn"] is None
    assert [b["out_of_turn"] for b in everything["box"]] == [False, True]
    assert everything["out_of_turn"] == [0, 0, 1]
    assert "cards" not in public["seats"][1]
    assert everything["seats"][1]["cards"] == [{"id": 2, "face": "circle", "colour": "blue"}, {"id": 3, "face": "links"}]
    assert everything["turn"] == 2  # the yellow circle on top: yellow's turn
