"""ZACK! in the generic random-play harness (games.testing.Harness).

`may_see` is written from the rules page, not from `redact`/`view`: nobody
sees a pile card until it is thrown; the box is public; a returned card was
thrown face up, so it is public; after the end everything is.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Action, Event, State
from games.testing import Harness
from games.zack.bot import BOT
from games.zack.rules import RULES

GARBAGE: tuple[Any, ...] = (
    {"kind": "throw", "card": 3},
    {"kind": 5},
    {},
    {"kind": None},
    {"kind": "challenge"},
    {"kind": "challenge", "target": None},
    {"kind": "challenge", "target": {"colour": "red"}},
    {"kind": "challenge", "target": "pink"},
    {"kind": "challenge", "target": ["red"]},
    {"kind": "challenge", "target": 10**30},
    {"kind": "choose", "colour": 123},
    {"kind": "choose", "colour": "red"},
    {"kind": "colour", "colour": True},
    {"kind": "smack"},
    {"kind": "timer", "id": "choose-1"},
    {"kind": ["throw"]},
    "throw",
    None,
    [{"kind": "throw"}],
)


def card_ids(state: State) -> list[int]:
    """Every ZACK! card in play: the piles and the box (colour cards are not ZACK! cards)."""
    ids = [c for pile in state["piles"] for c in pile]
    ids.extend(e["card"]["id"] for e in state["box"] if "card" in e)
    return ids


def may_see(before: State, after: State, ev: Event, seat: int | None) -> set[int]:
    """What anyone (the seat itself included: ZACK! has no private cards) may see."""
    if after["finished"]:
        return set(card_ids(after))
    ids = {e["card"]["id"] for e in after["box"] if "card" in e}
    card = ev["data"].get("card") if ev["kind"] in ("thrown", "returned") else None
    if isinstance(card, dict):
        ids.add(card["id"])
    return ids


def _challenge_target(state: State, seat: int, rng: random.Random) -> str:
    """Mostly a sensible target (the slow player, a recent thrower), sometimes any opponent."""
    colours = state["colours"]
    turn = state["turn"]
    r = rng.random()
    if r < 0.45 and turn is not None and turn != seat:
        return colours[turn]
    if r < 0.75 and state["box"]:
        thrower = rng.choice(state["box"][-4:])["seat"]
        if thrower != seat:
            return colours[thrower]
    return rng.choice([c for c in colours if c != colours[seat]])


def _own_colour_card_in_box(state: State, seat: int) -> bool:
    colour = state["colours"][seat]
    return any(e.get("colour_card") == colour for e in state["box"])


def random_action(state: State, seat: int, now_ms: int, rng: random.Random) -> Action | None:
    """Right throws mostly, out-of-turn throws, challenges, colour cards, and a little garbage."""
    r = rng.random()
    if r < 0.02:
        return rng.choice(GARBAGE)
    if state["waiting_choice"] == seat:
        return {"kind": "choose", "colour": rng.choice(state["colours"])} if r < 0.7 else None
    if seat == state["turn"]:
        if r < 0.92:
            if state["piles"][seat]:
                return {"kind": "throw"}
            return None if _own_colour_card_in_box(state, seat) else {"kind": "colour"}
        return None
    if r < 0.10:
        return {"kind": "throw"} if state["piles"][seat] else None
    if r < 0.22:
        return {"kind": "challenge", "target": _challenge_target(state, seat, rng)}
    if r < 0.245:
        return None if _own_colour_card_in_box(state, seat) else {"kind": "colour"}
    return None


def random_options(seats: int, rng: random.Random) -> dict[str, Any]:
    """Vary every option; the Stop cards often, since they carry the most rules."""
    opts: dict[str, Any] = {
        "stop_cards": rng.random() < 0.6,
        "beginner_deck": rng.random() < 0.2,
        "show_turn": rng.random() < 0.3,
        "protect_beginners": rng.random() < 0.8,
        "settle_ms": rng.choice((0, 400, 400, 1000)),
        "stop_pause_ms": rng.choice((0, 1500, 1500, 3000)),
        "grace_ms": rng.choice((0, 500, 2000)),
        "choose_seconds": rng.choice((1, 3, 10)),
        "series": rng.random() < 0.2,
        "dealer": rng.randrange(-1, seats),
    }
    if rng.random() < 0.4:
        opts["beginners"] = sorted(rng.sample(range(seats), rng.randint(1, seats)))
    return opts


HARNESS = Harness(
    rules=RULES,
    random_action=random_action,
    card_ids=card_ids,
    may_see=may_see,
    random_options=random_options,
    bots=lambda: BOT,
)
