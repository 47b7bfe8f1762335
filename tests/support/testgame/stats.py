"""Tally's statistics: how many cards each seat played, and the median value it played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kit.figures import Event, GameStats, SeatFigures, count, median


def _extract(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    for e in events:
        if e["kind"] == "played":
            per_seat[e["seat"]].count("plays")
            per_seat[e["seat"]].sample("card_value", int(e["data"]["card"]))


STATS = GameStats(extract=_extract, figures=(count("plays", "Cards played"), median("card_median", "card_value", "Median card")))
