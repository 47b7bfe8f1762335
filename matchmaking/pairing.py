"""Who sits together (pure: no Django, no clock of its own).

Players waiting for the same game and seat count are grouped nearest ratings first: of every run of
`seats` neighbours in rating order, the one with the smallest spread is seated first, and again
among the rest. A group is accepted only when its spread is within the band of each of its
members, and a member's band widens with its wait: `BAND_BASE + BAND_PER_SECOND x seconds waited`
(on the friendly scale people read, 1500 at the start; docs/fair-play.md "Matchmaking").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BAND_BASE = 100.0  # friendly points: who is this close is seated at once
BAND_PER_SECOND = 10.0  # and the band widens by this much per second waited (a minute: 700)


@dataclass(frozen=True)
class Waiting:
    user_id: int
    rating: float  # the friendly figure
    waited_s: float


def band(waited_s: float) -> float:
    return BAND_BASE + BAND_PER_SECOND * max(0.0, waited_s)


def groups(waiting: Sequence[Waiting], seats: int) -> list[list[Waiting]]:
    """The tables to make now: groups of `seats` players, nearest ratings first; the rest waits on."""
    left = sorted(waiting, key=lambda w: (w.rating, w.user_id))
    out: list[list[Waiting]] = []
    while len(left) >= seats:
        best: tuple[float, int] | None = None
        for i in range(len(left) - seats + 1):
            run = left[i : i + seats]
            spread = run[-1].rating - run[0].rating
            if all(spread <= band(w.waited_s) for w in run) and (best is None or spread < best[0]):
                best = (spread, i)
        if best is None:
            break
        i = best[1]
        out.append(left[i : i + seats])
        left = left[:i] + left[i + seats :]
    return out
