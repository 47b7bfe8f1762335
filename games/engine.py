"""The pure contract every game implements (see shared/design/ARCHITECTURE.md).

Nothing here imports Django: rules modules depend on this file only, so a
game can be played, folded and tested without a database. The platform adds
`seq` and `t_ms` to events when it stores them; rules never see a clock other
than the `now_ms` they are given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from games.kit.resignation import RESIGN, RESIGNED, fold_resigned, place_resigned, resigned_seats

Event = dict[str, Any]
State = Any
Action = dict[str, Any]


class RuleError(Exception):
    """An action that cannot physically happen; nothing was changed.

    Mistakes a rulebook punishes are *not* RuleErrors: they are moves.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def event(kind: str, seat: int | None = None, **data: Any) -> Event:
    """Build an event in the one shape the platform stores."""
    return {"kind": kind, "seat": seat, "data": data}


def timer_event(timer_id: str, due_ms: int, *, replaces: str | None = None) -> Event:
    """Ask the platform to submit `{"kind": "timer", "id": timer_id}` at `due_ms`.

    `replaces`: a timer this one supersedes for good (the rules will answer it with nothing
    from this event on, whatever comes later). The platform then marks that timer fired in
    the same commit and lets go of it at once, instead of firing it at its due time only to
    learn that it is stale: Smack It! re-arms its idle timer on every flip.
    """
    if replaces is None:
        return event("timer", None, id=timer_id, due_ms=due_ms)
    return event("timer", None, id=timer_id, due_ms=due_ms, replaces=replaces)


@dataclass(frozen=True)
class Option:
    """One table option: its type, default and allowed values.

    `type` is one of "bool", "int", "choice", "seats" (a list of seat numbers).
    """

    type: str
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] | None = None
    internal: bool = False  # filled by the platform, not shown in the create form

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "default": self.default, "help": self.help}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        if self.internal:
            out["internal"] = True
        return out


def resolve_options(schema: dict[str, Option], options: dict[str, Any] | None, seats: int) -> dict[str, Any]:
    """Fill defaults and validate; an unknown option or a bad value is a RuleError."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(schema))
    if unknown:
        raise RuleError("bad_option", f"unknown option(s): {', '.join(unknown)}")
    out: dict[str, Any] = {}
    for name, spec in schema.items():
        value = options.get(name, spec.default)
        out[name] = _check_option(name, spec, value, seats)
    return out


def _check_option(name: str, spec: Option, value: Any, seats: int) -> Any:
    if spec.type == "bool":
        if not isinstance(value, bool):
            raise RuleError("bad_option", f"option {name} must be true or false")
        return value
    if spec.type == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError("bad_option", f"option {name} must be a whole number")
        if spec.minimum is not None and value < spec.minimum:
            raise RuleError("bad_option", f"option {name} must be at least {spec.minimum}")
        if spec.maximum is not None and value > spec.maximum:
            raise RuleError("bad_option", f"option {name} must be at most {spec.maximum}")
        return value
    if spec.type == "choice":
        if value not in (spec.choices or ()):
            raise RuleError("bad_option", f"option {name} must be one of {list(spec.choices or ())}")
        return value
    if spec.type == "seats":
        if not isinstance(value, list) or any(
            isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < seats for s in value
        ):
            raise RuleError("bad_option", f"option {name} must be a list of seat numbers below {seats}")
        return sorted(set(value))
    raise RuleError("bad_option", f"option {name} has an unknown type")


@dataclass(frozen=True)
class Timing:
    """How the platform timed one race claim (PROTOCOL.md "Fair races").

    The rules never see a client's clock: the platform measures each socket's
    round trip itself and hands the rules these figures, and the rules write
    them into the claim's event so a re-fold of the log gives the same result.

    arrival_ms: match time the claim reached the server (the `now_ms` of decide).
    judged_ms:  arrival minus the sender's round trip, compensated at most
                `lag_cap_ms` (so judged_ms <= arrival_ms).
    comp_ms:    per seat, the compensation a claim from that seat would get if
                it arrived now (0 for bots, seats without a socket, and at
                tables with `lag_cap_ms` 0).
    min_reaction_ms: the table's human floor (PROTOCOL "Fair play"): a claim
                judged sooner than this after its card was shown is an
                anticipation and never wins (`games.kit.races`); 0 switches it off.
    """

    arrival_ms: int
    judged_ms: int
    comp_ms: tuple[int, ...]
    min_reaction_ms: int = 0


def timing_at(now_ms: int, seats: int) -> Timing:
    """The timing of a claim nobody compensates (harnesses, bots' own models, tests): judged on arrival."""
    return Timing(arrival_ms=now_ms, judged_ms=now_ms, comp_ms=(0,) * seats)


def is_int(value: Any) -> bool:
    """A whole number that is not a bool (JSON gives both; only one is a seat or a time)."""
    return isinstance(value, int) and not isinstance(value, bool)


TIMER = "timer"
"""The one action kind only the system submits: `{"kind": "timer", "id": ...}`, seat None."""


@runtime_checkable
class Rules(Protocol):
    """The fixed protocol; see ARCHITECTURE.md "The rules interface"."""

    slug: str
    name: str
    min_seats: int
    max_seats: int
    teams: bool
    options: dict[str, Option]
    races: frozenset[str]  # action kinds judged as races: the platform passes them a `Timing`

    def setup(self, seats: int, options: dict[str, Any], rng: random.Random) -> list[Event]: ...

    def decide(
        self,
        state: State,
        seat: int | None,
        action: Action,
        now_ms: int,
        rng: random.Random,
        *,
        timing: Timing | None = None,
    ) -> list[Event]: ...

    def fold(self, state: State, event: Event) -> State: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def redact(self, event: Event, seat: int | None) -> Event | None: ...

    def outcome(self, state: State) -> dict[str, Any] | None: ...

    def view_all(self, state: State) -> dict[str, Any]: ...

    def legal_actions(self, state: State, seat: int | None) -> list[Action]: ...


def fold_all(rules: Rules, events: list[Event], state: State = None) -> State:
    """A replay is a fold: the only way to get a state from a log."""
    for e in events:
        state = rules.fold(state, e)
    return state


FOLD_PREFIX = "_fold_"
"""How a game names the fold of one event kind: `_fold_dealt` folds `dealt`."""

MoveFn = Callable[[Any, "Tx", "int | None", Action, int, random.Random, "Timing | None"], None]
FoldFn = Callable[[Any, State, Event], State]


class Tx:
    """One decision: the events emitted so far, each folded at once so later steps see its effect.

    `decide` never mutates the state it is given: `Tx.state` starts as that
    state and moves on by folding, exactly as a replay would.
    """

    __slots__ = ("rules", "state", "events")

    def __init__(self, rules: Rules, state: State) -> None:
        self.rules = rules
        self.state = state
        self.events: list[Event] = []

    def emit(self, e: Event) -> State:
        self.events.append(e)
        self.state = self.rules.fold(self.state, e)
        return self.state

    def extend(self, events: list[Event]) -> State:
        for e in events:
            self.emit(e)
        return self.state


class GameRules:
    """The shared base of every `games/<slug>/rules.py` (boardgame.io's `moves`, scalachess's pure functions).

    Why a base: the checks every action needs before the game looks at it
    (is there a match, is it over, is the action an object with a kind, is
    the time a whole number, is the seat real, are timers only the system's)
    are the same in every game and must answer the same error codes, so they
    live here once. A game supplies:

    - `moves`: action kind -> `fn(self, tx, seat, action, now_ms, rng, timing)`.
      It emits events into `tx` (or raises RuleError: the impossible only;
      punished mistakes are moves). `"timer"` is the system's move (seat None).
      `timing` is a checked `Timing` for kinds in `races`, else None.
    - one fold per event kind, named `_fold_<kind>(self, state, event) -> new
      state` (never mutating the input); the kit gathers them into `folds`
      (event kind -> fn) when the class is made, so every game dispatches
      its facts the same way. Two kinds that fold alike share one function by
      an alias (`_fold_b = _fold_a`). The first event of a log folds from `None`.
    - `before_move(tx, seat, kind, now_ms, rng)`: what must happen before any
      action, e.g. settling a race whose window closed (default: nothing).
    - `legal_actions(state, seat)`, `view`, `view_all`, `redact`, `outcome`, `setup`.

    The state vocabulary every game shares: `state["seats"]` (how many) and
    `state["finished"]` (bool).
    """

    slug: str
    name: str
    min_seats: int
    max_seats: int
    teams: bool = False
    options: dict[str, Option]
    races: frozenset[str] = frozenset()
    moves: dict[str, MoveFn] = {}
    folds: dict[str, FoldFn] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Gather the class's `_fold_<kind>` methods (and its bases') into `folds`; an explicit `folds` entry wins."""
        super().__init_subclass__(**kwargs)
        named: dict[str, FoldFn] = {}
        for klass in reversed(cls.__mro__):
            for attr, fn in vars(klass).items():
                if attr.startswith(FOLD_PREFIX) and callable(fn):
                    named[attr[len(FOLD_PREFIX):]] = fn
        cls.folds = {**named, **cls.__dict__.get("folds", {})}

    def table_options(self, options: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        """This game's options for a table of `seats`: the request checked against the game's own schema (`options`)."""
        return resolve_options(self.options, options, seats)

    # ------------------------------------------------------------------ decide

    def decide(
        self,
        state: State,
        seat: int | None,
        action: Action,
        now_ms: int,
        rng: random.Random,
        *,
        timing: Timing | None = None,
    ) -> list[Event]:
        """Turn one action into the facts it causes; RuleError (nothing changed) only for the impossible."""
        kind = self.check_action(state, seat, action, now_ms)
        if kind == RESIGN:  # the platform's, in every game (games/kit/resignation.py); the game's races wait
            return [event(RESIGNED, action["seat"])]
        if kind in self.races:
            timing = self.check_timing(state, timing, now_ms)
        else:
            timing = None
        tx = Tx(self, state)
        self.before_move(tx, seat, kind, now_ms, rng)
        if tx.state["finished"]:
            if kind == TIMER:
                return tx.events
            raise RuleError("match_over", "the match is over")
        self.moves[kind](self, tx, seat, action, now_ms, rng, timing)
        return tx.events

    def check_action(self, state: State, seat: int | None, action: Action, now_ms: int) -> str:
        """The preamble of every decide, with the one set of error codes; returns the action's kind."""
        if not isinstance(state, dict):
            raise RuleError("bad_action", "there is no match to act in")
        if state["finished"]:
            raise RuleError("match_over", "the match is over")
        if not isinstance(action, dict):
            raise RuleError("bad_action", "an action is an object")
        kind = action.get("kind")
        if not isinstance(kind, str):
            raise RuleError("bad_action", "an action needs a string kind")
        if not is_int(now_ms):
            raise RuleError("bad_action", "now_ms must be a whole number")
        if kind == RESIGN:
            who = action.get("seat")
            if seat is not None:
                raise RuleError("bad_action", "only the platform resigns a seat")
            if not is_int(who) or not 0 <= who < state["seats"]:
                raise RuleError("bad_action", "no such seat")
            if who in resigned_seats(state):
                raise RuleError("resigned", "this seat has resigned already")
            return kind
        if kind not in self.moves:
            raise RuleError("unknown_action", f"{self.name} has no action {kind[:40]!r}")
        if kind == TIMER:
            if seat is not None:
                raise RuleError("bad_action", "only the system fires timers")
            if not isinstance(action.get("id"), str):
                raise RuleError("bad_action", "a timer needs a string id")
            return kind
        if seat is None:
            raise RuleError("bad_action", "only timers act without a seat")
        if not is_int(seat) or not 0 <= seat < state["seats"]:
            raise RuleError("bad_action", "no such seat")
        return kind

    def check_timing(self, state: State, timing: Timing | None, now_ms: int) -> Timing:
        """A race claim's timing: judged on arrival when none is given; a malformed one is refused."""
        seats = state["seats"]
        if timing is None:
            return timing_at(now_ms, seats)
        if (
            not isinstance(timing, Timing)
            or not is_int(timing.arrival_ms)
            or not is_int(timing.judged_ms)
            or timing.judged_ms > timing.arrival_ms
            or len(timing.comp_ms) != seats
            or not all(is_int(c) and c >= 0 for c in timing.comp_ms)
            or not is_int(timing.min_reaction_ms)
            or timing.min_reaction_ms < 0
        ):
            raise RuleError("bad_action", "bad timing")
        return timing

    def before_move(self, tx: Tx, seat: int | None, kind: str, now_ms: int, rng: random.Random) -> None:
        """Hook run before every move (after the checks); games settle due races here."""

    # -------------------------------------------------------------------- fold

    def fold(self, state: State, e: Event) -> State:
        """Apply one fact through the `folds` table; an unknown kind means a corrupt log."""
        if e["kind"] == RESIGNED:
            state = fold_resigned(state, e["seat"])
        else:
            fn = self.folds.get(e["kind"])
            if fn is None:
                raise ValueError(f"{self.slug}: no fold for event {e['kind']!r}")
            state = fn(self, state, e)
        # Once the game has written its outcome, the resigned are placed after everyone still in.
        if isinstance(state, dict) and state.get("outcome") and resigned_seats(state):
            outcome = place_resigned(state["outcome"], resigned_seats(state), state["seats"], self.teams)
            if outcome is not state["outcome"]:
                state = {**state, "outcome": outcome}
        return state

    # ---------------------------------------------------------------- reading

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        """Every action `seat` could submit now (OpenSpiel's LegalActions).

        Listed: every move the rules accept, *including the mistakes the rules
        punish* (a false challenge, a smack on the wrong card) because those
        are moves. Not listed: what would raise RuleError, and timers (the
        system's). The list depends only on what `view(state, seat)` shows,
        names hidden cards only by position, and is [] for spectators (None)
        and once the match is finished. The table UI enables exactly these,
        the bots choose among them and random play draws from them.
        """
        raise NotImplementedError

    def view_all(self, state: State) -> dict[str, Any]:
        """The table with every hidden card face up: finished replays and tests."""
        raise NotImplementedError

    def outcome(self, state: State) -> dict[str, Any] | None:
        return None if state is None else state.get("outcome")


@dataclass
class BotMove:
    """What a bot wants to do and when (match time, ms); the platform waits until then."""

    at_ms: int
    action: Action


@dataclass
class BotContext:
    """Everything a bot may know: its seat's view and its seat's redacted history."""

    seat: int
    level: str
    view: dict[str, Any]
    history: list[Event] = field(default_factory=list)  # redacted for `seat`, with seq and t_ms
    now_ms: int = 0
    # matches of this game each human seat has finished (stats' `played`); bot seats are absent. Bots go easy
    # on newcomers with it (a ZACK! bot waits longer before calling a new player too slow).
    experience: dict[int, int] = field(default_factory=dict)


class Bot(Protocol):
    """A per-game bot: pure, sees only its own seat's information."""

    def choose(self, ctx: BotContext, rng: random.Random) -> BotMove | None: ...


BOT_LEVELS = ("easy", "normal", "hard")
