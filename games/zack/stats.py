"""ZACK! statistics from a match's log (pure; the contract is games/kit/figures.py).

Reaction time = from the `thrown` card that made it your turn (a card thrown by
someone else) to your own in-turn throw; turns given by a challenge, a `choose`
or the deal, and cards you threw yourself (a Stop card sending you again) are
not reactions. Challenges won by reason and lost, challenges against you,
out-of-turn throws and how many were caught: an out-of-turn card is caught when
a `wrong_turn` challenge against its thrower succeeds while it lies among the
four topmost cards of the box.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.kit.figures import Event, GameStats, SeatFigures, median
from games.kit.figures import gettext_noop as _  # marked for makemessages, translated when shown
from games.kit.stats import counts, moves


def extract(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    turn: int | None = None
    given_by: int | None = None  # the thrower of the card that made it `turn`'s turn (None: not a card)
    since = 0
    box: list[dict[str, Any]] = []  # what lies in the box: {seat, oot} for cards, {seat, colour} for colour cards
    for kind, seat, d, t in moves(events):
        if kind == "dealt":
            turn, given_by, since = d.get("first"), None, t
        elif kind == "thrown":
            me = per_seat[seat]
            me.count("throws")
            oot = bool(d.get("out_of_turn"))
            if oot:
                me.count("out_of_turn_throws")
            elif given_by is not None and given_by != seat and turn == seat:
                me.sample("reaction_ms", t - since)
            box.append({"seat": seat, "oot": oot})
            turn, given_by, since = d.get("next"), seat, t
        elif kind == "colour_thrown":
            if not d.get("win"):
                per_seat[seat].count("colour_errors")
                box.append({"seat": seat, "colour": True})
        elif kind == "challenged":
            _challenge(d, per_seat, box)
            box = []
            turn, given_by, since = d.get("next"), None, t
        elif kind == "chosen":
            turn, given_by, since = d.get("target_seat"), None, t


def _challenge(d: Mapping[str, Any], per_seat: list[SeatFigures], box: list[dict[str, Any]]) -> None:
    """Count one challenge for both sides; a won `wrong_turn` catches the target's out-of-turn cards on top."""
    by, target = d["by"], d["target_seat"]
    if d.get("result") != "success":
        per_seat[by].count("challenges_lost")
        per_seat[target].count("challenged_survived")
        return
    reason = d.get("reason")
    per_seat[by].count(f"challenges_won_{reason}")
    per_seat[target].count(f"challenged_caught_{reason}")
    if reason == "wrong_turn":
        caught = sum(1 for x in box[-4:] if x["seat"] == target and x.get("oot"))
        if caught:
            per_seat[target].count("out_of_turn_caught", caught)


STATS = GameStats(
    extract=extract,
    figures=(
        median("reaction_median_ms", "reaction_ms", _("Median reaction time")),
        *counts(
            {
                "challenges_won_slow": _("Challenges won: too slow"),
                "challenges_won_wrong_turn": _("Challenges won: wrong turn"),
                "challenges_lost": _("Challenges lost"),
                "challenged_caught_slow": _("Caught too slow"),
                "challenged_caught_wrong_turn": _("Caught on a wrong turn"),
                "challenged_survived": _("Challenges against you that failed"),
                "out_of_turn_throws": _("Out-of-turn throws"),
                "out_of_turn_caught": _("Out-of-turn throws caught"),
                "colour_errors": _("Colour card errors"),
            }
        ),
    ),
)
