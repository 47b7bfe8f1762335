"""Tally's rules: each seat is dealt a hidden hand; in turn, each plays one card face up; when every hand is
empty the highest total wins. A card not in one's hand is refused (`not_held`, Tally's own refusal).

Pure, on the kit as a fifth game would be: `open_table` and the deal helpers for `setup`, a fold per event
kind named `_fold_<kind>`, the kit's decide (GameRules) and its shared state vocabulary.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import TIMER, Action, Event, GameRules, Option, RuleError, State, Timing, Tx, event
from games.kit.opening import deal_hands, open_table, shuffled

DECK = tuple(range(1, 25))


class TallyRules(GameRules):
    slug = "tally"
    name = "Tally"
    min_seats = 2
    max_seats = 4
    options = {
        "hand": Option("int", 3, "cards per hand", minimum=1, maximum=6),
        "dealer": Option("int", -1, "dealer seat (-1: the last)", minimum=-1, maximum=3, internal=True),
    }

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        o = open_table(self, seats, options)
        hands, _rest = deal_hands(shuffled(DECK, rng), seats, o.options["hand"])
        return [event("dealt", None, seats=seats, options=o.options, first=o.first, hands=hands)]

    def _play(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: Timing | None) -> None:
        state = tx.state
        if seat != state["turn"]:
            raise RuleError("not_your_turn", "it is not your turn")
        if action.get("card") not in state["hands"][seat]:
            raise RuleError("not_held", "you do not hold that card")
        state = tx.emit(event("played", seat, card=action["card"]))
        if not any(state["hands"]):
            totals = state["totals"]
            order = sorted(set(totals), reverse=True)
            placements = [{"seat": s, "place": order.index(t) + 1, "score": t} for s, t in enumerate(totals)]
            tx.emit(event("finished", None, outcome={"placements": placements, "winners": [p["seat"] for p in placements if p["place"] == 1]}))

    def _timer(self, tx: Tx, seat: None, action: Action, now_ms: int, rng: random.Random, timing: None) -> None:
        """Tally sets no timer; a stray one changes nothing."""

    def _fold_dealt(self, state: State, e: Event) -> State:
        d = e["data"]
        return {"seats": d["seats"], "options": d["options"], "hands": d["hands"], "turn": d["first"], "centre": [], "totals": [0] * d["seats"], "finished": False, "outcome": None}

    def _fold_played(self, state: State, e: Event) -> State:
        seat, c = e["seat"], e["data"]["card"]
        hands = [[x for x in h if x != c] if s == seat else h for s, h in enumerate(state["hands"])]
        totals = [t + c if s == seat else t for s, t in enumerate(state["totals"])]
        return {**state, "hands": hands, "totals": totals, "centre": [*state["centre"], c], "turn": (seat + 1) % state["seats"]}

    def _fold_finished(self, state: State, e: Event) -> State:
        return {**state, "finished": True, "outcome": e["data"]["outcome"]}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["finished"]
        mine = seat is not None and 0 <= seat < state["seats"]
        return {
            "turn": state["turn"],
            "hand": list(state["hands"][seat]) if mine else None,
            "counts": [len(h) for h in state["hands"]],
            "centre": list(state["centre"]),
            "totals": list(state["totals"]),
            "hands": [list(h) for h in state["hands"]] if over else None,
            "finished": over,
            "outcome": state["outcome"],
            "legal": self.legal_actions(state, seat),
        }

    def view_all(self, state: State) -> dict[str, Any]:
        return {**self.view(state, None), "hands": [list(h) for h in state["hands"]]}

    def redact(self, e: Event, seat: int | None) -> Event | None:
        if e["kind"] != "dealt":
            return e
        hands = e["data"]["hands"]
        return {**e, "data": {**e["data"], "hands": [h if s == seat else len(h) for s, h in enumerate(hands)]}}

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        if state is None or state["finished"] or seat is None or seat != state["turn"]:
            return []
        return [{"kind": "play", "card": c} for c in state["hands"][seat]]

    moves = {"play": _play, TIMER: _timer}


RULES = TallyRules()
