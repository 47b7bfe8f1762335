"""ZIGZAG in the generic random-play harness.

`random_action` plays a loose but purposeful game so random matches reach
their end: it mostly opens and exchanges towards a common feature (it peeks
at the true state, which a random driver may), keeps a finished combination,
announces what its team holds when it is still needed (a `double_zag` only
once), lets a sign ride on a move now and then (with `signals_seen` off
that is the only sign the rules accept), and mixes in the
mistakes the rules punish (false announcements, failed counters), races for
cards already gone, and garbage the rules must refuse.

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

from games.engine import Action, Event, State
from games.testing import Harness
from games.zigzag.rules import (
    ALL_COMBOS,
    COMBOS,
    FEAT,
    JOKER,
    KIND,
    RULES,
    STOP,
    ZCARD,
    forbidden_mask,
    hand_class,
    partner_of,
    team_combo,
    team_of,
    team_seats,
)

_PAIRS = ((0, 1), (0, 2), (1, 2))

_GARBAGE: tuple[Any, ...] = (
    {"kind": "exchange", "give": "x", "take": None},
    {"kind": "exchange", "give": True, "take": 1},
    {"kind": "open", "card": 10**30},
    {"kind": "open"},
    {"kind": "stop", "card": 68, "target": "1", "take": 0},
    {"kind": "z", "card": 74, "target": -1, "take": 0},
    {"kind": "signal", "sign": "zog"},
    {"kind": "signal", "sign": ["zig"]},
    {"kind": "pass", "sign": "zog"},
    {"kind": "exchange", "give": 0, "take": 1, "sign": 1},
    {"kind": "announce", "combo": "zig", "sign": "zig"},
    {"kind": "counter", "team": 1, "sign": "zag"},
    {"kind": "announce", "combo": "triple_zig"},
    {"kind": "announce", "combo": "zig", "fills": "zag"},
    {"kind": "announce", "combo": "double_zag", "fills": {"a": 1}},
    {"kind": "counter", "team": None},
    {"kind": "counter", "team": 99},
    {"kind": "counter", "team": False},
    {"kind": "timer", "id": "tour:1:1"},
    {"kind": "fly"},
    {"kind": 3},
    {},
    [],
    "pass",
    None,
)


def _keys(mask: int) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Per card: the single-feature keys and feature-pair keys its allowed features give."""
    k1: dict[int, tuple[int, ...]] = {}
    k2: dict[int, tuple[int, ...]] = {}
    for cid, ft in FEAT.items():
        k1[cid] = tuple(4 * f + ft[f] for f in range(3) if not mask >> f & 1)
        k2[cid] = tuple(16 * i + 4 * ft[f] + ft[g] for i, (f, g) in enumerate(_PAIRS) if not (mask >> f & 1 or mask >> g & 1))
    return k1, k2


_KEYS = [_keys(m) for m in range(8)]
_PENALTY = {JOKER: 0.0, STOP: 2.0, ZCARD: 2.0}


def progress(hand: list[int], mask: int) -> float:
    """How close a hand is to a ZIG or ZAG: best shared value, best shared pair, jokers (memoised)."""
    key = (mask, *sorted(hand))
    value = _PROGRESS.get(key)
    if value is None:
        if len(_PROGRESS) > 200_000:
            _PROGRESS.clear()
        value = _PROGRESS[key] = _progress(hand, mask)
    return value


_PROGRESS: dict[tuple[int, ...], float] = {}


def _progress(hand: list[int], mask: int) -> float:
    k1, k2 = _KEYS[mask]
    ones: list[int] = []
    twos: list[int] = []
    jokers = 0
    penalty = 0.0
    for c in hand:
        if c < 64:
            ones += k1[c]
            twos += k2[c]
        elif KIND[c] == JOKER:
            jokers += 1
        else:
            penalty += 2.0
    best1 = max(map(ones.count, ones)) if ones else 0
    best2 = max(map(twos.count, twos)) if twos else 0
    return best1 + jokers + 0.6 * (best2 + jokers) - penalty


def _needed(state: State, team: int, combo: str | None) -> bool:
    if combo is None:
        return False
    if combo == "double_zag":
        return not state["bonus"][team]  # made once per match
    return combo not in state["scored"][team]


_MOVES = ("open", "exchange", "stop", "z", "pass")
_HARDEST = ("zigzag", "double_zig", "zag", "zig")


def random_action(state: State, seat: int, now_ms: int, rng: random.Random) -> Action | None:
    """A plausible action for `seat`; now and then a move carries a sign (`signals_seen` off: the only way)."""
    action = _random_action(state, seat, now_ms, rng)
    if isinstance(action, dict) and action.get("kind") in _MOVES and rng.random() < 0.08:
        action = {**action, "sign": rng.choice(("zig", "zag"))}
    return action


def _random_action(state: State, seat: int, now_ms: int, rng: random.Random) -> Action | None:
    """A plausible action for `seat`: mostly legal and purposeful, sometimes a mistake or garbage."""
    if state["finished"]:
        return None
    r = rng.random()
    if r < 0.02:
        return rng.choice(_GARBAGE)
    seats = state["seats"]
    hand = state["hands"][seat]
    team = team_of(seat, seats)
    partner = partner_of(seat, seats)
    mask = forbidden_mask(state["stops"][seat])
    mine = hand_class(hand, mask)
    theirs = hand_class(state["hands"][partner], forbidden_mask(state["stops"][partner]))
    combo = team_combo(mine, theirs)
    if _needed(state, team, combo) and (combo not in ("zig", "zag") or mine == "none") and rng.random() < 0.6:
        if combo == "double_zag":  # made once: it fills the combination hardest to get
            return {"kind": "announce", "combo": combo, "fills": next(c for c in _HARDEST if c not in state["scored"][team])}
        return {"kind": "announce", "combo": combo}
    r = rng.random()
    if r < 0.03:
        if state["options"]["signals_seen"] or rng.random() < 0.15:  # refused (`signs_ride`) with the option off
            return {"kind": "signal", "sign": rng.choice(("zig", "zag"))}
    elif r < 0.038:
        return {"kind": "announce", "combo": rng.choice(ALL_COMBOS)}
    elif r < 0.045:
        if rng.random() < 0.5:
            return {"kind": "announce", "combo": "double_zag", "fills": rng.choice(COMBOS)}
        others = [t for t in range(seats // 2) if t != team]
        return {"kind": "counter", "team": rng.choice(others)}
    if state["starting"][seat] is not None:
        if rng.random() < 0.8:
            return {"kind": "open", "card": _worst(hand, mask)}
        return {"kind": "open", "card": rng.choice(hand)}
    centre = state["centre"]
    holding = mine != "none" and (_useful(state, team, mine) or rng.random() < 0.5)
    if holding or not centre or r > 0.85:
        if state["passed"][seat]:
            return None
        return {"kind": "pass"}
    special = [c for c in hand if KIND[c] in (STOP, ZCARD)]
    if special and rng.random() < 0.6:
        c = special[0]
        if KIND[c] == STOP:
            target = rng.choice([s for s in range(seats) if team_of(s, seats) != team])
            return {"kind": "stop", "card": c, "target": target, "take": rng.choice(centre)}
        return {"kind": "z", "card": c, "target": rng.choice(team_seats(team, seats)), "take": rng.choice(centre)}
    if rng.random() < 0.1:
        # a race lost: the card was taken by someone else a moment ago
        gone = [c for h in state["hands"] for c in h if c not in hand]
        return {"kind": "exchange", "give": rng.choice(hand), "take": rng.choice(gone)}
    if rng.random() < 0.85:
        best = _best_exchange(hand, centre, mask)
        if best is not None:
            return {"kind": "exchange", "give": best[0], "take": best[1]}
        if state["passed"][seat]:
            return None
        return {"kind": "pass"}
    return {"kind": "exchange", "give": rng.choice(hand), "take": rng.choice(centre)}


def _useful(state: State, team: int, cls: str) -> bool:
    scored = state["scored"][team]
    if cls == "zig":
        return any(c not in scored for c in ("zig", "double_zig", "zigzag"))
    return not state["bonus"][team] or any(c not in scored for c in ("zag", "zigzag"))


def _worst(hand: list[int], mask: int) -> int:
    """The card whose loss hurts the hand least."""
    best, best_score = hand[0], -99.0
    for c in hand:
        rest = [x for x in hand if x != c]
        sc = progress(rest, mask)
        if sc > best_score:
            best, best_score = c, sc
    return best


def _best_exchange(hand: list[int], centre: list[int], mask: int) -> tuple[int, int] | None:
    """The exchange raising `progress` most, computed incrementally (the random driver runs hot)."""
    k1, k2 = _KEYS[mask]
    base = progress(hand, mask)
    best = None
    best_score = base + 0.01
    for g in hand:
        c1: dict[int, int] = {}
        c2: dict[int, int] = {}
        jokers = 0
        penalty = 0.0
        for c in hand:
            if c == g:
                continue
            if c < 64:
                for k in k1[c]:
                    c1[k] = c1.get(k, 0) + 1
                for k in k2[c]:
                    c2[k] = c2.get(k, 0) + 1
            elif KIND[c] == JOKER:
                jokers += 1
            else:
                penalty += 2.0
        b1r = max(c1.values(), default=0)
        b2r = max(c2.values(), default=0)
        for t in centre:
            b1, b2, j, pen = b1r, b2r, jokers, penalty
            if t < 64:
                for k in k1[t]:
                    b1 = max(b1, c1.get(k, 0) + 1)
                for k in k2[t]:
                    b2 = max(b2, c2.get(k, 0) + 1)
            elif KIND[t] == JOKER:
                j += 1
            else:
                pen += 2.0
            sc = b1 + j + 0.6 * (b2 + j) - pen
            if sc > best_score:
                best, best_score = (g, t), sc
    return best


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
    random_action=random_action,
    card_ids=card_ids,
    may_see=may_see,
    random_options=random_options,
    bots=_bot,
)
