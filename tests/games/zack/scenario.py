"""Hand-built ZACK! deals for scenario tests (shared by test_rules and test_bot).

`Game` folds a `dealt` event with chosen piles, then decides and folds each
action like the platform does, asserting on the way that neither decide nor
fold mutates its input.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.engine import RuleError, event, resolve_options
from games.zack.rules import COLOURS, RULES

FACES = {"links", "rechts", "links2", "rechts2", "nochmal", "zurueck", "stop_choose", "stop_swap", "stop_lr"}


def make_card(spec: str, cid: int) -> dict[str, Any]:
    if spec in FACES:
        return {"id": cid, "face": spec}
    assert spec in COLOURS, spec
    return {"id": cid, "face": "circle", "colour": spec}


class Game:
    """A match folded from a hand-built deal; `act` decides and folds like the platform."""

    def __init__(self, piles: list[list[str]], **options: Any) -> None:
        n = len(piles)
        opts = resolve_options(RULES.options, options, n)
        dealer = n - 1 if opts["dealer"] == -1 else opts["dealer"]
        opts["dealer"] = dealer
        ids = iter(range(1000))
        cards = [[make_card(s, next(ids)) for s in pile] for pile in piles]
        self.dealt = event(
            "dealt",
            None,
            seats=n,
            options=opts,
            dealer=dealer,
            first=(dealer + 1) % n,
            colours=list(COLOURS[:n]),
            piles=cards,
        )
        self.log = [self.dealt]
        self.state = RULES.fold(None, self.dealt)
        self.now = 0

    def act(self, seat: int | None, action: Any, at: int | None = None) -> list[dict[str, Any]]:
        if at is not None:
            self.now = at
        before = copy.deepcopy(self.state)
        events = RULES.decide(self.state, seat, action, self.now, random.Random(0))
        assert self.state == before, "decide must not mutate the state"
        for e in events:
            prev = copy.deepcopy(self.state)
            new = RULES.fold(self.state, e)
            assert self.state == prev, "fold must not mutate its input"
            self.state = new
            self.log.append(e)
        return events

    def throw(self, seat: int, at: int | None = None) -> dict[str, Any]:
        return outcome_of(self.act(seat, {"kind": "throw"}, at))

    def challenge(self, seat: int, colour: str, at: int | None = None) -> dict[str, Any]:
        return outcome_of(self.act(seat, {"kind": "challenge", "target": colour}, at))

    @property
    def turn(self) -> int | None:
        return self.state["turn"]

    def piles(self) -> list[int]:
        return [len(p) for p in self.state["piles"]]

    def box_faces(self) -> list[str]:
        return [e["card"]["face"] if "card" in e else "colour_card" for e in self.state["box"]]


RACE_KINDS = frozenset(("race_claimed", "race_settled", "timer"))


def outcome_of(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's own fact an action led to (`thrown`, `challenged`, `returned`...), past the race's events."""
    return next(e for e in events if e["kind"] not in RACE_KINDS)


def refused(g: Game, seat: int | None, action: Any, code: str) -> None:
    before = copy.deepcopy(g.state)
    with pytest.raises(RuleError) as err:
        RULES.decide(g.state, seat, action, g.now, random.Random(0))
    assert err.value.code == code, err.value
    assert g.state == before
