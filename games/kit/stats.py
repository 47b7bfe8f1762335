"""What every game's statistics extractor (games/<slug>/stats.py) shares: the walk over a match's log and the
table of its counters' figures.

Why here: four extractors each unpacked every logged event the same way (its kind, seat, data and match time,
with a missing `data` read as empty) and each wrote its published counters as a list of `count(key, label)`
rows. The game keeps what is its own: which events it counts and how (its
`extract`), its samples' figures (`median`, `mean`), its counters' names and their labels.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from games.kit.figures import Event, Figure, count


class Move(NamedTuple):
    """One logged event as an extractor reads it: `seat` None for the system's, `data` never None, `t_ms` 0 if unset."""

    kind: str
    seat: Any
    data: Mapping[str, Any]
    t_ms: int


def moves(events: Sequence[Event]) -> Iterator[Move]:
    """The match's events in log order, each unpacked once the way every extractor reads it."""
    for e in events:
        yield Move(e["kind"], e.get("seat"), e.get("data") or {}, int(e.get("t_ms") or 0))


def counts(labels: Mapping[str, str]) -> tuple[Figure, ...]:
    """A `count` figure for each counter of `labels` (counter -> its label, marked for translation), in its order."""
    return tuple(count(key, label) for key, label in labels.items())
