"""Scenario helpers for the Zwicker tests: hand-built deals and checked actions.

Kept out of the test modules so every test file imports them by their full
path (`tests.games.zwicker.zwicker_helpers`), whatever pytest's import mode.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.engine import RuleError, event, fold_all, timer_event
from games.zwicker.rules import RANKS, RULES, SUITS

SUIT_LETTER = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
DEFAULTS = {"turn_seconds": 60, "snap_window_ms": 1000, "peek_ms": 5000, "dealer": -1}


def cid(spec: str) -> int:
    """'10h' -> the id of the ten of hearts."""
    return SUITS.index(SUIT_LETTER[spec[-1]]) * 13 + RANKS.index(spec[:-1])


def c(spec: str) -> dict[str, Any]:
    i = cid(spec)
    return {"id": i, "rank": spec[:-1], "suit": SUIT_LETTER[spec[-1]]}


def dealt(
    grids: list[list[str]], discard: str, draw: list[str] | None = None, fill: bool = True, **options: Any
) -> dict[str, Any]:
    """A `dealt` event with chosen cards; the rest of the deck (unless fill=False) goes under `draw`."""
    opts = {**DEFAULTS, **options}
    n = len(grids)
    dealer = n - 1 if opts["dealer"] == -1 else opts["dealer"]
    named = [s for row in grids for s in row] + [discard] + list(draw or [])
    assert len(set(named)) == len(named), "a card named twice"
    used = {cid(s) for s in named}
    pile = [c(s) for s in draw or []]
    if fill:
        for i in range(52):
            if i not in used:
                pile.append({"id": i, "rank": RANKS[i % 13], "suit": SUITS[i // 13]})
    return event(
        "dealt",
        None,
        seats=n,
        dealer=dealer,
        first=(dealer + 1) % n,
        options=opts,
        slots=[[c(s) for s in row] for row in grids],
        discard=c(discard),
        draw=pile,
    )


def table(
    grids: list[list[str]], discard: str = "2c", draw: list[str] | None = None, fill: bool = True, **options: Any
) -> dict[str, Any]:
    """The state right after setup: deal, first turn, its timer."""
    d = dealt(grids, discard, draw, fill, **options)
    first = d["data"]["first"]
    return fold_all(
        RULES, [d, event("turn", first, no=1, final=False), timer_event("turn-1", d["data"]["options"]["turn_seconds"] * 1000)]
    )


def act(
    state: dict[str, Any], seat: int | None, action: dict[str, Any], now: int = 0, seed: int = 0
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """decide + fold, checking on the way that neither mutates its input."""
    before = copy.deepcopy(state)
    events = RULES.decide(state, seat, action, now, random.Random(seed))
    assert state == before, "decide mutated the state"
    for e in events:
        snapshot = copy.deepcopy(state)
        new = RULES.fold(state, e)
        assert state == snapshot, f"fold mutated the state on {e['kind']}"
        state = new
    return state, events


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


RACE_KINDS = ("race_claimed", "race_settled")


def moves(events: list[dict[str, Any]]) -> list[str]:
    """The kinds of a decide's events without the race bookkeeping around a snap.

    A snap judged at once (no compensation) is always race_claimed,
    race_settled, then its own events: the snap tests that are about what
    lands check it in one place (test_races.py checks the race events).
    """
    out = kinds(events)
    if out[:1] == ["race_claimed"]:
        assert out[1:2] == ["race_settled"], out
        return out[2:]
    assert not any(k in RACE_KINDS for k in out), out
    return out


def refused(state: dict[str, Any], seat: int | None, action: Any, code: str) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        RULES.decide(state, seat, action, 0, random.Random(0))
    assert err.value.code == code, err.value
    assert state == before


def grid(state: dict[str, Any], seat: int) -> list[int | None]:
    return state["slots"][seat]
