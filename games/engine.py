"""The pure contract every game implements (see shared/design/ARCHITECTURE.md).

Nothing here imports Django: rules modules depend on this file only, so a
game can be played, folded and tested without a database. The platform adds
`seq` and `t_ms` to events when it stores them; rules never see a clock other
than the `now_ms` they are given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

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


def timer_event(timer_id: str, due_ms: int) -> Event:
    """Ask the platform to submit `{"kind": "timer", "id": timer_id}` at `due_ms`."""
    return event("timer", None, id=timer_id, due_ms=due_ms)


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
    """

    arrival_ms: int
    judged_ms: int
    comp_ms: tuple[int, ...]


def timing_at(now_ms: int, seats: int) -> Timing:
    """The timing of a claim nobody compensates (harnesses, bots' own models, tests): judged on arrival."""
    return Timing(arrival_ms=now_ms, judged_ms=now_ms, comp_ms=(0,) * seats)


def race_open(race_id: str, opened_ms: int, eligible: list[int] | tuple[int, ...]) -> dict[str, Any]:
    """A race is state: what was raced for (`id`), since when, who may claim, and the claims so far."""
    return {"id": race_id, "opened_ms": opened_ms, "eligible": sorted(eligible), "claims": [], "comp_ms": []}


def race_claim_record(race: dict[str, Any], seat: int, timing: Timing, **data: Any) -> dict[str, Any]:
    """What a claim's event carries: both times, the judged reaction time, and the game's own `data`."""
    return {
        "seat": seat,
        "arrival_ms": timing.arrival_ms,
        "judged_ms": timing.judged_ms,
        "reaction_ms": max(0, timing.judged_ms - race["opened_ms"]),
        **data,
    }


def race_with_claim(race: dict[str, Any], claim: dict[str, Any], comp_ms: tuple[int, ...] | list[int]) -> dict[str, Any]:
    """The race after one more claim (fold side: pure, no clock). `comp_ms` is the claim's `Timing.comp_ms`."""
    return {**race, "claims": [*race["claims"], claim], "comp_ms": list(comp_ms)}


def race_ranking(race: dict[str, Any]) -> list[dict[str, Any]]:
    """Claims fastest first: judged time, then arrival, then seat (a deterministic tie-break)."""
    return sorted(race["claims"], key=lambda c: (c["judged_ms"], c["arrival_ms"], c["seat"]))


def race_settle_at(race: dict[str, Any]) -> int:
    """The match time from which no seat that has not claimed could still be judged faster.

    An unclaimed seat s could still beat the best judged time J if its claim
    arrived before J + comp_ms[s]; so the race is settled at the latest of
    those bounds, and at once when every eligible seat has claimed. Since
    J <= first arrival and comp <= lag_cap_ms, this is never later than
    `lag_cap_ms` after the first claim.
    """
    ranking = race_ranking(race)
    if not ranking:
        raise ValueError("a race without claims is not settled")
    best = ranking[0]["judged_ms"]
    claimed = {c["seat"] for c in race["claims"]}
    comp = race.get("comp_ms") or []
    bounds = [best + (comp[s] if s < len(comp) else 0) for s in race["eligible"] if s not in claimed]
    latest_arrival = max(c["arrival_ms"] for c in race["claims"])
    return max([latest_arrival, *bounds])


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


def fold_all(rules: Rules, events: list[Event], state: State = None) -> State:
    """A replay is a fold: the only way to get a state from a log."""
    for e in events:
        state = rules.fold(state, e)
    return state


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


class Bot(Protocol):
    """A per-game bot: pure, sees only its own seat's information."""

    def choose(self, ctx: BotContext, rng: random.Random) -> BotMove | None: ...


BOT_LEVELS = ("easy", "normal", "hard")
