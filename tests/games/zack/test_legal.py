"""ZACK!'s `legal_actions`: exactly what decide accepts, and nothing the seat cannot see.

On the states of random matches (with and without platform-like timings, so
races wait and settle), for every seat:

- (a)+(b) every candidate action — each kind with every parameter a seat could
  name (all six colours, absent ones included) — is accepted by decide if
  and only if it is listed. The one exception is written into the rules
  ([D legal]): a listed challenge against a protected beginner may be
  refused with `grace`, because whether it would be tells whose turn it is.
  The time of the decision is the time of the state or later; a race whose
  settlement is due by then is settled first (its timer), as decide does.
- (c) two states the seat cannot tell apart (hidden pile order, whose turn
  it is, the out-of-turn flags, the start of the turn) give it the same list.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import RuleError, State
from games.kit.races import settle_at
from games.zack.rules import COLOURS, RULES
from tests.games.zack.harness import HARNESS
from tests.support.simulate import play_random


def candidates() -> list[dict[str, Any]]:
    """Every well-formed action a seat could send (the malformed ones are the driver's)."""
    out: list[dict[str, Any]] = [{"kind": "throw"}, {"kind": "colour"}]
    out += [{"kind": "challenge", "target": c} for c in COLOURS]
    out += [{"kind": "choose", "colour": c} for c in COLOURS]
    return out


CANDIDATES = candidates()


def states_of(seed: int, timings: bool) -> list[tuple[State, int]]:
    """(state, time) after every commit of a random match: the time is that of its last event."""
    seats = 3 + seed % 4
    report = play_random(HARNESS, seats, seed, max_actions=700, timings=timings, check=False)
    out: list[tuple[State, int]] = []
    state = None
    log = report.log
    for i, e in enumerate(log):
        state = RULES.fold(state, e)
        if i + 1 == len(log) or log[i + 1]["t_ms"] != e["t_ms"]:
            out.append((state, e["t_ms"]))
    return out


def settled(state: State, now: int) -> State:
    """The state as decide sees it at `now`: a race whose settlement is due is settled first."""
    race = state["race"]
    if race is None or settle_at(race) > now:
        return state
    for e in RULES.decide(state, None, {"kind": "timer", "id": f"race:{race['id']}"}, now, random.Random(0)):
        state = RULES.fold(state, e)
    return state


def accepted(state: State, seat: int, action: dict[str, Any], now: int) -> str | None:
    """None if decide takes the action, else the RuleError's code."""
    try:
        RULES.decide(state, seat, action, now, random.Random(0))
    except RuleError as err:
        return err.code
    return None


@pytest.mark.parametrize("timings", [False, True])
def test_listed_is_exactly_what_decide_accepts(timings: bool) -> None:
    rng = random.Random(5)
    checked = graced = listed = races = 0
    for seed in range(6):
        for state, t in states_of(700 + seed, timings):
            now = t + rng.choice((0, 0, 1, 50, 400))
            seen = settled(state, now)
            races += seen is not state
            for seat in range(state["seats"]):
                legal = RULES.legal_actions(seen, seat)
                assert RULES.view(seen, seat)["legal"] == legal
                for action in CANDIDATES:
                    code = accepted(state, seat, action, now)
                    if action in legal:
                        listed += 1
                        if code == "grace":
                            x = seen["colours"].index(action["target"])
                            assert seen["options"]["protect_beginners"] and x in seen["options"]["beginners"]
                            graced += 1
                        else:
                            assert code is None, (action, code, seat)
                    else:
                        assert code is not None, (action, seat, "accepted but not listed")
                checked += 1
    assert checked > 2000 and listed > 10_000
    if timings:
        assert races > 0, "some race should have been due and settled before an action"


def test_nothing_is_listed_for_spectators_bad_seats_or_after_the_end() -> None:
    states = states_of(3, False)
    state, _ = states[-1]
    assert state["finished"]
    assert all(RULES.legal_actions(state, s) == [] for s in range(state["seats"]))
    live, _ = states[len(states) // 2]
    assert RULES.legal_actions(live, None) == [] and RULES.view(live, None)["legal"] == []
    for bad in (-1, live["seats"], True, "0"):
        assert RULES.legal_actions(live, bad) == []  # type: ignore[arg-type]
    assert RULES.legal_actions(None, 0) == []


def twin(state: State, rng: random.Random) -> State:
    """A state every seat's view cannot tell from `state`: other hidden pile order, turn, flags, turn start."""
    other = dict(state)
    sizes = [len(p) for p in state["piles"]]
    ids = [c for p in state["piles"] for c in p]
    rng.shuffle(ids)
    piles, k = [], 0
    for size in sizes:
        piles.append(ids[k : k + size])
        k += size
    other["piles"] = piles
    if not state["options"]["show_turn"] and state["turn"] is not None and state["box"]:  # on an empty box it is public
        other["turn"] = rng.randrange(state["seats"])
    other["box"] = [dict(e, oot=rng.random() < 0.5) if "card" in e else e for e in state["box"]]
    other["oot_counts"] = [rng.randrange(5) for _ in state["oot_counts"]]
    other["turn_since"] = rng.randrange(10**6)
    other["last_throw"] = None
    return other


def test_the_list_depends_only_on_what_the_seat_sees() -> None:
    rng = random.Random(11)
    compared = 0
    for seed in range(4):
        for state, _ in states_of(800 + seed, seed % 2 == 1):
            if state["finished"]:
                continue
            other = twin(state, rng)
            for seat in range(state["seats"]):
                a, b = RULES.view(state, seat), RULES.view(other, seat)
                legal_a, legal_b = a.pop("legal"), b.pop("legal")
                assert a == b, "the twin must look the same to the seat"
                assert legal_a == legal_b
                compared += 1
    assert compared > 1000
