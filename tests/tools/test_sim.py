"""The random-play checker itself: it must still catch what the soaks rely on it to catch.

The checker was made faster (orjson copies instead of `copy.deepcopy`, a loop instead of nested
generators); these pin that the speed cost nothing: a rules object that changes the state while
refusing, a view that shows a hand, and a card nested deep inside a message are all found.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

import pytest

from games.engine import Event
from tests.support import tinygame
from tests.support.simulate import InvariantError, json_round_trip, play_random, visible_ids


def test_visible_ids_finds_cards_at_any_depth_in_dicts_and_lists() -> None:
    card = {"id": 7, "face": "x"}
    message = {"a": [{"b": {"c": [[card]]}}], "rank_only": {"id": 9, "rank": 3}, "not_a_card": {"id": 5}, "flag": {"id": True, "face": 1}}
    assert visible_ids(message) == {7, 9}


def test_json_round_trip_is_the_wire_json() -> None:
    assert json_round_trip({"a": (1, 2), 3: "x", "t": "é"}) == {"a": [1, 2], "3": "x", "t": "é"}


class MutatesWhenRefusing(tinygame.TinyRules):
    def decide(self, state: Any, seat: int | None, action: dict[str, Any], now_ms: int, rng: random.Random, *, timing: Any = None) -> list[Event]:
        if action.get("kind") not in ("play", "slap", "timer"):
            state["centre"].append({"id": 999, "face": "number", "value": 0})  # the bug: refusing changed the live state
        return super().decide(state, seat, action, now_ms, rng, timing=timing)


class ShowsEveryHand(tinygame.TinyRules):
    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "peek": copy.deepcopy(state["hands"])}


def test_a_refusal_that_changes_the_state_is_caught() -> None:
    harness = replace(tinygame.HARNESS, rules=MutatesWhenRefusing())
    with pytest.raises(InvariantError, match="changed state while refusing"):
        for seed in range(20):  # malformed actions are drawn now and then; one of 20 matches holds one
            play_random(harness, 3, seed=seed)


def test_a_view_that_shows_another_hand_is_caught() -> None:
    harness = replace(tinygame.HARNESS, rules=ShowsEveryHand())
    with pytest.raises(InvariantError, match="may not see"):
        play_random(harness, 3, seed=1)


def test_the_honest_tiny_game_passes() -> None:
    for seed in range(5):
        play_random(tinygame.HARNESS, 3, seed=seed)
