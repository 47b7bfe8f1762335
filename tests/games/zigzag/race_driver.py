"""Random ZIGZAG matches with random round trips: the generic random play with a `Timing` per take.

The generic driver (tools/sim.py via tests/support/simulate.py) picks from
`legal_actions` with the harness's `choose` and, with `timings`, gives every seat a platform-like round
trip (bots and near players uncompensated, others up to the 200 ms cap, each
claim jittered), so claims meet in open races and windows close by timer and
lazily. Every invariant of random play is checked after every event (cards
conserved, JSON, secrecy against `may_see`, fold of the stored log).

`RaceChecks` adds the race invariants: an open race's card lies in the
centre, a seat claims in one race at a time, no claim is compensated beyond
the cap or judged before its card came, a settlement names the fastest judged
claim of the race as it stood, and the winner's move follows it at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import Event, State
from games.kit.races import ranking as race_ranking
from tests.games.zigzag.harness import HARNESS
from tests.support.simulate import HarnessChecks, InvariantError, play_random

CAP_MS = 200
MOVE_OF = {"exchange": "exchanged", "stop": "stopped", "z": "z_played"}


@dataclass
class TimedReport:
    actions: int = 0
    finished: bool = False
    pending: int = 0  # claims whose race had to wait
    settled: int = 0
    contested: int = 0  # settlements between two or more claims
    log: list[dict[str, Any]] = field(default_factory=list)


class RaceChecks(HarnessChecks):
    """The harness's checks, then the race invariants after every event (see the module docstring)."""

    def __init__(self, seats: int, report: TimedReport) -> None:
        super().__init__(HARNESS, seats)
        self.report = report
        self.claimed = False  # the previous event was a claim (is a timer armed for it?)
        self.winner_move: tuple[str, int, int] | None = None  # (kind, seat, card) the next event must be

    def step(self, prev: State, state: State, e: Event) -> None:
        super().step(prev, state, e)
        kind, d = e["kind"], e["data"]
        if self.claimed and kind == "timer":
            self.report.pending += 1
        self.claimed = False
        if self.winner_move is not None:
            if (kind, e["seat"], d.get("take", {}).get("id")) != self.winner_move:
                raise InvariantError(f"the winner's move {self.winner_move} does not follow its settlement: {e}")
            self.winner_move = None
        races = state["races"]
        claimants = [c["seat"] for r in races for c in r["claims"]]
        if len(claimants) != len(set(claimants)):
            raise InvariantError(f"a seat claims in two races at once after {kind}")
        for r in races:
            if r["take"] not in state["centre"]:
                raise InvariantError(f"race {r['id']} is open for a card not in the centre")
        if kind == "race_claimed":
            c = d["claim"]
            if not 0 <= c["arrival_ms"] - c["judged_ms"] <= CAP_MS:
                raise InvariantError(f"a claim compensated beyond the cap: {c}")
            if c["judged_ms"] < d["opened_ms"]:
                raise InvariantError(f"a claim judged before its card came to the centre: {c}")
            self.claimed = True
        elif kind == "race_settled":
            race = next(r for r in prev["races"] if r["id"] == d["race"])
            ranking = race_ranking(race)
            if d["ranking"] != ranking or d["winner"] != ranking[0]["seat"]:
                raise InvariantError(f"race {d['race']} settled for {d['winner']}, its fastest judged claim is {ranking[0]}")
            move = race["moves"][str(d["winner"])]
            self.winner_move = (MOVE_OF[move["kind"]], d["winner"], race["take"])
            self.report.settled += 1
            self.report.contested += len(ranking) > 1


def play_random_timed(seats: int, seed: int, max_actions: int = 900) -> TimedReport:
    """One random match with random round trips, every invariant and the race invariants checked."""
    report = TimedReport()
    played = play_random(HARNESS, seats, seed, max_actions=max_actions, checks=RaceChecks(seats, report), timings=True)
    report.actions, report.finished, report.log = played.actions, played.finished, played.log
    return report
