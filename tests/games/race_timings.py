"""Random `Timing`s for the pure random-play harness (PROTOCOL.md "Fair races").

The platform hands a game's `decide` a Timing for every action whose kind is
in `rules.races`; the harness in games/testing.py plays without one (judged on
arrival). `RandomTimings` wraps a game's rules so that random play and bot
matches meet what real tables produce: every seat sits on a line of its own
(a bot or a near player with no compensation, others up to the cap), its
round trip wobbles from claim to claim, and the judged time is the arrival
minus the sender's compensation — never later than the arrival, never more
than the cap before it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine import Action, Event, Rules, State, Timing

LINES_MS = (0, 0, 5, 40, 80, 150, 200, 320)  # round trips a table may see (bots are 0; 320 is beyond the cap)


class RandomTimings:
    """A game's rules, with a random platform-like Timing passed to every race action.

    Everything but `decide` is the game's own (attribute access falls through),
    so a Harness built with it checks the same invariants as before.
    """

    def __init__(self, rules: Rules, seed: int, seats_of: Callable[[State], int], cap_ms: int = 200) -> None:
        self._rules = rules
        self._rng = random.Random(seed)
        self._seats_of = seats_of
        self.cap_ms = cap_ms
        self._lines: list[int] | None = None
        self.timings = 0  # how many race actions got a Timing (tests check random play exercised them)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def timing(self, state: State, seat: int, now_ms: int) -> Timing:
        """What the platform would compute: comp per seat = min(measured rtt, cap), judged = arrival - own comp."""
        n = self._seats_of(state)
        if self._lines is None or len(self._lines) != n:
            self._lines = [self._rng.choice(LINES_MS) for _ in range(n)]
        comp = []
        for rtt in self._lines:
            wobble = rtt + self._rng.randint(-10, 10) if rtt else 0
            comp.append(max(0, min(wobble, self.cap_ms)))
        return Timing(arrival_ms=now_ms, judged_ms=now_ms - comp[seat], comp_ms=tuple(comp))

    def decide(
        self, state: State, seat: int | None, action: Action, now_ms: int, rng: random.Random, *, timing: Timing | None = None
    ) -> list[Event]:
        races = self._rules.races
        if (
            timing is None
            and isinstance(state, dict)
            and isinstance(action, dict)
            and isinstance(action.get("kind"), str)
            and action["kind"] in races
            and type(seat) is int
            and 0 <= seat < self._seats_of(state)
        ):
            timing = self.timing(state, seat, now_ms)
            self.timings += 1
        return self._rules.decide(state, seat, action, now_ms, rng, timing=timing)
