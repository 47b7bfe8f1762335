"""The guided first match of a game (`/games/<slug>/learn/`): a short scripted match, played through the pure rules.

Why through the rules: every table the learner sees is `rules.view` of a
state folded from real events, so the page teaches the game the server plays
(a change of rules that breaks a lesson breaks its test, not the learner).
Each game keeps its lesson in `games/<slug>/learn.py` as `SCRIPT`: a fixed
deal (the setup events) and a list of `Step`s. A step first plays the other
seats' scripted moves (`before`), then shows the table with a prompt and
waits for the learner's `expect`ed action (or, when None, for "Next"). The
learner's action is decided by the rules too, and its events are the
feedback the next step shows.

Nothing here touches the database, a socket or a clock: the page is the same
for everyone, stores nothing, and a wrong action never leaves the browser
(the page explains the step's `wrong` words and the learner tries again).
Words are English msgids (marked with `msgid`, imported as `_`, in each script); the
view translates them.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from games.engine import Action, Event, Rules, State

GAP_MS = 1500  # match time between two scripted moments (what the renderers' clocks see)


def msgid(text: str) -> str:
    """Marks a lesson's words for translation (scripts import it as `_`, which makemessages extracts) without
    Django: the scripts stay importable by pure tests; the view translates the words per request."""
    return text


@dataclass(frozen=True)
class Move:
    """Another seat's scripted move (seat None: a timer, as the platform submits it; `last_timer` makes one)."""

    seat: int | None
    action: Action | Callable[[list[Event]], Action]


def last_timer(prefix: str) -> Callable[[list[Event]], Action]:
    """The system firing the latest timer the rules asked for whose id starts with `prefix` (as the platform would)."""

    def fire(log: list[Event]) -> Action:
        ids = [e["data"]["id"] for e in log if e["kind"] == "timer" and str(e["data"].get("id", "")).startswith(prefix)]
        return {"kind": "timer", "id": ids[-1]}

    return fire


@dataclass(frozen=True)
class Step:
    prompt: str  # what to do now (msgid)
    expect: Action | None = None  # the learner's action; None: read, then press Next
    wrong: str = ""  # shown after any other action (msgid)
    before: tuple[Move, ...] = ()  # played before the step shows
    produces: tuple[str, ...] = ()  # event kinds the expected action must cause (checked by the tests)
    gap_ms: int = GAP_MS  # match time from the step's table to the learner's action (a smack's reaction time)


@dataclass(frozen=True)
class Script:
    rules: Rules
    seat: int  # the learner's seat
    names: tuple[str, ...]  # the other seats' names (the learner's own is the page's user), by seat
    deal: tuple[Event, ...]  # the setup events: a fixed, short deal
    steps: tuple[Step, ...]
    done: str  # the last words (msgid)
    closing: tuple[Move, ...] = ()  # other seats' moves after the learner's last action (e.g. the one that ends it)
    orders: tuple[tuple[int, ...], ...] = ()  # the deck orders of the shuffles the rules make during play (new deals)


class DeckOrder(random.Random):
    """A shuffle that deals the lesson's cards: each shuffle puts the next prescribed cards first, in that order,
    and the rest after them as they were (a shuffle with nothing prescribed left is an ordinary seeded one)."""

    def __init__(self, orders: tuple[tuple[int, ...], ...] = (), seed: int = 0) -> None:
        super().__init__(seed)
        self.orders = list(orders)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if not self.orders:
            super().shuffle(x)
            return
        first = list(self.orders.pop(0))
        wanted = set(first)
        x[:] = first + [c for c in x if c not in wanted]


@dataclass
class Table:
    """The scripted match as it is being played: the state, the log, the match clock."""

    rules: Rules
    seat: int
    state: State = None
    log: list[Event] = field(default_factory=list)
    now: int = 0
    rng: random.Random = field(default_factory=DeckOrder)

    def apply(self, events: list[Event]) -> list[Event]:
        out = []
        for e in events:
            self.state = self.rules.fold(self.state, e)
            stored = {**e, "seq": len(self.log) + 1, "t_ms": self.now}
            self.log.append(stored)
            out.append(stored)
        return out

    def act(self, seat: int | None, action: Action | Callable[[list[Event]], Action], gap_ms: int = GAP_MS) -> list[Event]:
        """The rules decide (a RuleError here is a broken script: the tests catch it)."""
        if callable(action):
            action = action(self.log)
        self.now += gap_ms
        return self.apply(self.rules.decide(self.state, seat, action, self.now, self.rng))

    def seen(self, events: list[Event]) -> list[Event]:
        """The learner's redacted copy of `events`, in the shape a socket delivers them."""
        out = []
        for e in events:
            r = self.rules.redact({"kind": e["kind"], "seat": e.get("seat"), "data": e.get("data", {})}, self.seat)
            if r is not None:
                out.append({**r, "seq": e["seq"], "t_ms": e["t_ms"]})
        return out


def frames(script: Script) -> list[dict[str, Any]]:
    """The lesson as the page plays it: one frame per step and a last one, each with the learner's view.

    A frame: `view` (the learner's), `events` (what happened since the frame
    before, redacted for the learner), `prompt`, `expect`, `wrong`. The last
    frame has `expect` None and `final` True.
    """
    table = Table(script.rules, script.seat, rng=DeckOrder(script.orders))
    pending = table.seen(table.apply(list(script.deal)))
    out: list[dict[str, Any]] = []
    for step in script.steps:
        for move in step.before:
            pending += table.seen(table.act(move.seat, move.action))
        out.append(_frame(script, table, pending, step.prompt, step.expect, step.wrong, final=False))
        pending = table.seen(table.act(script.seat, step.expect, step.gap_ms)) if step.expect is not None else []
    for move in script.closing:
        pending += table.seen(table.act(move.seat, move.action))
    out.append(_frame(script, table, pending, script.done, None, "", final=True))
    return out


def script_of(slug: str) -> Script:
    """`games/<slug>/learn.py`'s SCRIPT (ImportError/AttributeError: the game has no lesson)."""
    return importlib.import_module(f"games.{slug}.learn").SCRIPT


@cache
def lesson(slug: str) -> list[dict[str, Any]]:
    """The frames of a game's lesson: the same for everyone, so made once per process."""
    return frames(script_of(slug))


def _frame(script: Any, table: Any, events: list[dict[str, Any]], prompt: Any, expect: Any, wrong: Any, *, final: bool) -> dict[str, Any]:
    """One step as the page shows it: the learner's view now, what happened since, what to do next."""
    return {
        "view": script.rules.view(table.state, script.seat),
        "events": events,
        "prompt": prompt,
        "expect": expect,
        "wrong": wrong,
        "final": final,
    }
