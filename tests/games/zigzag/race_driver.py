"""Random ZIGZAG matches with random round trips: games.testing's random play, with a `Timing` per take.

`games.testing.play_random` decides every action on arrival (no `timing`), so no race ever waits.
This driver is the same loop (same harness, same invariant checks after every event: cards
conserved, JSON, secrecy against `may_see`, fold of the stored log) but gives every seat a round
trip (0 to the 200 ms cap, some seats near the server, some far, each claim jittered) and passes
each take the `Timing` the platform would compute. Time moves in small steps as often as in large
ones, so claims meet in open races, windows close by timer and lazily.

On top, after every event, the race invariants: an open race's card lies in the centre, a seat
claims in one race at a time, no claim is compensated beyond the cap or judged before its card came,
a settlement names the fastest judged claim of the race as it stood, and the winner's move follows it.
"""

from __future__ import annotations

import copy
import heapq
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.engine import RuleError, Timing, fold_all, race_ranking
from games.testing import InvariantError, _check_setup, _check_step, _collect_timers, json_round_trip
from games.zigzag.harness import HARNESS
from games.zigzag.rules import RULES

CAP_MS = 200
MOVE_OF = {"exchange": "exchanged", "stop": "stopped", "z": "z_played"}


@dataclass
class TimedReport:
    actions: int = 0
    finished: bool = False
    pending: int = 0  # claims whose race had to wait
    settled: int = 0
    contested: int = 0  # settlements between two or more claims
    log: list[dict[str, Any]] | None = None


def play_random_timed(seats: int, seed: int, max_actions: int = 900) -> TimedReport:
    rng = random.Random(seed)
    options = HARNESS.random_options(seats, rng)
    log = [dict(e, seq=i + 1, t_ms=0) for i, e in enumerate(RULES.setup(seats, options, rng))]
    state = fold_all(RULES, log)
    cards = Counter(HARNESS.card_ids(state))
    _check_setup(HARNESS, state, log, seats)
    timers: list[tuple[int, str]] = []
    _collect_timers(log, timers)
    base = [rng.choice((0, 0, 20, 60, 120, 180, 260)) for _ in range(seats)]  # 260: a line beyond the cap
    report = TimedReport()
    now = 0
    for _ in range(max_actions):
        if state["finished"]:
            break
        now += rng.choice((0, 1, 5, 20, 40, 80, 150, 400, 1200))
        seat: int | None
        timing = None
        if timers and (timers[0][0] <= now or rng.random() < 0.05):
            due, tid = heapq.heappop(timers)
            now, seat, action = max(now, due), None, {"kind": "timer", "id": tid}
        else:
            seat = rng.randrange(seats)
            action = HARNESS.random_action(state, seat, now, rng)
            if action is None:
                continue
            if isinstance(action, dict) and action.get("kind") in RULES.races:
                comp = tuple(min(CAP_MS, max(0, b + rng.randint(-15, 15))) for b in base)
                timing = Timing(arrival_ms=now, judged_ms=now - comp[seat], comp_ms=comp)
        report.actions += 1
        before = copy.deepcopy(state)
        try:
            events = RULES.decide(state, seat, action, now, rng, timing=timing)
        except RuleError:
            if state != before:
                raise InvariantError(f"decide changed state while refusing {action!r}") from None
            continue
        for i, e in enumerate(events):
            e = dict(e, seq=len(log) + 1, t_ms=now)
            prev = state
            state = RULES.fold(state, e)
            log.append(e)
            _check_step(HARNESS, prev, state, e, seats, cards)
            _check_race(prev, state, e, events[i + 1] if i + 1 < len(events) else None, report)
        _collect_timers(events, timers)
    report.finished = bool(state["finished"])
    if fold_all(RULES, json_round_trip(log)) != state:
        raise InvariantError("fold of the stored log differs from the live state")
    report.log = log
    return report


def _check_race(prev: Any, state: Any, e: dict[str, Any], following: dict[str, Any] | None, report: TimedReport) -> None:
    races = state.get("races") or []
    claimants = [c["seat"] for r in races for c in r["claims"]]
    if len(claimants) != len(set(claimants)):
        raise InvariantError(f"a seat claims in two races at once after {e['kind']}")
    for r in races:
        if r["take"] not in state["centre"]:
            raise InvariantError(f"race {r['id']} is open for a card not in the centre")
    kind, d = e["kind"], e["data"]
    if kind == "race_claimed":
        c = d["claim"]
        if not 0 <= c["arrival_ms"] - c["judged_ms"] <= CAP_MS:
            raise InvariantError(f"a claim compensated beyond the cap: {c}")
        if c["judged_ms"] < d["opened_ms"]:
            raise InvariantError(f"a claim judged before its card came to the centre: {c}")
        if following is not None and following["kind"] == "timer":
            report.pending += 1
    elif kind == "race_settled":
        race = next(r for r in prev["races"] if r["id"] == d["race"])
        ranking = race_ranking(race)
        if d["ranking"] != ranking or d["winner"] != ranking[0]["seat"]:
            raise InvariantError(f"race {d['race']} settled for {d['winner']}, its fastest judged claim is {ranking[0]}")
        move = race["moves"][str(d["winner"])]
        if following is None or following["kind"] != MOVE_OF[move["kind"]] or following["seat"] != d["winner"]:
            raise InvariantError(f"race {d['race']}: the winner's move does not follow its settlement")
        if following["data"]["take"]["id"] != race["take"]:
            raise InvariantError(f"race {d['race']}: the winner took another card")
        report.settled += 1
        report.contested += len(ranking) > 1
