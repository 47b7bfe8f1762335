"""A test-only race game: the platform side of Fair races without depending on a real game.

`show` opens a race (any seat, not a race itself); `grab` is the race action
(`races = {"grab"}`), judged with the `Timing` the platform passes, through
the race helpers (`games.kit.races`) exactly as the real games use them: `race_claimed`
at once, `race_settled` when no seat could still be faster (at once, or by
the `race:<id>` timer, or lazily by the next action). Each event says whether
decide was given a Timing, so a test can tell what the platform passed.
On the shared game kit (`engine.GameRules`) like the real games.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import TIMER, Action, Event, GameRules, Option, RuleError, State, Timing, Tx, event, timer_event
from games.kit import races


class RaceRules(GameRules):
    slug = "racey"
    name = "Racey"
    min_seats = 2
    max_seats = 4
    teams = False
    races = frozenset({"grab"})
    options = {"rounds": Option("int", 50, "races to play", minimum=1, maximum=500)}

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        return [event("dealt", None, seats=seats, options=self.table_options(options, seats))]

    def decide(
        self, state: State, seat: int | None, action: Action, now_ms: int, rng: random.Random, *, timing: Timing | None = None
    ) -> list[Event]:
        """The kit's decide; overridden only to write into each event whether the platform passed a Timing.

        The kit drops a Timing given for a kind that is not a race; the tests
        want to see what the platform itself passed (`timing_given`).
        """
        events = super().decide(state, seat, action, now_ms, rng, timing=timing)
        return [dict(e, data={**e["data"], "timing_given": timing is not None}) if e["kind"] in ("shown", "grabbed_late") else e for e in events]

    def before_move(self, tx: Tx, seat: int | None, kind: str, now_ms: int, rng: random.Random) -> None:
        """A race whose window closed is settled lazily by the next action."""
        race = tx.state["race"]
        if race is not None and race["claims"] and now_ms >= races.settle_at(race):
            self._settle(tx)

    def _timer(self, tx: Tx, seat: int | None, action: Action, now_ms: int, rng: random.Random, timing: Timing | None) -> None:
        race = tx.state["race"]
        if race is not None and action["id"] == f"race:{race['id']}" and race["claims"] and now_ms >= races.settle_at(race):
            self._settle(tx)

    def _show(self, tx: Tx, seat: int | None, action: Action, now_ms: int, rng: random.Random, timing: Timing | None) -> None:
        st = tx.state
        if st["race"] is not None:
            raise RuleError("race_pending", "a race is on")
        tx.emit(event("shown", seat, race=races.open(f"grab-{st['round'] + 1}", now_ms, list(range(st["seats"])))))

    def _grab(self, tx: Tx, seat: int, action: Action, now_ms: int, rng: random.Random, timing: Timing) -> None:
        race = tx.state["race"]
        if race is None or any(c["seat"] == seat for c in race["claims"]):
            tx.emit(event("grabbed_late", seat))
            return
        claim = races.claim_record(race, seat, timing)
        tx.emit(event("race_claimed", seat, race=race["id"], claim=claim, comp_ms=list(timing.comp_ms)))
        due = races.settle_at(tx.state["race"])
        if due <= now_ms:
            self._settle(tx)
        else:
            tx.emit(timer_event(f"race:{race['id']}", due))

    def _settle(self, tx: Tx) -> None:
        state = tx.state
        ranking = races.ranking(state["race"])
        winner = ranking[0]["seat"] if ranking else None
        tx.emit(event("race_settled", None, race=state["race"]["id"], ranking=ranking, winner=winner))
        if state["round"] >= state["options"]["rounds"]:
            wins = tx.state["wins"]
            best = max(wins)
            placements = [{"seat": s, "place": 1 if w == best else 2, "score": w} for s, w in enumerate(wins)]
            tx.emit(event("finished", None, outcome={"placements": placements, "winners": [p["seat"] for p in placements if p["place"] == 1]}))

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        """A show while no race is on; a grab always (a late grab is a move too)."""
        if state is None or state["finished"] or seat is None:
            return []
        return ([{"kind": "show"}] if state["race"] is None else []) + [{"kind": "grab"}]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "race": state["race"],
            "round": state["round"],
            "wins": state["wins"],
            "finished": state["finished"],
            "outcome": state["outcome"],
            "legal": self.legal_actions(state, seat),
        }

    def view_all(self, state: State) -> dict[str, Any]:
        return self.view(state, None)

    def redact(self, e: Event, seat: int | None) -> Event | None:
        return e

    def _on_dealt(self, state: State, e: Event) -> State:
        d = e["data"]
        return {"seats": d["seats"], "options": d["options"], "race": None, "round": 0, "wins": [0] * d["seats"], "finished": False, "outcome": None}

    def _on_shown(self, state: State, e: Event) -> State:
        return {**state, "race": e["data"]["race"], "round": state["round"] + 1}

    def _on_race_claimed(self, state: State, e: Event) -> State:
        return {**state, "race": races.with_claim(state["race"], e["data"]["claim"], e["data"]["comp_ms"])}

    def _on_race_settled(self, state: State, e: Event) -> State:
        w = e["data"]["winner"]
        return {**state, "race": None, "wins": [n + (1 if i == w else 0) for i, n in enumerate(state["wins"])]}

    def _on_finished(self, state: State, e: Event) -> State:
        return {**state, "finished": True, "outcome": e["data"]["outcome"]}

    def _on_nothing(self, state: State, e: Event) -> State:
        return state

    moves = {"show": _show, "grab": _grab, TIMER: _timer}
    folds = {
        "dealt": _on_dealt,
        "shown": _on_shown,
        "race_claimed": _on_race_claimed,
        "race_settled": _on_race_settled,
        "finished": _on_finished,
        "timer": _on_nothing,
        "grabbed_late": _on_nothing,
    }


RULES = RaceRules()
