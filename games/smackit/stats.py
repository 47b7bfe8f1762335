"""Smack It! statistics from a match's log (pure; the contract is games/figures.py).

Smacks won, smack reaction time (a won smack's `reaction_ms`; a late smack
counts the winner's reaction plus its `behind_ms`), false and late smacks,
challenge rounds won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.figures import Event, Figure, GameStats, SeatFigures, counts, gettext_noop


def extract(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    last_win: tuple[int, int] | None = None  # (winner seat, its reaction)
    for e in events:
        kind, seat, d = e["kind"], e.get("seat"), e.get("data") or {}
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
        *counts("smacks_won"),
        Figure("smack_reaction_median_ms", "median", "smack_reaction_ms"),
        *counts("false_smacks", "late_smacks", "challenge_rounds_won"),
    ),
    labels={
        "smacks_won": gettext_noop("Smacks won"),
        "smack_reaction_median_ms": gettext_noop("Median smack reaction time"),
        "false_smacks": gettext_noop("False smacks"),
        "late_smacks": gettext_noop("Late smacks (taken back)"),
        "challenge_rounds_won": gettext_noop("Challenge rounds won"),
    },
)
