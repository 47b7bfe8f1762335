"""A small test-only game that exercises every platform path the real games use.

Hidden hands (secrecy), a face-up centre, a punished mistake (`slap` on an odd
top card costs a card), a turn timer, and an end with placements. Pure, like
any rules module.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import BotContext, BotMove, Event, Option, RuleError, event, resolve_options, timer_event
from games.kit.resignation import RESIGN, RESIGNED, fold_resigned, place_resigned
from tests.support.simulate import Harness


def card(cid: int) -> dict[str, Any]:
    return {"id": cid, "face": "number", "value": cid % 10}


class TinyRules:
    """Its own decide on purpose (not engine.GameRules): the platform must serve any object keeping the Rules protocol."""

    slug = "tiny"
    races: frozenset[str] = frozenset()
    name = "Tiny"
    min_seats = 2
    max_seats = 4
    teams = False
    options = {
        "hand": Option("int", 3, "cards per hand", minimum=1, maximum=8),
        "turn_seconds": Option("int", 30, "turn timer", minimum=1, maximum=600),
        "dealer": Option("int", -1, "dealer seat", minimum=-1, maximum=5, internal=True),
    }

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        opts = resolve_options(self.options, options, seats)
        ids = list(range(1, seats * opts["hand"] + 1))
        rng.shuffle(ids)
        n = opts["hand"]
        hands = [[card(c) for c in ids[s * n:(s + 1) * n]] for s in range(seats)]
        first = (opts["dealer"] + 1) % seats if opts["dealer"] >= 0 else 0
        return [
            event("dealt", None, hands=hands, options=opts, first=first),
            timer_event("turn-1", opts["turn_seconds"] * 1000),
        ]

    def fold(self, state: Any, e: Event) -> Any:
        kind, d = e["kind"], e["data"]
        if kind == "dealt":
            return {"hands": d["hands"], "centre": [], "turn": d["first"], "turn_no": 1, "options": d["options"], "timer": None, "over": None}
        s = dict(state)
        if kind == "timer":
            s["timer"] = d["id"]
        elif kind == "played":
            hands = list(s["hands"])
            hands[e["seat"]] = [c for c in hands[e["seat"]] if c["id"] != d["card"]["id"]]
            s["hands"] = hands
            s["centre"] = [*s["centre"], d["card"]]
            s["turn"] = (e["seat"] + 1) % len(hands)
            s["turn_no"] += 1
        elif kind == "slapped_wrong":
            hands = list(s["hands"])
            hands[e["seat"]] = hands[e["seat"]][1:]
            s["hands"] = hands
            s["centre"] = [d["card"], *s["centre"]]
        elif kind == "finished":
            s["over"] = d["outcome"]
        elif kind == RESIGNED:  # the platform's leaving, kept with the kit's helpers (games/kit/resignation.py)
            s = fold_resigned(s, e["seat"])
        if s["over"] is not None and s.get("resigned"):
            s["over"] = place_resigned(s["over"], s["resigned"], len(s["hands"]))
        return s

    def decide(
        self, state: Any, seat: int | None, action: dict[str, Any], now_ms: int, rng: random.Random, *, timing: Any = None
    ) -> list[Event]:
        if state["over"] is not None:
            raise RuleError("match_over", "the match is over")
        if isinstance(now_ms, bool) or not isinstance(now_ms, int):
            raise RuleError("bad_action", "now_ms must be a whole number")
        kind = action.get("kind")
        if kind == RESIGN and seat is None and action.get("seat") in range(len(state["hands"])):
            if action["seat"] in state.get("resigned", []):
                raise RuleError("resigned", "this seat has resigned already")
            return [event(RESIGNED, action["seat"])]
        if kind == "timer":
            if seat is not None:
                raise RuleError("bad_action", "only the system fires timers")
            if action.get("id") != state["timer"]:
                return []
            hand = state["hands"][state["turn"]]
            return self._play(state, state["turn"], hand[0], now_ms)
        if seat is None:
            raise RuleError("bad_action", "the system only fires timers")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state["hands"]):
            raise RuleError("bad_action", "no such seat")
        if kind == "play":
            cid = action.get("card")
            if isinstance(cid, bool) or not isinstance(cid, int):
                raise RuleError("bad_action", "card must be a card id")
            if seat != state["turn"]:
                raise RuleError("not_your_turn", "it is not your turn")
            found = [c for c in state["hands"][seat] if c["id"] == cid]
            if not found:
                raise RuleError("no_card", "you do not hold that card")
            return self._play(state, seat, found[0], now_ms)
        if kind == "slap":
            top = state["centre"][-1] if state["centre"] else None
            if top is not None and top["value"] % 2 == 0:
                return [event("slapped", seat)]
            if not state["hands"][seat]:
                return [event("slapped", seat)]
            return [event("slapped_wrong", seat, card=state["hands"][seat][0])] + self._maybe_end(state, seat, 1)
        raise RuleError("unknown_action", f"unknown action {kind!r}")

    def _play(self, state: Any, seat: int, c: dict[str, Any], now_ms: int) -> list[Event]:
        out = [event("played", seat, card=c)]
        end = self._maybe_end(state, seat, 1)
        if end:
            return out + end
        n = state["turn_no"] + 1
        return out + [timer_event(f"turn-{n}", now_ms + state["options"]["turn_seconds"] * 1000)]

    def _maybe_end(self, state: Any, seat: int, loses: int) -> list[Event]:
        counts = [len(h) - (loses if s == seat else 0) for s, h in enumerate(state["hands"])]
        if min(counts) > 0:
            return []
        order = sorted(set(counts))
        placements = [{"seat": s, "place": order.index(c) + 1, "score": c} for s, c in enumerate(counts)]
        return [event("finished", None, outcome={"placements": placements, "winners": [p["seat"] for p in placements if p["place"] == 1]})]

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        over = state["over"] is not None
        return {
            "turn": state["turn"],
            "hand": state["hands"][seat] if seat is not None else None,
            "counts": [len(h) for h in state["hands"]],
            "centre": state["centre"][-3:],
            "revealed": state["hands"] if over else None,
            "options": state["options"],
            "outcome": state["over"],
            "finished": over,
            "legal": self.legal_actions(state, seat),
        }

    def redact(self, e: Event, seat: int | None) -> Event | None:
        if e["kind"] == "dealt":
            hands = e["data"]["hands"]
            return dict(e, data=dict(e["data"], hands=[h if s == seat else len(h) for s, h in enumerate(hands)]))
        if e["kind"] == "slapped_wrong":
            return e  # the forfeited card goes face up to the centre
        return e

    def outcome(self, state: Any) -> dict[str, Any] | None:
        return state["over"]

    def legal_actions(self, state: Any, seat: int | None) -> list[dict[str, Any]]:
        """A slap by anyone (a wrong one is a punished mistake); the turn holder's play of any card in hand."""
        if state is None or state["over"] is not None or seat is None:
            return []
        plays = [{"kind": "play", "card": c["id"]} for c in state["hands"][seat]] if seat == state["turn"] else []
        return [{"kind": "slap"}, *plays]

    def view_all(self, state: Any) -> dict[str, Any]:
        return dict(self.view(state, None), revealed=state["hands"])


RULES = TinyRules()


class TinyBot:
    def choose(self, ctx: BotContext, rng: random.Random) -> BotMove | None:
        view = ctx.view
        if view["finished"] or view["turn"] != ctx.seat or not view["hand"]:
            return None
        last_t = ctx.history[-1]["t_ms"] if ctx.history else 0
        return BotMove(at_ms=last_t + 200, action={"kind": "play", "card": view["hand"][0]["id"]})


BOT = TinyBot()


def _may_see(before: Any, after: Any, e: Event, seat: int | None) -> set[int]:
    seen = {c["id"] for c in after["centre"]}
    if seat is not None:
        seen |= {c["id"] for c in after["hands"][seat]}
    if e["kind"] in ("played", "slapped_wrong"):
        seen.add(e["data"]["card"]["id"])
    if after["over"] is not None:
        seen |= {c["id"] for h in after["hands"] for c in h}
    return seen


HARNESS = Harness(
    rules=RULES,
    card_ids=lambda s: [c["id"] for h in s["hands"] for c in h] + [c["id"] for c in s["centre"]],
    may_see=_may_see,
)
