"""Random `Timing`s around a game's rules (PROTOCOL.md "Fair races").

The platform hands a game's `decide` a Timing for every action whose kind is
in `rules.races`. `RandomTimings` wraps a game's rules so that random play and
bot matches meet what real tables produce, with the generator of
`tools/sim.py` (`RandomLines`: every seat on a line of its own, its round trip
wobbling from claim to claim). `play_random(..., timings=True)` does the same
without a wrapper; the wrapper serves drivers that call `decide` themselves
(bot matches) and tests that count the timings given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine import Action, Event, Rules, State, Timing
from tools.sim import LINES_MS, RandomLines

__all__ = ["LINES_MS", "RandomTimings"]


class RandomTimings:
    """A game's rules, with a random platform-like Timing passed to every race action.

    Everything but `decide` is the game's own (attribute access falls through),
    so a Harness built with it checks the same invariants as before.
    """

    def __init__(
        self, rules: Rules, seed: int, seats_of: Callable[[State], int] = lambda st: st["seats"], cap_ms: int = 200
    ) -> None:
        self._rules = rules
        self._lines = RandomLines(seed, cap_ms)
        self._seats_of = seats_of
        self.cap_ms = cap_ms
        self.timings = 0  # how many race actions got a Timing (tests check random play exercised them)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def timing(self, state: State, seat: Any, now_ms: Any) -> Timing | None:
        """What the platform would compute (see `RandomLines.timing`); None for a call it would not time."""
        return self._lines.timing(self._seats_of(state), seat, now_ms)

    def decide(
        self, state: State, seat: int | None, action: Action, now_ms: int, rng: random.Random, *, timing: Timing | None = None
    ) -> list[Event]:
        if timing is None and isinstance(state, dict) and isinstance(action, dict) and isinstance(action.get("kind"), str) and action["kind"] in self._rules.races:
            # a malformed seat or clock (random play's spoiled calls) reaches the rules untimed, to be refused there
            timing = self.timing(state, seat, now_ms)
            self.timings += timing is not None
        return self._rules.decide(state, seat, action, now_ms, rng, timing=timing)
