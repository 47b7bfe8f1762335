"""Pure drivers that play games through the public rules API.

Used by the random-play tests (OpenSpiel's `random_sim_test` idea), the bot
match tests and the benchmark commands. No Django here: a game can be
exercised millions of times without a database.

Every game registers a `Harness` in `games/<slug>/harness.py` as `HARNESS`.
"""

from __future__ import annotations

import copy
import heapq
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from games.engine import Action, Bot, BotContext, Event, RuleError, Rules, State, fold_all


@dataclass(frozen=True)
class Harness:
    """What the generic random-play harness needs from one game.

    - `random_action(state, seat, now_ms, rng)`: a plausible action for `seat`
      (legal or a punished mistake; an occasional impossible one is welcome,
      it must then raise RuleError and change nothing), or None.
    - `card_ids(state)`: every card id present anywhere (hands, piles, centre,
      removed piles); conservation means this multiset never changes.
    - `may_see(before, after, event, seat)`: ids of the cards `seat` (None =
      spectator) may see in `redact(event, seat)` and in `view(after, seat)`.
      It is the independent statement of secrecy the harness checks against.
    - `random_options(seats, rng)`: option sets to vary during random play.
    """

    rules: Rules
    random_action: Callable[[State, int, int, random.Random], Action | None]
    card_ids: Callable[[State], list[int]]
    may_see: Callable[[State, State, Event, int | None], set[int]]
    random_options: Callable[[int, random.Random], dict[str, Any]] = lambda seats, rng: {}
    bots: Callable[[], Bot] | None = None


def iter_cards(obj: Any) -> Iterator[dict[str, Any]]:
    """Every card-shaped dict inside a message: an int `id` with a `face` or `rank`."""
    if isinstance(obj, dict):
        if isinstance(obj.get("id"), int) and ("face" in obj or "rank" in obj):
            yield obj
        for v in obj.values():
            yield from iter_cards(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from iter_cards(v)


def visible_ids(obj: Any) -> set[int]:
    return {c["id"] for c in iter_cards(obj)}


def json_round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value))


@dataclass
class Timer:
    due_ms: int
    timer_id: str


@dataclass
class RandomPlayReport:
    actions: int = 0
    rule_errors: int = 0
    events: int = 0
    finished: bool = False
    log: list[Event] = field(default_factory=list)


class InvariantError(AssertionError):
    pass


def play_random(
    harness: Harness,
    seats: int,
    seed: int,
    max_actions: int = 400,
    options: dict[str, Any] | None = None,
    check: bool = True,
) -> RandomPlayReport:
    """Play one random match; with `check`, assert every invariant after every step."""
    rules = harness.rules
    rng = random.Random(seed)
    if options is None:
        options = harness.random_options(seats, rng)
    log = [dict(e, seq=i + 1, t_ms=0) for i, e in enumerate(rules.setup(seats, options, rng))]
    state = fold_all(rules, log)
    cards = Counter(harness.card_ids(state))
    timers: list[tuple[int, str]] = []
    _collect_timers(log, timers)
    now = 0
    report = RandomPlayReport(log=log)
    if check:
        _check_setup(harness, state, log, seats)
    for _ in range(max_actions):
        if rules.outcome(state) is not None:
            report.finished = True
            break
        now += rng.choice((0, 1, 5, 20, 50, 150, 400, 1200))
        seat: int | None
        if timers and (timers[0][0] <= now or rng.random() < 0.05):
            due, timer_id = heapq.heappop(timers)
            now = max(now, due)
            seat, action = None, {"kind": "timer", "id": timer_id}
        else:
            seat = rng.randrange(seats)
            action = harness.random_action(state, seat, now, rng)
            if action is None:
                continue
        report.actions += 1
        before = copy.deepcopy(state) if check else state
        try:
            new_events = rules.decide(state, seat, action, now, rng)
        except RuleError:
            report.rule_errors += 1
            if check and state != before:
                raise InvariantError(f"decide changed state while refusing {action!r}") from None
            continue
        for e in new_events:
            e = dict(e, seq=len(log) + 1, t_ms=now)
            prev = state
            state = rules.fold(state, e)
            log.append(e)
            report.events += 1
            if check:
                _check_step(harness, prev, state, e, seats, cards)
        _collect_timers(new_events, timers)
    if rules.outcome(state) is not None:
        report.finished = True
    if check:
        if json_round_trip(log) != log:
            raise InvariantError("the log does not survive JSON")
        if fold_all(rules, json_round_trip(log)) != state:
            raise InvariantError("fold of the stored log differs from the live state")
    return report


def _collect_timers(events: list[Event], timers: list[tuple[int, str]]) -> None:
    for e in events:
        if e["kind"] == "timer":
            heapq.heappush(timers, (e["data"]["due_ms"], e["data"]["id"]))


def _check_setup(harness: Harness, state: State, log: list[Event], seats: int) -> None:
    rules = harness.rules
    if log[0]["kind"] != "dealt":
        raise InvariantError("the first setup event must be `dealt`")
    if json_round_trip(state) != state:
        raise InvariantError("state does not survive a JSON round trip")
    for viewer in [None, *range(seats)]:
        allowed = harness.may_see(None, state, log[0], viewer)
        for e in log:
            _check_secret(rules.redact(e, viewer), allowed, viewer, e)
        _check_secret(rules.view(state, viewer), allowed, viewer, "view after setup")


def _check_step(
    harness: Harness, prev: State, state: State, e: Event, seats: int, cards: Counter[int]
) -> None:
    rules = harness.rules
    if json_round_trip(state) != state:
        raise InvariantError(f"state does not survive JSON after {e['kind']}")
    if Counter(harness.card_ids(state)) != cards:
        raise InvariantError(f"cards not conserved after {e!r}")
    for viewer in [None, *range(seats)]:
        allowed = harness.may_see(prev, state, e, viewer)
        red = rules.redact(e, viewer)
        if red is not None and (red.get("kind") != e["kind"]):
            raise InvariantError("redact must keep the event kind")
        _check_secret(red, allowed, viewer, e)
        _check_secret(json_round_trip(rules.view(state, viewer)), allowed, viewer, f"view after {e['kind']}")


def _check_secret(message: Any, allowed: set[int], viewer: int | None, where: Any) -> None:
    leaked = visible_ids(message) - allowed
    if leaked:
        raise InvariantError(f"seat {viewer} may not see cards {sorted(leaked)} in {where!r}")


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
    _collect_timers(log, timers)
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
            now, seat, action = max(now, due), None, {"kind": "timer", "id": timer_id}
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
        _collect_timers(new_events, timers)
    return BotMatchReport(
        actions=actions,
        events=len(log),
        duration_ms=now,
        outcome=rules.outcome(state),
        rule_errors=errors,
        log=log,
    )
