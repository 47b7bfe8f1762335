"""`legal_actions`: exactly what decide accepts, and nothing a seat cannot see.

States come from random play (every option varied, random platform timings,
so races wait and settle). Smack It! actions carry no fields, so the
candidates outside the list are the other kinds: a flip out of turn or onto a
smack card, a smack by a seat out for good or already claiming.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import RuleError, State
from games.smackit.rules import RULES
from tests.games.smackit.harness import HARNESS
from tests.support.simulate import HarnessChecks, play_random

KINDS = ("flip", "smack", "timer", "snap")


class AtRest(HarnessChecks):
    """Every invariant, and the states between two decisions (with their match time) kept."""

    def __init__(self, seats: int) -> None:
        super().__init__(HARNESS, seats)
        self.states: list[tuple[State, int]] = []

    def decided(self, state: State, now_ms: int) -> None:
        self.states.append((state, now_ms))


def random_states(matches: int) -> Iterator[tuple[State, int]]:
    """Every state at rest of random matches, with the time of the decision that made it."""
    for seed in range(matches):
        seats = 2 + seed % 5
        checks = AtRest(seats)
        play_random(HARNESS, seats, seed, max_actions=600, timings=True, checks=checks)
        yield from checks.states


def without_legal(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "legal"}


@pytest.mark.parametrize("chunk", range(3))
def test_listed_actions_are_exactly_the_ones_decide_accepts(chunk: int) -> None:
    checked = refused = 0
    for i, (state, now) in enumerate(random_states(12)):
        if i % 3 != chunk:
            continue
        for seat in range(state["seats"]):
            legal = RULES.legal_actions(state, seat)
            assert legal == RULES.view(state, seat)["legal"]
            for kind in KINDS:
                action = {"kind": kind} if kind != "timer" else {"kind": kind, "id": "flip:0"}
                try:
                    RULES.decide(state, seat, action, now, random.Random(0))
                    accepted = True
                except RuleError:
                    accepted = False
                    refused += 1
                assert accepted == (action in legal), (kind, seat, legal, state)
                checked += 1
    assert checked > 1000 and refused > 100


def test_nothing_is_listed_for_spectators_or_once_finished() -> None:
    finished = 0
    for state, _ in random_states(6):
        assert RULES.legal_actions(state, None) == []
        assert RULES.view(state, None)["legal"] == []
        if state["finished"]:
            finished += 1
            assert all(RULES.legal_actions(state, s) == [] for s in range(state["seats"]))
    assert finished > 0


def test_states_a_seat_cannot_tell_apart_list_the_same_actions() -> None:
    """Shuffle what nobody sees (every pile's order): the view minus `legal` stays, so must `legal`."""
    rng = random.Random(5)
    compared = 0
    for state, _ in random_states(6):
        if state["finished"]:
            continue
        twin = copy.deepcopy(state)
        for pile in twin["piles"]:
            rng.shuffle(pile)
        for seat in range(state["seats"]):
            assert without_legal(RULES.view(twin, seat)) == without_legal(RULES.view(state, seat))
            assert RULES.legal_actions(twin, seat) == RULES.legal_actions(state, seat)
            compared += 1
    assert compared > 500
