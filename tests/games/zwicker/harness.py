"""Zwicker in the generic random-play harness (actions come from `RULES.legal_actions`, picked by `choose`), plus the bot-level tournament.

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
from games.zwicker.bot import BOT
from games.zwicker.rules import POWER_OF, RANK_OF, RULES
from tests.support.simulate import Harness, play_bots
from tools.sim import pick_legal


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
    if after["finished"]:
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
    for look in state["looks"][seat]:
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


CHOOSE_WEIGHTS = {"zwicker": 0.1}
"""Within a seat's kept moves: calling Zwicker is rare (every other kind alike)."""


def choose(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action | None:
    """Random play's pick among `seat`'s listed actions, narrowed by a peek at the true state.

    Why: a seat's own cards are hidden from it, so `legal_actions` lists every
    snap by position, and a uniform draw among them is a wrong snap almost
    every time (1322 wrong to 8 matching in 40 matches, grids of 30 slots, no
    take-back ever). A random driver may peek at the true state, as the old
    hand-written `random_action` did; so this keeps every listed turn move
    and, of the seat's listed snaps, the ones that match the top discard
    plus, now and then, one likely wrong one (its first filled slot), then
    draws a kind (Zwicker rarely) and an action of it. Now and then a player
    on a short turn lets it run out (no turn move: the table plays it), and
    nobody calls Zwicker in the first two rounds. A seat with nothing kept
    waits (None); the harness's `by_table` draws among the seats' picks.
    """
    if not legal:
        return None
    row = state["slots"][seat]
    top = RANK_OF[state["discard"][-1]]
    first = next((i for i, c in enumerate(row) if c is not None), None)
    if len(row) > 6 or (state["turn_no"] + len(state["discard"]) + len(row) + seat) % 5:
        first = None  # most of the time only the matching snaps: wrong ones grow the grids
    idle = seat == state["turn"] and state["options"]["turn_seconds"] <= 5 and state["turn_no"] % 5 == 2
    early = state["turn_no"] <= 2 * state["seats"]

    def kept(a: Action) -> bool:
        if a["kind"] == "zwicker" and early:
            return False  # nobody calls before every seat has played twice: matches long enough to see the rules
        if a["kind"] != "snap":
            return not idle  # a player who lets its short turn run out: the table plays it (turn_timeout)
        return a["slots"] == [first] or all(RANK_OF[row[i]] == top for i in a["slots"])

    return pick_legal([a for a in legal if kept(a)], rng, CHOOSE_WEIGHTS)


HARNESS = Harness(
    rules=RULES,
    card_ids=card_ids,
    may_see=may_see,
    random_options=random_options,
    by_table=True,
    choose=choose,
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
