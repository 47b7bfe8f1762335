"""The core of random play and bot matches, through the public rules API only.

Used by `python -m tools.bench`, the replay/statistics benchmark commands and
(through `tests/support/simulate.py`, which adds the secrecy and conservation
checks a game's harness knows how to state) the random-play tests. No Django
here, nothing from tests/: a game can be played millions of times without a
database.

Random play draws every action from `rules.legal_actions(state, seat)` — one
kind at random, then one action of that kind, so a rare move (a smack among
many flips) occurs as often as a common one; or a game's `choose` picks among
the listed actions on purpose (it may read the true state, as a random driver
may; the driver refuses a pick that is not listed) — and, with a small probability,
an action the driver spoils itself (a wrong kind, a bad seat, a field of the
wrong type, a malformed race Timing) which the rules must refuse with a
RuleError, changing nothing.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from games.engine import TIMER, Action, Bot, BotContext, Event, RuleError, Rules, State, Timing, fold_all, is_int
from live import wire

STEPS_MS = (0, 1, 5, 20, 50, 150, 400, 1200)  # how far the clock moves between two random actions
LINES_MS = (0, 0, 5, 40, 80, 150, 200, 320)  # round trips a table may see (bots are 0; 320 is beyond the cap)
MALFORMED = 0.03  # share of random actions the driver spoils on purpose

Choose = Callable[[State, int, list[Action], random.Random], Action | None]
"""A game's purposeful pick among a seat's listed actions (the true state in hand); None = the seat waits."""


class InvariantError(AssertionError):
    """Random play found a state, log or answer the rules contract forbids."""


def json_round_trip(value: Any) -> Any:
    """`value` as the platform stores and sends it and reads it back (`live.wire.dumps`, orjson).

    The same encoder as the wire, so what survives here survives a socket and a row; and fast enough
    to copy every state before every step of a soak (it replaced `copy.deepcopy`, a fifth of the
    secrecy soak's time: states are pure JSON, which `Checks` asserts at every step).
    """
    return orjson.loads(wire.dumps(value))


# --- timings ---------------------------------------------------------------------


class RandomLines:
    """Platform-like `Timing`s: every seat on a line of its own, its round trip wobbling claim to claim.

    A seat's line is a bot or a near player (no compensation) or a far one (up
    to the cap); judged time is the arrival minus the sender's compensation,
    never later than the arrival, never more than the cap before it.
    """

    def __init__(self, seed: int, cap_ms: int = 200) -> None:
        self._rng = random.Random(seed)
        self.cap_ms = cap_ms
        self._lines: list[int] | None = None

    def timing(self, seats: int, seat: Any, now_ms: Any) -> Timing | None:
        """What the platform would compute: comp per seat = min(measured rtt, cap), judged = arrival - own comp.

        None (untimed) for a call no platform would time — a seat or clock that
        is not a whole number in range — so a driver's malformed call reaches
        the rules as it was made, to be refused there.
        """
        if not (is_int(seat) and is_int(now_ms) and is_int(seats) and 0 <= seat < seats):
            return None
        if self._lines is None or len(self._lines) != seats:
            self._lines = [self._rng.choice(LINES_MS) for _ in range(seats)]
        comp = [max(0, min(rtt + self._rng.randint(-10, 10), self.cap_ms)) if rtt else 0 for rtt in self._lines]
        return Timing(arrival_ms=now_ms, judged_ms=now_ms - comp[seat], comp_ms=tuple(comp))


# --- drawing actions -------------------------------------------------------------


def pick_legal(legal: list[Action], rng: random.Random, kind_weights: dict[str, float] | None = None) -> Action | None:
    """One kind at random (weighted if the game asks), then one action of that kind."""
    picked = pick_weighted([(None, a) for a in legal], rng, kind_weights)
    return None if picked is None else picked[1]


def pick_weighted(
    choices: list[tuple[Any, Action]], rng: random.Random, kind_weights: dict[str, float] | None = None
) -> tuple[Any, Action] | None:
    """One (seat, action): a kind at random (weighted if the game asks), then one choice of that kind."""
    if not choices:
        return None
    by_kind: dict[str, list[tuple[Any, Action]]] = {}
    for c in choices:
        by_kind.setdefault(c[1]["kind"], []).append(c)
    kinds = sorted(by_kind)
    weights = [(kind_weights or {}).get(k, 1.0) for k in kinds]
    return rng.choice(by_kind[rng.choices(kinds, weights)[0]])


def draw_action(
    state: State,
    seat: int,
    legal: list[Action],
    rng: random.Random,
    *,
    choose: Choose | None = None,
    kind_weights: dict[str, float] | None = None,
) -> Action | None:
    """The game's `choose` among `legal` if it has one (checked to be listed), else a kind-weighted draw."""
    if choose is None:
        return pick_legal(legal, rng, kind_weights)
    action = choose(state, seat, legal, rng)
    if action is not None and action not in legal:
        raise InvariantError(f"the harness chose an unlisted action {action!r} for seat {seat}")
    return action


def draw_move(
    rules: Rules,
    state: State,
    seats: int,
    rng: random.Random,
    *,
    choose: Choose | None = None,
    kind_weights: dict[str, float] | None = None,
    by_table: bool = False,
    seat: int | None = None,
) -> tuple[int, Action | None]:
    """(seat, action) of one random step: a random seat's draw, or with `by_table` one drawn across the table.

    `by_table` draws the kind among every seat's candidates — their listed
    actions, or each seat's `choose` pick when the game has one — then a seat
    and action of that kind: for games where most seats can only make one
    kind of move most of the time (anyone may smack, one seat flips).
    """
    seat = rng.randrange(seats) if seat is None else seat
    if not by_table:
        return seat, draw_action(state, seat, rules.legal_actions(state, seat), rng, choose=choose, kind_weights=kind_weights)
    table: list[tuple[int, Action]] = []
    for s in range(seats):
        legal = rules.legal_actions(state, s)
        if choose is None:
            table.extend((s, a) for a in legal)
        else:
            picked = draw_action(state, s, legal, rng, choose=choose)
            if picked is not None:
                table.append((s, picked))
    return pick_weighted(table, rng, kind_weights) or (seat, None)


def spoil(action: Action, rng: random.Random) -> Action | None:
    """A listed action with one field (not the kind) given a value of the wrong JSON type; None if it has none."""
    fields = sorted(k for k in action if k != "kind")
    if not fields:
        return None
    name = rng.choice(fields)
    value = action[name]
    if isinstance(value, bool):
        wrong: list[Any] = ["yes", [], {}]
    elif isinstance(value, int):
        wrong = [str(value), 1.5, True, [value], {}]
    elif isinstance(value, str):
        wrong = [7, True, [value], {}]
    elif value is None:
        wrong = ["x", 1.5, [], {}]
    else:
        wrong = ["x", 1.5, True]
    return {**action, name: rng.choice(wrong)}


def malformed_action(rules: Rules, state: State, seat: int, rng: random.Random) -> Action | Any:
    """An action no rules may accept from a real seat: not an object, no or wrong kind, a timer, a spoiled field."""
    legal = rules.legal_actions(state, seat)
    r = rng.random()
    if r < 0.45 and legal:
        spoilt = spoil(rng.choice(legal), rng)
        if spoilt is not None:
            return spoilt
    return rng.choice(
        [
            None,
            "flip",
            [],
            {},
            {"kind": 7},
            {"kind": None},
            {"kind": "no_such_move"},
            {"kind": TIMER, "id": "x"},  # only the system fires timers
        ]
    )


def random_action(
    rules: Rules,
    state: State,
    seat: int,
    rng: random.Random,
    *,
    malformed: float = MALFORMED,
    choose: Choose | None = None,
    kind_weights: dict[str, float] | None = None,
) -> Action | Any:
    """For drivers that submit through the platform: a legal action, sometimes a malformed one; None if none."""
    if rng.random() < malformed:
        return malformed_action(rules, state, seat, rng)
    return draw_action(state, seat, rules.legal_actions(state, seat), rng, choose=choose, kind_weights=kind_weights)


# --- random play ---------------------------------------------------------------


class Checks:
    """What random play asserts after every step; this base checks what needs no knowledge of a game.

    `tests/support/simulate.py` extends it with conservation and secrecy, which
    a game's harness states. The benchmark plays with no checks at all.
    """

    def __init__(self, rules: Rules, seats: int) -> None:
        self.rules = rules
        self.seats = seats

    def setup(self, state: State, log: list[Event]) -> None:
        if log[0]["kind"] != "dealt":
            raise InvariantError("the first setup event must be `dealt`")
        if json_round_trip(state) != state:
            raise InvariantError("state does not survive a JSON round trip")

    def step(self, prev: State, state: State, e: Event) -> None:
        if json_round_trip(state) != state:
            raise InvariantError(f"state does not survive JSON after {e['kind']}")

    def decided(self, state: State, now_ms: int) -> None:
        """The state at rest after one accepted action (every event of it folded); for checks of whole decisions."""

    def refused(self, before: State, state: State, action: Any) -> None:
        if state != before:
            raise InvariantError(f"decide changed state while refusing {action!r}")

    def end(self, state: State, log: list[Event]) -> None:
        if json_round_trip(log) != log:
            raise InvariantError("the log does not survive JSON")
        if fold_all(self.rules, json_round_trip(log)) != state:
            raise InvariantError("fold of the stored log differs from the live state")


@dataclass
class RandomPlayReport:
    actions: int = 0
    rule_errors: int = 0
    malformed: int = 0  # actions the driver spoiled on purpose (each one refused)
    timings: int = 0  # race actions decided with a random platform-like Timing
    events: int = 0
    finished: bool = False
    log: list[Event] = field(default_factory=list)


def collect_timers(events: list[Event], timers: list[tuple[int, str]]) -> None:
    """Push the timers these events ask for onto a heap of (due_ms, id)."""
    for e in events:
        if e["kind"] == "timer":
            heapq.heappush(timers, (e["data"]["due_ms"], e["data"]["id"]))


def _bad_timing(seats: int, now_ms: int, rng: random.Random) -> Any:
    """A Timing no platform computes: judged after arrival, a seat short, a negative compensation, not a Timing."""
    return rng.choice(
        [
            Timing(arrival_ms=now_ms, judged_ms=now_ms + 1, comp_ms=(0,) * seats),
            Timing(arrival_ms=now_ms, judged_ms=now_ms, comp_ms=(0,) * (seats - 1)),
            Timing(arrival_ms=now_ms, judged_ms=now_ms, comp_ms=(-1,) * seats),
            {"arrival_ms": now_ms},
        ]
    )


def play_random(
    rules: Rules,
    seats: int,
    seed: int,
    *,
    max_actions: int = 400,
    options: dict[str, Any] | None = None,
    checks: Checks | None = None,
    malformed: float = MALFORMED,
    timings: RandomLines | None = None,
    kind_weights: dict[str, float] | None = None,
    by_table: bool = False,
    choose: Choose | None = None,
) -> RandomPlayReport:
    """Play one random match; `checks` (if any) asserts every invariant after every step.

    A spoiled action (probability `malformed`) must raise RuleError; with
    `timings`, race actions get a random platform-like Timing (and now and
    then a malformed one, also refused). Actions come from `draw_move`
    (`choose`, `kind_weights`, `by_table`: see there).
    """
    rng = random.Random(seed)
    log = [dict(e, seq=i + 1, t_ms=0) for i, e in enumerate(rules.setup(seats, options or {}, rng))]
    state = fold_all(rules, log)
    timers: list[tuple[int, str]] = []
    collect_timers(log, timers)
    now = 0
    report = RandomPlayReport(log=log)
    if checks:
        checks.setup(state, log)
    for _ in range(max_actions):
        if rules.outcome(state) is not None:
            break
        now += rng.choice(STEPS_MS)
        seat: Any
        action: Any
        timing: Any = None
        now_ms: Any = now
        spoilt = False
        if timers and (timers[0][0] <= now or rng.random() < 0.05):
            due, timer_id = heapq.heappop(timers)
            now = now_ms = max(now, due)
            seat, action = None, {"kind": TIMER, "id": timer_id}
        else:
            seat = rng.randrange(seats)
            if rng.random() < malformed:
                spoilt = True
                seat, action, now_ms, timing = _malformed_call(rules, state, seats, seat, rules.legal_actions(state, seat), now, rng)
            else:
                seat, action = draw_move(
                    rules, state, seats, rng, choose=choose, kind_weights=kind_weights, by_table=by_table, seat=seat
                )
            if action is None and not spoilt:
                continue
            if timings is not None and not spoilt and isinstance(action, dict) and isinstance(action.get("kind"), str) and action["kind"] in rules.races:
                timing = timings.timing(seats, seat, now)
                report.timings += timing is not None
        report.actions += 1
        before = json_round_trip(state) if checks else state
        try:
            new_events = rules.decide(state, seat, action, now_ms, rng, timing=timing)
        except RuleError:
            report.rule_errors += 1
            report.malformed += spoilt
            if checks:
                checks.refused(before, state, action)
            continue
        if spoilt and checks:
            raise InvariantError(f"the rules accepted a malformed call: seat {seat!r}, {action!r}, now {now_ms!r}, {timing!r}")
        for e in new_events:
            e = dict(e, seq=len(log) + 1, t_ms=now)
            prev = state
            state = rules.fold(state, e)
            log.append(e)
            report.events += 1
            if checks:
                checks.step(prev, state, e)
        if checks:
            checks.decided(state, now)
        collect_timers(new_events, timers)
    report.finished = rules.outcome(state) is not None
    if checks:
        checks.end(state, log)
    return report


def _malformed_call(
    rules: Rules, state: State, seats: int, seat: int, legal: list[Action], now: int, rng: random.Random
) -> tuple[Any, Any, Any, Any]:
    """(seat, action, now_ms, timing) with exactly one thing wrong, drawn from every way a call can be wrong."""
    good = pick_legal(legal, rng) or {"kind": "no_such_move"}
    r = rng.random()
    if r < 0.2:  # a seat that does not exist, or the system acting as a player
        return rng.choice([-1, rules.max_seats + 1, "0", True, 1.0, None]), good, now, None
    if r < 0.3:  # a clock that is not a whole number
        return seat, good, rng.choice([str(now), float(now) + 0.5, None, True]), None
    if r < 0.4 and good["kind"] in rules.races:
        return seat, good, now, _bad_timing(seats, now, rng)
    return seat, malformed_action(rules, state, seat, rng), now, None


# --- bot matches -------------------------------------------------------------


@dataclass
class BotMatchReport:
    actions: int
    events: int
    duration_ms: int
    outcome: dict[str, Any] | None
    rule_errors: int
    log: list[Event]


def redacted_history(rules: Rules, log: list[Event], seat: int | None) -> list[Event]:
    """A seat's own event stream, as the platform would have sent it."""
    out = []
    for e in log:
        r = rules.redact(e, seat)
        out.append({"seq": e["seq"], "t_ms": e["t_ms"]} if r is None else dict(r, seq=e["seq"], t_ms=e["t_ms"]))
    return out


def play_bots(
    rules: Rules,
    bot: Bot,
    levels: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    max_actions: int = 20_000,
    max_ms: int = 3 * 60 * 60 * 1000,
) -> BotMatchReport:
    """A discrete-event simulation of a table of bots, timed as the platform times them.

    After every commit each bot re-plans from its own view and history; the
    earliest planned move (or due timer) happens next, exactly like the Celery
    tasks that re-check `seq` before acting.
    """
    rng = random.Random(seed)
    seats = len(levels)
    log = [dict(e, seq=i + 1, t_ms=0) for i, e in enumerate(rules.setup(seats, options or {}, rng))]
    state = fold_all(rules, log)
    histories = [redacted_history(rules, log, s) for s in range(seats)]
    timers: list[tuple[int, str]] = []
    collect_timers(log, timers)
    now = 0
    actions = errors = 0
    while rules.outcome(state) is None and actions < max_actions and now < max_ms:
        plans: list[tuple[int, int, Action]] = []
        for s in range(seats):
            ctx = BotContext(seat=s, level=levels[s], view=rules.view(state, s), history=histories[s], now_ms=now)
            move = bot.choose(ctx, rng)
            if move is not None:
                plans.append((max(move.at_ms, now), s, move.action))
        seat: int | None
        if timers and (not plans or timers[0][0] <= min(p[0] for p in plans)):
            due, timer_id = heapq.heappop(timers)
            now, seat, action = max(now, due), None, {"kind": TIMER, "id": timer_id}
        elif plans:
            at, seat, action = min(plans, key=lambda p: (p[0], p[1]))
            now = at
        else:
            break
        actions += 1
        try:
            new_events = rules.decide(state, seat, action, now, rng)
        except RuleError:
            errors += 1
            now += 50  # a refused bot waits a moment, like a person would
            continue
        for e in new_events:
            e = dict(e, seq=len(log) + 1, t_ms=now)
            state = rules.fold(state, e)
            log.append(e)
            for s in range(seats):
                r = rules.redact(e, s)
                histories[s].append({"seq": e["seq"], "t_ms": now} if r is None else dict(r, seq=e["seq"], t_ms=now))
        collect_timers(new_events, timers)
    return BotMatchReport(
        actions=actions,
        events=len(log),
        duration_ms=now,
        outcome=rules.outcome(state),
        rule_errors=errors,
        log=log,
    )
