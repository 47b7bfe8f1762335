"""ZIGZAG statistics from a match's log (pure; the contract is games/figures.py).

Combinations scored by your team, correct and false announcements, counters
confirmed and failed, counters against your team confirmed, signs sent. Partners
are seat `t` and `t + seats/2` (team `t`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.figures import Event, GameStats, SeatFigures, counts, gettext_noop


def extract(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    half = len(per_seat) // 2

    def team(t: int) -> list[SeatFigures]:
        return [per_seat[t], per_seat[t + half]]

    for e in events:
        kind, seat, d = e["kind"], e.get("seat"), e.get("data") or {}
        if kind == "announced":
            per_seat[seat].count("announcements_correct" if d.get("correct") else "false_announcements")
        elif kind == "manche_ended":
            for f in team(int(d["team"])):
                f.count("combinations_scored")
        elif kind == "countered":
            if d.get("confirmed"):
                per_seat[seat].count("counters_confirmed")
                for f in team(int(d["team"])):
                    f.count("countered_against")
            else:
                per_seat[seat].count("counters_failed")
        elif kind == "signalled" or isinstance(d.get("signal"), dict):  # a sign of its own, or riding on a move
            per_seat[seat].count("signs_sent")


STATS = GameStats(
    extract=extract,
    figures=counts(
        "combinations_scored",
        "announcements_correct",
        "false_announcements",
        "counters_confirmed",
        "counters_failed",
        "countered_against",
        "signs_sent",
    ),
    labels={
        "combinations_scored": gettext_noop("Combinations scored"),
        "announcements_correct": gettext_noop("Correct announcements"),
        "false_announcements": gettext_noop("False announcements"),
        "counters_confirmed": gettext_noop("Counters confirmed"),
        "counters_failed": gettext_noop("Counters failed"),
        "countered_against": gettext_noop("Counters against your team confirmed"),
        "signs_sent": gettext_noop("Signs sent"),
    },
)
