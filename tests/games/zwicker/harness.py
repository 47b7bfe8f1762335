"""Zwicker in the generic random-play harness, plus the bot-level tournament.

`may_see` is written from the rules page, not from `redact`/`view`: a seat
may see face-up cards (the discard pile, cards shown by a snap or a turn
action), its own drawn card, the card it looks at in that very event (the
initial peek, a 7/8/9/10 look, a King look while the swap is pending), the
cards of its own looks while they last (`peek_ms`, as long as the card is
still in the slot it looked at: the view carries them so a page that
connects late still shows them), and everything once the match is over.
A snap race's claim shows no card: the cards are shown when it is settled. Nothing else — in particular never a
penalty card, a reshuffled pile, a blindly swapped card or a card it only
remembers.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine import Action, Event, State
from games.testing import Harness, play_bots
from games.zwicker.bot import BOT
from games.zwicker.rules import POWER_OF, RANK_OF, RULES

_GARBAGE: tuple[Any, ...] = (
    "x",
    None,
    True,
    3.5,
    -1,
    10**30,
    [],
    {},
    {"a": 1},
    [1, "2"],
    [None],
    "0",
)


def card_ids(state: State) -> list[int]:
    """Every card on the table: grids, both piles and the drawn card."""
    ids = [c for row in state["slots"] for c in row if c is not None]
    ids.extend(state["draw"])
    ids.extend(state["discard"])
    if state["drawn"] is not None:
        ids.append(state["drawn"])
    return ids


def may_see(before: State, after: State, e: Event, seat: int | None) -> set[int]:
    """Card ids `seat` may find in `redact(e, seat)` and `view(after, seat)`."""
    if after["phase"] == "over":
        return set(card_ids(after))
    allowed = set(after["discard"])  # face up (the view only shows the top)
    kind, d, actor = e["kind"], e["data"], e["seat"]
    own = seat is not None and seat == actor
    if kind == "dealt" and seat is not None:
        row = after["slots"][seat]  # the setup peek at the near row
        allowed.update(c for c in row[2:4] if c is not None)
    elif kind == "peeked" and own:
        allowed.add(after["slots"][d["target"]][d["slot"]])
    elif kind == "drawn" and own:
        allowed.add(after["drawn"])
    elif kind == "took_discard":
        allowed.add(before["discard"][-1])
        allowed.add(before["slots"][actor][d["slot"]])
    elif kind == "replaced":
        allowed.add(before["slots"][actor][d["slot"]])
        if own:
            allowed.add(before["drawn"])
    elif kind in ("discarded", "used"):
        allowed.add(before["drawn"])
        if kind == "used" and own and POWER_OF[before["drawn"]] != "blind_swap":
            allowed.add(before["slots"][d["target"]][d["target_slot"]])
    elif kind in ("snapped", "snap_wrong", "snap_taken_back"):
        allowed.update(before["slots"][actor][i] for i in d["slots"])
    # what the view shows right now: one's own looks, drawn card and pending King look
    if seat is not None:
        allowed.update(_live_looks(after, seat))
    if seat is not None and seat == after["turn"]:
        if after["drawn"] is not None:
            allowed.add(after["drawn"])
        if after["king"] is not None:
            allowed.add(after["king"]["card"])
    return allowed


def _live_looks(state: State, seat: int) -> set[int]:
    """The cards `seat` is looking at: each came from a look of its own (peek or power) and lies where it looked."""
    out = set()
    for look in (state.get("looks") or [[]] * state["n"])[seat]:
        row = state["slots"][look["target"]]
        if look["slot"] < len(row) and row[look["slot"]] == look["card"]:
            out.add(look["card"])
    return out


def random_options(seats: int, rng: random.Random) -> dict[str, Any]:
    """Vary the window (0 means no take-backs) and the dealer."""
    opts: dict[str, Any] = {}
    r = rng.random()
    if r < 0.3:
        opts["snap_window_ms"] = rng.choice((0, 200, 3000))
    if rng.random() < 0.3:
        opts["dealer"] = rng.randrange(-1, seats)
    if rng.random() < 0.35:  # short turns: timeouts happen in random play (look timers come first in the queue)
        opts["turn_seconds"] = rng.choice((5, 5, 30, 120))
    if rng.random() < 0.3:
        opts["peek_ms"] = rng.choice((500, 2000, 30000))
    return opts


def _garbage(state: State, seat: int, rng: random.Random) -> Action:
    """An impossible or malformed action: it must be refused with a RuleError."""
    kind = rng.choice(("take_discard", "replace", "use", "snap", "swap", "timer", "nope", "snap", "zwicker"))
    action: dict[str, Any] = {"kind": kind}
    for key in rng.sample(("slot", "slots", "target", "target_slot", "id"), rng.randrange(0, 3)):
        action[key] = rng.choice(_GARBAGE)
    if rng.random() < 0.1:
        return rng.choice(({"kind": 5}, {}, {"slot": 1}, {"kind": None}))  # type: ignore[return-value]
    return action


def _filled(row: list[int | None]) -> list[int]:
    return [i for i, c in enumerate(row) if c is not None]


def random_action(state: State, seat: int, now_ms: int, rng: random.Random) -> Action | None:
    """Mostly legal moves and punished mistakes, so random matches reach their end."""
    if state["phase"] == "over":
        return None
    r = rng.random()
    turn = state["turn"]
    if seat == turn and state["options"]["turn_seconds"] <= 5 and state["turn_no"] % 5 == 2:
        return None  # a player who lets its short turn run out: the table plays it (turn_timeout)
    if r < 0.02:
        return _garbage(state, seat, rng)
    if seat != turn and r < 0.4:
        return None  # most of the time a waiting player just watches
    row = state["slots"][seat]
    if seat != turn or r < 0.1:
        top = RANK_OF[state["discard"][-1]]
        matching = [i for i, c in enumerate(row) if c is not None and RANK_OF[c] == top]
        p = rng.random()
        if matching and p < 0.6:
            return {"kind": "snap", "slots": matching if p < 0.4 else [rng.choice(matching)]}
        if p < 0.1:
            mine = _filled(row)
            if mine:
                return {"kind": "snap", "slots": rng.sample(mine, 2 if len(mine) > 1 and p < 0.02 else 1)}
        if seat != turn:
            return {"kind": "draw"} if p < 0.16 else None  # out of turn: refused
    mine = _filled(row)
    phase = state["phase"]
    n = state["n"]
    if phase == "turn":
        if state["caller"] is None and rng.random() < 0.05 + 0.003 * state["turn_no"]:
            return {"kind": "zwicker"}
        if mine and rng.random() < 0.25:
            return {"kind": "take_discard", "slot": rng.choice(mine)}
        return {"kind": "draw"}
    if phase == "drawn":
        power = POWER_OF[state["drawn"]]
        q = rng.random()
        if power is not None and q < 0.45:
            others = [(t, i) for t in range(n) if t != seat for i in _filled(state["slots"][t])]
            if power == "look_own" and mine:
                return {"kind": "use", "slot": rng.choice(mine)}
            if power == "look_other" and others:
                t, i = rng.choice(others)
                return {"kind": "use", "target": t, "slot": i}
            if power == "blind_swap" and mine and others:
                t, i = rng.choice(others)
                return {"kind": "use", "slot": rng.choice(mine), "target": t, "target_slot": i}
            if power == "king" and others:
                t, i = rng.choice(others)
                return {"kind": "use", "target": t, "target_slot": i}
        if mine and q < 0.75:
            return {"kind": "replace", "slot": rng.choice(mine)}
        return {"kind": "discard"}
    if phase == "king":
        king = state["king"]
        still = state["slots"][king["target"]][king["target_slot"]] == king["card"]
        if mine and still and rng.random() < 0.5:
            return {"kind": "swap", "slot": rng.choice(mine)}
        return {"kind": "keep"}
    return None


HARNESS = Harness(
    rules=RULES,
    random_action=random_action,
    card_ids=card_ids,
    may_see=may_see,
    random_options=random_options,
    bots=lambda: BOT,
)


def level_tournament(matches: int = 300, seats: int = 3, seed: int = 0) -> dict[str, Any]:
    """How often each bot level wins against the others.

    Plays `matches` bot matches with one easy, one normal and one hard bot
    (extra seats cycle through the levels), rotating the seats so no level
    keeps the first-player edge. A shared first place counts for every
    winner. Returns wins and win rates per level, mean places, match lengths
    and rule errors.
    """
    base = ["easy", "normal", "hard"]
    wins: Counter[str] = Counter()
    places: Counter[str] = Counter()
    played: Counter[str] = Counter()
    actions = errors = unfinished = 0
    for m in range(matches):
        levels = [base[(m + s) % 3] for s in range(seats)]
        report = play_bots(RULES, BOT, levels, seed * 1_000_003 + m)
        actions += report.actions
        errors += report.rule_errors
        if report.outcome is None:
            unfinished += 1
            continue
        for s in report.outcome["winners"]:
            wins[levels[s]] += 1
        for p in report.outcome["placements"]:
            places[levels[p["seat"]]] += p["place"]
            played[levels[p["seat"]]] += 1
    return {
        "matches": matches,
        "seats": seats,
        "wins": dict(wins),
        "win_rate": {lv: round(wins[lv] / max(1, matches), 3) for lv in base},
        "mean_place": {lv: round(places[lv] / max(1, played[lv]), 2) for lv in base},
        "mean_actions": round(actions / max(1, matches), 1),
        "rule_errors": errors,
        "unfinished": unfinished,
    }


if __name__ == "__main__":
    print(level_tournament())
