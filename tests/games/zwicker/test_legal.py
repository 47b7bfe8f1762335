"""`legal_actions`: what it lists is accepted, what it leaves out is refused, and it reveals no hidden card.

States come from random play (every prefix of its logs), so they include
open snap races, held cards, pending King swaps, grids grown by penalty
cards and the final round.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import TIMER, RuleError, is_int
from games.kit.races import settle_at
from games.zwicker.rules import MAX_MATCH, RANK_OF, RULES, ZwickerRules
from tests.games.zwicker.harness import HARNESS
from tests.games.zwicker.zwicker_helpers import act, table
from tests.support.simulate import iter_cards, play_random

SEATS = (2, 3, 4, 6)


def random_states(seats: int, games: int = 3) -> Iterator[tuple[dict[str, Any], int]]:
    """(state, match time) after every event of a few random matches, the finished ones included."""
    for seed in range(games):
        log = play_random(HARNESS, seats, 1000 * seats + seed, max_actions=250, check=False).log
        state = None
        for e in log:
            state = RULES.fold(state, e)
            yield state, e["t_ms"]


def before_settling(state: dict[str, Any], now: int) -> int:
    """A time at which an open race is not yet settled lazily: legal is the list for that moment."""
    race = state["race"]
    return now if race is None else min(now, settle_at(race) - 1)


def canonical(action: dict[str, Any]) -> dict[str, Any]:
    """A snap names a set of slots: the list holds each set once, ascending."""
    slots = action.get("slots")
    if action.get("kind") == "snap" and isinstance(slots, list) and all(is_int(i) for i in slots):
        return {**action, "slots": sorted(slots)}
    return action


def listed(action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Whether the list holds this move: decide reads only the fields a kind needs, so extra ones do not count."""
    items = canonical(action).items()
    return any(a.items() <= items for a in legal)


def candidates(state: dict[str, Any], seat: int, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Actions of every kind with random parameters, in range and just out of it."""
    n = state["seats"]
    width = max(len(row) for row in state["slots"]) + 1
    for kind in RULES.moves:
        if kind == TIMER:
            continue
        for _ in range(3):
            action: dict[str, Any] = {"kind": kind}
            for key in ("slot", "target_slot"):
                if rng.random() < 0.8:
                    action[key] = rng.randrange(-1, width)
            if rng.random() < 0.8:
                action["target"] = rng.randrange(-1, n + 1)
            if kind == "snap":
                pool = list(range(-1, width))
                action["slots"] = rng.sample(pool, rng.randint(1, min(len(pool), MAX_MATCH + 2)))
            yield action


@pytest.mark.parametrize("seats", SEATS)
def test_every_listed_action_is_accepted(seats: int) -> None:
    listed = 0
    for state, now in random_states(seats):
        for seat in range(seats):
            for action in RULES.legal_actions(state, seat):
                listed += 1
                for at in {now, before_settling(state, now)}:  # with or without a lazy settlement first
                    try:
                        RULES.decide(state, seat, action, at, random.Random(0))
                    except RuleError as err:
                        pytest.fail(f"listed {action} refused for seat {seat} at {at}: {err}")
    assert listed > 1000


@pytest.mark.parametrize("seats", SEATS)
def test_an_unlisted_action_is_refused(seats: int) -> None:
    rng = random.Random(seats)
    accepted_unlisted_big_snaps = tried = 0
    for state, now in random_states(seats):
        at = before_settling(state, now)
        for seat in range(seats):
            legal = RULES.legal_actions(state, seat)
            for action in candidates(state, seat, rng):
                tried += 1
                try:
                    RULES.decide(state, seat, action, at, random.Random(0))
                except RuleError:
                    continue
                if listed(action, legal):
                    continue
                slots = action.get("slots")
                # the one documented omission: a snap of more cards than a rank can match is a sure wrong snap
                assert action["kind"] == "snap" and len(slots) > MAX_MATCH, (action, legal)
                accepted_unlisted_big_snaps += 1
    assert tried > 1000


def _hidden_shuffle(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same table with every card `seat` cannot see swapped for another such card.

    Face up (the discard pile) and whatever the seat's view shows stays put;
    the rest — grids, the draw pile, another seat's held card, King look and
    looks — trades places consistently, so the state stays a possible one.
    """
    shown = set(state["discard"]) | {c["id"] for c in iter_cards(RULES.view(state, seat))}
    present = {c for row in state["slots"] for c in row} | set(state["draw"]) | {state["drawn"]}
    hidden = sorted(present - {None} - shown)
    image = hidden[:]
    rng.shuffle(image)
    m = dict(zip(hidden, image, strict=True))

    def mapped(c: Any) -> Any:
        return m.get(c, c)

    out = dict(state)
    out["slots"] = [[mapped(c) for c in row] for row in state["slots"]]
    out["draw"] = [mapped(c) for c in state["draw"]]
    out["drawn"] = mapped(state["drawn"])
    if state["king"] is not None:
        out["king"] = {**state["king"], "card": mapped(state["king"]["card"])}
    out["looks"] = [[{**lk, "card": mapped(lk["card"])} for lk in row] for row in state["looks"]]
    return out


def _secrecy_breaks(rules: ZwickerRules, seats: int) -> int:
    """How often two states that look the same to a seat get different legal lists from `rules`."""
    rng = random.Random(seats)
    breaks = 0
    for state, _ in random_states(seats, games=2):
        if state["finished"]:
            continue
        for seat in range(seats):
            other = _hidden_shuffle(state, seat, rng)
            view, view2 = rules.view(state, seat), rules.view(other, seat)
            view.pop("legal")
            view2.pop("legal")
            assert view == view2, "the shuffle touched something the seat sees"
            breaks += rules.legal_actions(state, seat) != rules.legal_actions(other, seat)
    return breaks


@pytest.mark.parametrize("seats", SEATS)
def test_legal_reveals_no_hidden_card(seats: int) -> None:
    assert _secrecy_breaks(RULES, seats) == 0


def test_the_secrecy_check_catches_a_list_that_knows_the_cards() -> None:
    class Knowing(ZwickerRules):
        def legal_actions(self, state: Any, seat: int | None) -> list[dict[str, Any]]:
            top = RANK_OF[state["discard"][-1]]
            return [a for a in super().legal_actions(state, seat) if a["kind"] != "snap" or all(RANK_OF[state["slots"][seat][i]] == top for i in a["slots"])]

    assert _secrecy_breaks(Knowing(), 3) > 0


def test_the_list_in_the_view_by_phase() -> None:
    g = [["Ac", "9s", "4h", "3d"], ["Jc", "4c", "8h", "Kd"]]
    s = table(g, draw=["Ks"])
    assert RULES.view(s, None)["legal"] == []
    mine = RULES.view(s, 0)["legal"]
    assert {"kind": "draw"} in mine and {"kind": "zwicker"} in mine and {"kind": "take_discard", "slot": 3} in mine
    assert {"kind": "snap", "slots": [0, 2, 3]} in mine and {"kind": "snap", "slots": [0, 1, 2, 3]} not in mine
    assert all(a["kind"] == "snap" for a in RULES.view(s, 1)["legal"])  # out of turn: snaps only
    s, _ = act(s, 0, {"kind": "draw"})
    drawn = RULES.legal_actions(s, 0)
    assert {"kind": "use", "target": 1, "target_slot": 2} in drawn and {"kind": "discard"} in drawn
    s, _ = act(s, 0, {"kind": "use", "target": 1, "target_slot": 2})
    king = [a for a in RULES.legal_actions(s, 0) if a["kind"] != "snap"]
    assert king == [{"kind": "keep"}, *({"kind": "swap", "slot": i} for i in range(4))]
