"""Smack It! in the generic random-play harness (tests/support/simulate.py).

Random play draws from `legal_actions`: by kind over the whole table
(`by_table`: anyone may smack, one seat flips), flips far more often than
smacks, so most smacks land on a smack card and the rest are the false or
late smacks the rules punish or ignore.

`may_see` is written from the rules page, not from `redact`/`view`: a card is
visible to everyone exactly while it lies face up in the centre (so an event
may show what was in the centre before it or is there after it), and after
the end everything is. Nobody, the owner included, ever sees a card in a pile.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Event, State
from games.smackit.rules import RULES
from tests.support.simulate import Harness


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
    card_ids=card_ids,
    may_see=may_see,
    random_options=random_options,
    kind_weights={"flip": 12.0, "smack": 1.0},
    by_table=True,
)
