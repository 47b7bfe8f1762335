"""The contract of a game's statistics (pure, no Django): what `games/<slug>/stats.py` provides.

Each game's folder holds `stats.py` defining `STATS`, a `GameStats`, found through
`games.kit.registry.get_stats(slug)`, so a fifth game brings its own figures and the
platform (the `stats` app) never names a game's event kinds:

- `extract(events, per_seat, outcome)` reads one finished match's log (the stored
  events, `seq`/`t_ms` included, in order) and adds the game's own counts and
  samples to each seat's `SeatFigures`; the platform has already filled in place,
  win and playing position.
- `figures` are the published game-specific figures, in their display order: the
  `count` of a counter, or the `median` / `mean` of a sample, each with its page
  label in English, marked with `gettext_noop` below so that `makemessages` finds
  it (the pages translate it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Event = Mapping[str, Any]

MAX_SAMPLE_MS = 600_000  # a sample beyond ten minutes is clipped (histogram keys stay bounded)


def gettext_noop(text: str) -> str:
    """Marks a label for the translation catalogue without importing Django (translated when shown)."""
    return text


@dataclass
class SeatFigures:
    """What one seat did in one match: the platform's part, then the game's counts and samples."""

    seat: int
    place: int | None
    won: bool
    position: int  # 0 = the first player (left of the dealer)
    counts: dict[str, int] = field(default_factory=dict)
    samples: dict[str, list[int]] = field(default_factory=dict)

    def count(self, key: str, by: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + by

    def sample(self, key: str, value: int) -> None:
        self.samples.setdefault(key, []).append(max(0, min(int(value), MAX_SAMPLE_MS)))


@dataclass(frozen=True)
class Figure:
    """One game-specific figure: `count` of a counter, `median` or `mean` of a sample; `label` in English."""

    key: str
    kind: str
    source: str
    label: str


def count(key: str, label: str) -> Figure:
    """A figure that publishes a counter under its own name."""
    return Figure(key, "count", key, label)


def median(key: str, source: str, label: str) -> Figure:
    return Figure(key, "median", source, label)


def mean(key: str, source: str, label: str) -> Figure:
    return Figure(key, "mean", source, label)


Extractor = Callable[[Sequence[Event], list[SeatFigures], Mapping[str, Any]], None]


def _nothing(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    """The extractor of a game without statistics of its own."""


@dataclass(frozen=True)
class GameStats:
    """A game's statistics: its extractor and its published figures."""

    extract: Extractor = _nothing
    figures: tuple[Figure, ...] = ()


NO_STATS = GameStats()  # a game without `stats.py` (the test-only game): only the platform's figures
