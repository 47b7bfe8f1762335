"""Who sits together (pure: no Django, no clock of its own).

Players waiting for the same game and seat count are grouped nearest ratings first: of every run of
`seats` neighbours in rating order, the one with the smallest spread is seated first, and again
among the rest. A group is accepted only when its spread is within the band of each of its
members, and a member's band widens with its wait: `BAND_BASE + BAND_PER_SECOND x seconds waited`
(on the friendly scale people read, 1500 at the start; docs/fair-play.md "Matchmaking").
Two players of whom one blocks the other (`apart`) are never grouped: a block keeps both apart at
every table, the queue's included; each waits for another group.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
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


def _together(run: Sequence[Waiting], apart: Collection[frozenset[int]]) -> bool:
    """No two of `run` keep apart (one blocks the other)."""
    return not apart or all(frozenset((a.user_id, b.user_id)) not in apart for i, a in enumerate(run) for b in run[i + 1 :])


def groups(waiting: Sequence[Waiting], seats: int, apart: Collection[frozenset[int]] = ()) -> list[list[Waiting]]:
    """The tables to make now: groups of `seats` players, nearest ratings first; the rest waits on.

    `apart` holds the pairs of user ids that must not sit together (blocks, either way)."""
    left = sorted(waiting, key=lambda w: (w.rating, w.user_id))
    out: list[list[Waiting]] = []
    while len(left) >= seats:
        best: tuple[float, list[Waiting]] | None = None
        for i in range(len(left) - seats + 1):
            run = _best_run(left, i, seats, apart)
            if run is None:
                continue
            spread = run[-1].rating - run[0].rating
            if all(spread <= band(w.waited_s) for w in run) and (best is None or spread < best[0]):
                best = (spread, run)
        if best is None:
            break
        out.append(best[1])
        taken = {w.user_id for w in best[1]}
        left = [w for w in left if w.user_id not in taken]
    return out


def _best_run(left: Sequence[Waiting], i: int, seats: int, apart: Collection[frozenset[int]]) -> list[Waiting] | None:
    """The `seats` nearest neighbours in rating order from `left[i]` on that may sit together: the
    plain run when nobody in it keeps apart, else the run skipping whoever would sit beside someone
    they block (the next nearest takes the place)."""
    run = list(left[i : i + seats])
    if _together(run, apart):
        return run
    run = [left[i]]
    for w in left[i + 1 :]:
        if _together([*run, w], apart):
            run.append(w)
            if len(run) == seats:
                return run
    return None
