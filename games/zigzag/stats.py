"""ZIGZAG statistics from a match's log (pure; the contract is games/kit/figures.py).

Combinations scored by your team, correct and false announcements, counters
confirmed and failed, counters against your team confirmed, signs sent. Partners
are seat `t` and `t + seats/2` (team `t`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kit.figures import Event, GameStats, SeatFigures
from games.kit.figures import gettext_noop as _  # marked for makemessages, translated when shown
from games.kit.stats import counts, moves


def extract(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    half = len(per_seat) // 2

    def team(t: int) -> list[SeatFigures]:
        return [per_seat[t], per_seat[t + half]]

    for kind, seat, d, _t in moves(events):
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
        {
            "combinations_scored": _("Combinations scored"),
            "announcements_correct": _("Correct announcements"),
            "false_announcements": _("False announcements"),
            "counters_confirmed": _("Counters confirmed"),
            "counters_failed": _("Counters failed"),
            "countered_against": _("Counters against your team confirmed"),
            "signs_sent": _("Signs sent"),
        }
    ),
)
