"""Smack It! statistics from a match's log (pure; the contract is games/kit/figures.py).

Smacks won, smack reaction time (a won smack's `reaction_ms`; a late smack
counts the winner's reaction plus its `behind_ms`), false and late smacks,
challenge rounds won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kit.figures import Event, GameStats, SeatFigures, count, median
from games.kit.figures import gettext_noop as _  # marked for makemessages, translated when shown
from games.kit.stats import counts, moves


def extract(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    last_win: tuple[int, int] | None = None  # (winner seat, its reaction)
    for kind, seat, d, _t in moves(events):
        if kind == "smacked":
            result = d.get("result")
            if result == "win":
                per_seat[seat].count("smacks_won")
                reaction = int(d.get("reaction_ms") or 0)
                per_seat[seat].sample("smack_reaction_ms", reaction)
                last_win = (seat, reaction)
            elif result == "ignored":
                per_seat[seat].count("late_smacks")
                if last_win is not None and last_win[0] == d.get("winner") and seat != last_win[0]:
                    per_seat[seat].sample("smack_reaction_ms", last_win[1] + int(d.get("behind_ms") or 0))
            elif result == "false":
                per_seat[seat].count("false_smacks")
        elif kind == "pile_won" and d.get("by") == "challenge":
            per_seat[seat].count("challenge_rounds_won")


STATS = GameStats(
    extract=extract,
    figures=(
        count("smacks_won", _("Smacks won")),
        median("smack_reaction_median_ms", "smack_reaction_ms", _("Median smack reaction time")),
        *counts(
            {
                "false_smacks": _("False smacks"),
                "late_smacks": _("Late smacks (taken back)"),
                "challenge_rounds_won": _("Challenge rounds won"),
            }
        ),
    ),
)
