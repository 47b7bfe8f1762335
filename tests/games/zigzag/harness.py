"""ZIGZAG in the generic random-play harness (tests/support/simulate.py).

Random play picks from `RULES.legal_actions` (every move, a riding sign on
some, every announcement and counter: the mistakes the rules punish are
listed) plus the malformed actions the generic driver makes itself. A
uniform draw seldom ends a match (a correct announcement is luck), so
`choose` plays a loose but purposeful game among the listed actions, as the
old hand-written `random_action` did: it peeks at the true state (a random
driver may), opens and exchanges towards a common feature, keeps a finished
combination, announces what its team holds when it is still needed (a
`double_zag` only once), lets a sign ride on a move now and then, and mixes
in the mistakes the rules punish (false announcements, failed counters) and
careless exchanges. Whatever it picks is listed.

`may_see` is written from the rules page, not from `redact`/`view`: a seat
sees its own hand, the face-up centre, the STOPs before players, cards moved
in public (opening discard, exchanges, played STOP/Z cards), the hands shown
at a correct announcement, the proof of a failed counter, and everything once
the match is over. It never sees another hand (its partner's included), a
starting card it did not take, the draw pile or the face-down discard pile.
A race for a centre card needs no line of its own: its events
show the card raced for (face up in the centre until the winner's move) and,
to the claimer only, the card its claim would give (still in its own hand);
a losing claim shows nobody else anything of its hand.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Action, Event, State
from games.zigzag.bot import BOT, LEVELS
from games.zigzag.rules import (
    ALL_COMBOS,
    COMBOS,
    KIND,
    RULES,
    SIGNS,
    STOP,
    ZCARD,
    forbidden_mask,
    hand_class,
    partner_of,
    team_combo,
    team_of,
)
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


_MOVES = ("open", "exchange", "stop", "z", "pass")
_HARDEST = ("zigzag", "double_zig", "zag", "zig")
_LEVEL = LEVELS["normal"]


def choose(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action | None:
    """A plausible listed action for `seat` (see the module docstring); None: it waits (nothing it wants is listed)."""
    if state["finished"] or not legal:
        return None
    action = _purposeful(state, seat, legal, rng)
    if action is not None and action["kind"] in _MOVES and rng.random() < 0.08:
        signed = {**action, "sign": rng.choice(SIGNS)}  # with `signals_seen` off, the only sign the rules take
        if signed in legal:
            return signed
    return action if action in legal else None


def _purposeful(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action | None:
    seats = state["seats"]
    hand = state["hands"][seat]
    team = team_of(seat, seats)
    mask = forbidden_mask(state["stops"][seat])
    mine = hand_class(hand, mask)
    partner = partner_of(seat, seats)
    theirs = hand_class(state["hands"][partner], forbidden_mask(state["stops"][partner]))
    combo = team_combo(mine, theirs)
    if _needed(state, team, combo) and (combo not in ("zig", "zag") or mine == "none") and rng.random() < 0.8:
        if combo == "double_zag":  # made once: it fills the combination hardest to get
            return {"kind": "announce", "combo": combo, "fills": next(c for c in _HARDEST if c not in state["scored"][team])}
        return {"kind": "announce", "combo": combo}
    r = rng.random()
    if r < 0.03:
        return {"kind": "signal", "sign": rng.choice(SIGNS)}  # listed only with `signals_seen`
    if r < 0.038:
        return {"kind": "announce", "combo": rng.choice(ALL_COMBOS)}  # most often false: punished
    if r < 0.045:
        if rng.random() < 0.5:
            return {"kind": "announce", "combo": "double_zag", "fills": rng.choice(COMBOS)}
        counters = [a for a in legal if a["kind"] == "counter"]
        return rng.choice(counters) if counters else None
    # the bot's hand scoring, weighed by what the team still needs and the partner's true class (a peek)
    missing = [c for c in COMBOS if c not in state["scored"][team]] + ([] if state["bonus"][team] else ["double_zag"])
    ev = BOT._evaluator(_LEVEL, mask, theirs, missing)
    if state["starting"][seat] is not None:
        return {"kind": "open", "card": ev.worst(hand) if rng.random() < 0.8 else rng.choice(hand)}
    centre = state["centre"]
    holding = mine != "none" and (_useful(state, team, mine) or rng.random() < 0.5)
    if holding or not centre or r > 0.95:
        return None if state["passed"][seat] else {"kind": "pass"}
    special = [c for c in hand if KIND[c] in (STOP, ZCARD)]
    if special and rng.random() < 0.6:
        plays = [a for a in legal if a.get("card") == special[0] and a["kind"] in ("stop", "z") and "sign" not in a]
        if plays:
            return rng.choice(plays)
    if rng.random() < 0.85:
        best = ev.best_exchange(hand, centre)
        if best is not None:
            return {"kind": "exchange", "give": best[1], "take": best[2]}
        return None if state["passed"][seat] else {"kind": "pass"}
    return {"kind": "exchange", "give": rng.choice(hand), "take": rng.choice(centre)}  # careless


def _needed(state: State, team: int, combo: str | None) -> bool:
    if combo is None:
        return False
    if combo == "double_zag":
        return not state["bonus"][team]  # made once per match
    return combo not in state["scored"][team]


def _useful(state: State, team: int, cls: str) -> bool:
    scored = state["scored"][team]
    if cls == "zig":
        return any(c not in scored for c in ("zig", "double_zig", "zigzag"))
    return not state["bonus"][team] or any(c not in scored for c in ("zag", "zigzag"))


HARNESS = Harness(
    rules=RULES,
    card_ids=card_ids,
    may_see=may_see,
    random_options=random_options,
    choose=choose,
)
