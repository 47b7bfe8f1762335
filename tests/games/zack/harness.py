"""ZACK! in the generic random-play harness (tests.support.simulate.Harness).

Random play draws from `RULES.legal_actions`, throws and choices more often
than challenges and colour cards (`KIND_WEIGHTS`): every kind alike plays
matches three times as long (a stray colour card or challenge undoes a run
of throws) for no more coverage, and every step is checked. `may_see` is written from the
rules page, not from `redact`/`view`: nobody sees a pile card until it is
thrown; the box is public; a returned card was thrown face up, so it is
public; after the end everything is.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Event, State
from games.zack.rules import RULES
from tests.support.simulate import Harness

KIND_WEIGHTS = {"throw": 4.0, "choose": 4.0, "challenge": 1.0, "colour": 0.3}


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
    card_ids=card_ids,
    may_see=may_see,
    random_options=random_options,
    kind_weights=KIND_WEIGHTS,
)
