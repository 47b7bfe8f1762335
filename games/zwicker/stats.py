"""Zwicker statistics from a match's log (pure; the contract is games/kit/figures.py).

Final totals (the `revealed` totals, else the outcome's scores), calls won and
lost, snaps right, wrong and taken back, powers used (and per power).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kit.figures import Event, GameStats, SeatFigures, mean
from games.kit.figures import gettext_noop as _  # marked for makemessages, translated when shown
from games.kit.stats import counts, moves

SEAT_COUNTS = {"snapped": "snaps_right", "snap_wrong": "snaps_wrong", "snap_taken_back": "snaps_taken_back"}


def extract(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    winners = {int(s) for s in outcome.get("winners", [])}
    totals: list[int] | None = None
    for kind, seat, d, _t in moves(events):
        if kind in SEAT_COUNTS:
            per_seat[seat].count(SEAT_COUNTS[kind])
        elif kind == "called":
            per_seat[seat].count("calls_won" if seat in winners else "calls_lost")
        elif kind == "used":
            per_seat[seat].count("powers_used")
            per_seat[seat].count(f"powers_{d.get('power')}")
        elif kind == "revealed":
            totals = d.get("totals")
    if totals is None:
        scores = {int(p["seat"]): p.get("score") for p in outcome.get("placements", [])}
        totals = [scores.get(s) for s in range(len(per_seat))]  # type: ignore[misc]
    for s, value in enumerate(totals):
        if isinstance(value, int):
            per_seat[s].sample("final_total", value)


STATS = GameStats(
    extract=extract,
    figures=(
        mean("average_final_total", "final_total", _("Average final total")),
        *counts(
            {
                "calls_won": _("Zwicker calls won"),
                "calls_lost": _("Zwicker calls lost"),
                "snaps_right": _("Snaps right"),
                "snaps_wrong": _("Snaps wrong"),
                "snaps_taken_back": _("Snaps taken back"),
                "powers_used": _("Powers used"),
            }
        ),
    ),
)
