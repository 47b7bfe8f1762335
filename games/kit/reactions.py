"""A bot's reaction time as a person's: log-normal around a median, never under a floor, now and then late or missed.

Why here: the race games' bots (ZACK!'s throws and challenges, Smack It!'s smacks and flips) drew
their reactions with the same few lines. Each keeps its own levels (median, spread, floor, the chance
of a late or a missed reaction) and its own seeding (a generator fixed by the stimulus, so a re-plan
draws the same reaction); the draw itself is this one. The order in which the generator is used is
part of a bot's behaviour (replays of bot matches depend on it): a miss is drawn first, then the
spread, then lateness.
"""

from __future__ import annotations

import math
import random

CAP_SIGMAS = 3.0
"""Nobody dozes off for ever: an ordinary reaction is at most median * exp(3 sigma), before lateness."""


def missed(r: random.Random, chance: float) -> bool:
    """Whether this stimulus goes unanswered altogether (a glance away that lasts); one draw, always made."""
    return r.random() < chance


def reaction_ms(
    r: random.Random,
    *,
    median_ms: float,
    sigma: float,
    floor_ms: int,
    late: float | None = None,
    late_factor: float = 1.0,
    cap_sigmas: float | None = CAP_SIGMAS,
) -> int:
    """One reaction (ms): log-normal around `median_ms`, capped at `cap_sigmas` (None: uncapped), times
    `late_factor` with chance `late` (that draw is made whenever `late` is given, 0 too), never under `floor_ms`."""
    g = r.gauss(0.0, 1.0)
    if cap_sigmas is not None:
        g = min(cap_sigmas, g)
    ms = median_ms * math.exp(sigma * g)
    if late is not None and r.random() < late:
        ms *= late_factor
    return max(floor_ms, int(ms))


def slowest_ms(*, median_ms: float, sigma: float, late: float = 0.0, late_factor: float = 1.0, cap_sigmas: float = CAP_SIGMAS) -> int:
    """The slowest reaction `reaction_ms` can draw with these figures (what tests and tables may rely on)."""
    return int(median_ms * math.exp(cap_sigmas * sigma) * (late_factor if late else 1)) + 1
