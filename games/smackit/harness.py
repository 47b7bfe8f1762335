"""Smack It! in the generic random-play harness (games/testing.py).

`may_see` is written from the rules page, not from `redact`/`view`: a card is
visible to everyone exactly while it lies face up in the centre (so an event
may show what was in the centre before it or is there after it), and after
the end everything is. Nobody, the owner included, ever sees a card in a pile.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Action, Event, State
from games.smackit.bot import BOT
from games.smackit.rules import DECK, RULES
from tests.support.simulate import Harness

_GARBAGE: list[Any] = [
    None,
    "flip",
    7,
    [],
    {},
    {"kind": None},
    {"kind": 3},
    {"kind": ["flip"]},
    {"kind": "smackk"},
    {"kind": "throw"},
    {"kind": "timer", "id": "flip:0"},
    {"kind": "timer", "id": None},
    {"kind": "flip", "card": {"id": 10**30}},
    {"kind": "smack", "extra": {"nested": [1, {"x": None}]}},
    {"kind": {"kind": "flip"}},
]


def random_action(state: State, seat: int, now_ms: int, rng: random.Random) -> Action | None:
    """Mostly the right move, sometimes a punished mistake, rarely garbage."""
    if state["finished"]:
        return None
    r = rng.random()
    if r < 0.01:
        return rng.choice(_GARBAGE)
    centre = state["centre"]
    if centre and DECK[centre[-1]]["face"] == "smack":
        # play stops for the race: a flip now is refused (smack_pending); a
        # silent table leaves the card to the idle timer
        r = rng.random()
        if r < 0.6:
            return {"kind": "smack"}
        return {"kind": "flip"} if r < 0.65 else None
    if state["turn"] == seat:
        r = rng.random()
        if r < 0.04:
            return {"kind": "smack"}  # a nervous false smack instead of the flip
        return {"kind": "flip"} if r < 0.95 else None
    r = rng.random()
    if r < 0.03:
        return {"kind": "smack"}  # a false smack (or a late one within the grace)
    if r < 0.05:
        return {"kind": "flip"}  # out of turn: RuleError unless it is this seat's turn
    return None


def card_ids(state: State) -> list[int]:
    """Every card: piles, the centre and the piles removed from play."""
    ids = [c for p in state["piles"] for c in p]
    ids.extend(state["centre"])
    ids.extend(state["removed"])
    return ids


def may_see(before: State | None, after: State, e: Event, seat: int | None) -> set[int]:
    """Face-up centre cards are public; everything is public once the match is over."""
    if after["finished"]:
        return set(card_ids(after))
    seen = set(after["centre"])
    if before is not None:
        seen.update(before["centre"])
    return seen


def random_options(seats: int, rng: random.Random) -> dict[str, Any]:
    """Vary every option, including the off switches and a tiny length limit."""
    opts: dict[str, Any] = {}
    if rng.random() < 0.5:
        opts["shuffle_won"] = True
    if rng.random() < 0.3:
        opts["smack_grace_ms"] = rng.choice((0, 50, 300, 1000))
    if rng.random() < 0.3:
        opts["auto_flip_seconds"] = rng.choice((0, 1, 10))
    if rng.random() < 0.2:
        opts["max_minutes"] = rng.choice((0, 1, 2))
    if rng.random() < 0.3:
        opts["dealer"] = rng.randrange(-1, seats)
    return opts


HARNESS = Harness(
    rules=RULES,
    random_action=random_action,
    card_ids=card_ids,
    may_see=may_see,
    random_options=random_options,
    bots=lambda: BOT,
)
