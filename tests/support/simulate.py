"""Random play with every invariant checked: the harness side of `tools/sim.py`.

Used by the random-play tests (OpenSpiel's `random_sim_test` idea), the bot
match tests and the soaks. `tools/sim.py` holds the driver (actions drawn from
`rules.legal_actions`, plus malformed ones it makes itself, which must be
refused); this module adds what only a game's harness can state: which cards
exist (conservation) and which a seat may see (secrecy).

Every game registers a `Harness` in `tests/games/<slug>/harness.py` as `HARNESS`.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from games.engine import Action, Event, Rules, State
from tools.sim import (
    MALFORMED,
    BotMatchReport,
    Checks,
    Choose,
    InvariantError,
    RandomLines,
    RandomPlayReport,
    draw_move,
    json_round_trip,
    malformed_action,
    play_bots,
    random_action,
    redacted_history,
)
from tools.sim import play_random as _play_random

__all__ = [
    "BotMatchReport",
    "Harness",
    "HarnessChecks",
    "InvariantError",
    "RandomPlayReport",
    "iter_cards",
    "json_round_trip",
    "play_bots",
    "play_random",
    "random_action",
    "random_move",
    "redacted_history",
    "harness_action",
    "harness_of",
    "visible_ids",
]


@dataclass(frozen=True)
class Harness:
    """What the generic random-play checks need from one game.

    - `card_ids(state)`: every card id present anywhere (hands, piles, centre,
      removed piles); conservation means this multiset never changes.
    - `may_see(before, after, event, seat)`: ids of the cards `seat` (None =
      spectator) may see in `redact(event, seat)` and in `view(after, seat)`.
      It is the independent statement of secrecy the harness checks against.
    - `random_options(seats, rng)`: option sets to vary during random play.
    - `kind_weights`: how often random play picks each action kind (default:
      every listed kind alike), for a game whose matches only end when the
      purposeful kinds come up more often.
    - `by_table`: draw the kind among every seat's legal actions (or `choose`
      picks) rather than a random seat's (see `tools.sim.draw_move`).
    - `choose(state, seat, legal, rng)`: the game's purposeful pick among the
      listed actions, for a game a uniform draw cannot play (snaps by position
      among hidden cards, a tour played towards a combination); it may read the
      true state, as a random driver may; None = the seat waits this step. The
      driver raises InvariantError if the pick is not in `legal`.
    """

    rules: Rules
    card_ids: Callable[[State], list[int]]
    may_see: Callable[[State, State, Event, int | None], set[int]]
    random_options: Callable[[int, random.Random], dict[str, Any]] = lambda seats, rng: {}
    kind_weights: dict[str, float] | None = None
    by_table: bool = False
    choose: Choose | None = None


def iter_cards(obj: Any) -> Iterator[dict[str, Any]]:
    """Every card-shaped dict inside a message: an int `id` with a `face` or `rank`.

    A loop over a stack rather than nested generators: it walks every view of every seat after
    every event of the secrecy soak, where the recursive `yield from` was its largest cost.
    """
    stack = [obj]
    pop, push = stack.pop, stack.extend
    while stack:
        item = pop()
        if type(item) is dict:
            if type(item.get("id")) is int and ("face" in item or "rank" in item):
                yield item
            push(item.values())
        elif type(item) is list:
            push(item)


def visible_ids(obj: Any) -> set[int]:
    return {c["id"] for c in iter_cards(obj)}


ACTION_CARD_FIELDS = ("card", "give", "take")
"""The fields by which a listed action names a card id (a slot or seat is a position, not a card)."""


def action_card_ids(legal: list[Action]) -> set[int]:
    """Every card id the listed actions name."""
    return {a[f] for a in legal for f in ACTION_CARD_FIELDS if isinstance(a.get(f), int)}


class HarnessChecks(Checks):
    """The generic checks plus conservation (`card_ids`) and secrecy (`may_see`) after every event."""

    def __init__(self, harness: Harness, seats: int) -> None:
        super().__init__(harness.rules, seats)
        self.harness = harness
        self.cards: Counter[int] = Counter()

    def setup(self, state: State, log: list[Event]) -> None:
        super().setup(state, log)
        self.cards = Counter(self.harness.card_ids(state))
        for viewer in [None, *range(self.seats)]:
            allowed = self.harness.may_see(None, state, log[0], viewer)
            for e in log:
                check_secret(self.rules.redact(e, viewer), allowed, viewer, e)
            self.check_view(state, allowed, viewer, "view after setup")

    def step(self, prev: State, state: State, e: Event) -> None:
        super().step(prev, state, e)
        if Counter(self.harness.card_ids(state)) != self.cards:
            raise InvariantError(f"cards not conserved after {e!r}")
        for viewer in [None, *range(self.seats)]:
            allowed = self.harness.may_see(prev, state, e, viewer)
            red = self.rules.redact(e, viewer)
            if red is not None and (red.get("kind") != e["kind"]):
                raise InvariantError("redact must keep the event kind")
            check_secret(red, allowed, viewer, e)
            self.check_view(state, allowed, viewer, f"view after {e['kind']}")

    def check_view(self, state: State, allowed: set[int], viewer: int | None, where: str) -> None:
        """The view shows only `allowed` cards, and its `legal` names only cards the rest of it shows.

        Why `legal` apart: it is long (ZIGZAG lists every exchange with every
        riding sign) and holds ids, not card objects, so walking it for cards
        was the main cost of the secrecy soak and proved nothing.
        """
        view = self.rules.view(state, viewer)
        legal = (view.get("legal") or []) if isinstance(view, dict) else []
        rest = json_round_trip({k: v for k, v in view.items() if k != "legal"} if isinstance(view, dict) else view)
        shown = visible_ids(rest)
        if shown - allowed:
            raise InvariantError(f"seat {viewer} may not see cards {sorted(shown - allowed)} in {where!r}")
        named = action_card_ids(legal)
        if not named <= shown:
            raise InvariantError(f"seat {viewer}'s legal actions name cards {sorted(named - shown)} its view does not show, {where!r}")


def check_secret(message: Any, allowed: set[int], viewer: int | None, where: Any) -> None:
    leaked = visible_ids(message) - allowed
    if leaked:
        raise InvariantError(f"seat {viewer} may not see cards {sorted(leaked)} in {where!r}")


def play_random(
    harness: Harness,
    seats: int,
    seed: int,
    max_actions: int = 400,
    options: dict[str, Any] | None = None,
    check: bool = True,
    timings: bool = False,
    checks: HarnessChecks | None = None,
) -> RandomPlayReport:
    """Play one random match with the harness's random options; with `check`, assert every invariant after every step.

    With `timings`, every race action gets a random platform-like Timing
    (seeded by `seed`), so races wait, clamp and settle as at a real table.
    `checks` replaces the default HarnessChecks (a subclass adding its own).
    """
    if options is None:
        options = harness.random_options(seats, random.Random(seed))
    return _play_random(
        harness.rules,
        seats,
        seed,
        max_actions=max_actions,
        options=options,
        checks=checks or (HarnessChecks(harness, seats) if check else None),
        timings=RandomLines(seed) if timings else None,
        kind_weights=harness.kind_weights,
        by_table=harness.by_table,
        choose=harness.choose,
    )


def harness_action(harness: Harness, state: State, seat: int, rng: random.Random, *, malformed: float = MALFORMED) -> Any:
    """For drivers that submit through the platform as one seat: its action drawn as random play draws it.

    Sometimes a malformed one (which the platform must refuse); else the
    harness's `choose` or `kind_weights` draw; None: the seat waits.
    """
    return random_action(harness.rules, state, seat, rng, malformed=malformed, choose=harness.choose, kind_weights=harness.kind_weights)


def random_move(harness: Harness, state: State, seats: int, rng: random.Random, *, malformed: float = MALFORMED) -> tuple[int, Any]:
    """For drivers that submit through the platform: (seat, action) drawn as random play draws it.

    A random seat; sometimes a malformed action (which the platform must
    refuse); else the harness's `choose` / `kind_weights` / `by_table` draw
    (the action None: nobody acts this step).
    """
    seat = rng.randrange(seats)
    if rng.random() < malformed:
        return seat, malformed_action(harness.rules, state, seat, rng)
    return draw_move(
        harness.rules, state, seats, rng, choose=harness.choose, kind_weights=harness.kind_weights, by_table=harness.by_table, seat=seat
    )


def harness_of(slug: str) -> Harness:
    """The random-play harness of a game: `tests/games/<slug>/harness.py`, `tinygame`'s for "tiny"."""
    if slug == "tiny":
        from tests.support import tinygame

        return tinygame.HARNESS
    return importlib.import_module(f"tests.games.{slug}.harness").HARNESS
