"""A test-only race game: the platform side of Fair races without depending on a real game.

`show` opens a race (any seat, not a race itself); `grab` is the race action
(`races = {"grab"}`), judged with the `Timing` the platform passes, through
the engine's race helpers exactly as the real games use them: `race_claimed`
at once, `race_settled` when no seat could still be faster (at once, or by
the `race:<id>` timer, or lazily by the next action). Each event says whether
decide was given a Timing, so a test can tell what the platform passed.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import (
    Event,
    Option,
    RuleError,
    Timing,
    event,
    race_claim_record,
    race_open,
    race_ranking,
    race_settle_at,
    race_with_claim,
    resolve_options,
    timer_event,
    timing_at,
)


class RaceRules:
    slug = "racey"
    name = "Racey"
    min_seats = 2
    max_seats = 4
    teams = False
    races = frozenset({"grab"})
    options = {"rounds": Option("int", 50, "races to play", minimum=1, maximum=500)}

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        return [event("dealt", None, seats=seats, options=resolve_options(self.options, options, seats))]

    def fold(self, state: Any, e: Event) -> Any:
        kind, d = e["kind"], e["data"]
        if kind == "dealt":
            return {"seats": d["seats"], "options": d["options"], "race": None, "round": 0, "wins": [0] * d["seats"], "over": None}
        s = dict(state)
        if kind == "shown":
            s["race"], s["round"] = d["race"], s["round"] + 1
        elif kind == "race_claimed":
            s["race"] = race_with_claim(s["race"], d["claim"], d["comp_ms"])
        elif kind == "race_settled":
            s["race"] = None
            if d["winner"] is not None:
                s["wins"] = [w + (1 if i == d["winner"] else 0) for i, w in enumerate(s["wins"])]
        elif kind == "finished":
            s["over"] = d["outcome"]
        return s

    def decide(
        self, state: Any, seat: int | None, action: dict[str, Any], now_ms: int, rng: random.Random, *, timing: Timing | None = None
    ) -> list[Event]:
        if state["over"] is not None:
            raise RuleError("match_over", "the match is over")
        kind = action.get("kind")
        out = self._lazy(state, now_ms)
        st = state
        for e in out:
            st = self.fold(st, e)
        if kind == "timer":
            race = st["race"]
            if race is None or action.get("id") != f"race:{race['id']}" or now_ms < race_settle_at(race):
                return out
            return out + self._settle(st)
        if seat is None:
            raise RuleError("bad_action", "the system only fires timers")
        if kind == "show":
            if st["race"] is not None:
                raise RuleError("race_pending", "a race is on")
            race_id = f"grab-{st['round'] + 1}"
            return out + [event("shown", seat, race=race_open(race_id, now_ms, list(range(st["seats"]))), timing_given=timing is not None)]
        if kind == "grab":
            race = st["race"]
            if race is None or any(c["seat"] == seat for c in race["claims"]):
                return out + [event("grabbed_late", seat, timing_given=timing is not None)]
            t = timing or timing_at(now_ms, st["seats"])
            claim = race_claim_record(race, seat, t)
            claimed = [event("race_claimed", seat, race=race["id"], claim=claim, comp_ms=list(t.comp_ms))]
            race = race_with_claim(race, claim, t.comp_ms)
            due = race_settle_at(race)
            if due <= now_ms:
                return out + claimed + self._settle({**st, "race": race})
            return out + claimed + [timer_event(f"race:{race['id']}", due)]
        raise RuleError("unknown_action", f"unknown action {kind!r}")

    def _lazy(self, state: Any, now_ms: int) -> list[Event]:
        race = state["race"]
        if race is not None and race["claims"] and now_ms >= race_settle_at(race):
            return self._settle(state)
        return []

    def _settle(self, state: Any) -> list[Event]:
        race = state["race"]
        ranking = race_ranking(race)
        winner = ranking[0]["seat"] if ranking else None
        out = [event("race_settled", None, race=race["id"], ranking=ranking, winner=winner)]
        if state["round"] >= state["options"]["rounds"]:
            wins = list(state["wins"])
            if winner is not None:
                wins[winner] += 1
            best = max(wins)
            placements = [{"seat": s, "place": 1 if w == best else 2, "score": w} for s, w in enumerate(wins)]
            out.append(event("finished", None, outcome={"placements": placements, "winners": [p["seat"] for p in placements if p["place"] == 1]}))
        return out

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {"race": state["race"], "round": state["round"], "wins": state["wins"], "finished": state["over"] is not None, "outcome": state["over"]}

    def redact(self, e: Event, seat: int | None) -> Event | None:
        return e

    def outcome(self, state: Any) -> dict[str, Any] | None:
        return state["over"]


RULES = RaceRules()
