"""ZIGZAG in the generic random-play harness (tests/support/simulate.py).

Random play draws from `RULES.legal_actions` (every move, a riding sign on
some, every announcement and counter: the mistakes the rules punish are
listed) plus the malformed actions the generic driver makes itself.
`kind_weights` favours the moves of a tour over talk so that tours are
played out and timers end some of them.

`may_see` is written from the rules page, not from `redact`/`view`: a seat
sees its own hand, the face-up centre, the STOPs before players, cards moved
in public (opening discard, exchanges, played STOP/Z cards), the hands shown
at a correct announcement, the proof of a failed counter, and everything once
the match is over. It never sees another hand (its partner's included), a
starting card it did not take, the draw pile or the face-down discard pile.
A race for a centre card (issue 16) needs no line of its own: its events
show the card raced for (face up in the centre until the winner's move) and,
to the claimer only, the card its claim would give (still in its own hand);
a losing claim shows nobody else anything of its hand.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Event, State
from games.zigzag.rules import RULES
from tests.support.simulate import Harness


def card_ids(state: State) -> list[int]:
    """Every card of the match, wherever it lies."""
    out = [c for h in state["hands"] for c in h]
    out += state["draw"]
    out += state["discard"]
    out += state["centre"]
    out += [c for c in state["starting"] if c is not None]
    out += [c for st in state["stops"] for c in st]
    return out


def may_see(before: State | None, after: State, e: Event, seat: int | None) -> set[int]:
    """The cards `seat` may see in this event and in the view after it (rules page, "Secrecy")."""
    if after["finished"]:
        return set(card_ids(after))
    allowed: set[int] = set(after["centre"])
    for st in after["stops"]:
        allowed.update(st)
    if seat is not None:
        allowed.update(after["hands"][seat])
    kind, d = e["kind"], e["data"]
    if kind == "dealt":
        if seat is not None:
            allowed.update(c["id"] for c in d["hands"][seat])
    elif kind == "opened":
        allowed.add(d["card"]["id"])
        if seat == e["seat"]:
            allowed.add(d["took"]["id"])
    elif kind in ("exchanged", "stopped"):
        allowed.update((d.get("give", d.get("card"))["id"], d["take"]["id"]))
    elif kind == "z_played":
        allowed.update((d["card"]["id"], d["take"]["id"]))
        allowed.update(c["id"] for c in d["removed"])
    elif kind == "tour_ended":
        allowed.update(c["id"] for c in d["centre"])
    elif kind == "announced" and d["correct"]:
        for lst in d["hands"].values():
            allowed.update(c["id"] for c in lst)
    elif kind == "countered" and not d["confirmed"]:
        for lst in d["proof"].values():
            allowed.update(c["id"] for c in lst)
    elif kind == "hands_replaced" and seat is not None and str(seat) in d["hands"]:
        allowed.update(c["id"] for c in d["hands"][str(seat)])
    return allowed


def random_options(seats: int, rng: random.Random) -> dict[str, Any]:
    """Vary every option; short tours so the timer ends some of them."""
    opts: dict[str, Any] = {}
    if rng.random() < 0.3:
        opts["beginner"] = True
    if rng.random() < 0.3:
        opts["signals_seen"] = False
    if rng.random() < 0.5:
        opts["tour_seconds"] = rng.choice((5, 10, 45))
    if rng.random() < 0.3:
        opts["dealer"] = rng.randrange(seats)
    return opts


def _bot() -> Any:
    from games.zigzag.bot import BOT

    return BOT


HARNESS = Harness(
    rules=RULES,
    card_ids=card_ids,
    may_see=may_see,
    random_options=random_options,
    bots=_bot,
    kind_weights={
        "open": 4.0,
        "exchange": 4.0,
        "stop": 1.0,
        "z": 1.0,
        "pass": 2.0,
        "signal": 0.5,
        "announce": 1.0,
        "counter": 0.3,
    },
)
