"""Pages: leaderboards, and the statistics part of a player's profile. Thin: selectors do the work."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.registry import public_slugs
from replays import ratings, stats_selectors
from replays.stats import GAME_FIGURES

PAGE_SIZE = 50
PROVISIONAL_SHOWN = 50

GENERAL_LABELS = {
    "played": _("Matches played"),
    "won": _("Matches won"),
    "win_rate": _("Win rate"),
    "average_place": _("Average place"),
    "average_events": _("Average match length (events)"),
    "average_seconds": _("Average match length (seconds)"),
}

FIGURE_LABELS = {
    "reaction_median_ms": _("Median reaction time"),
    "challenges_won_slow": _("Challenges won: too slow"),
    "challenges_won_wrong_turn": _("Challenges won: wrong turn"),
    "challenges_lost": _("Challenges lost"),
    "challenged_caught_slow": _("Caught too slow"),
    "challenged_caught_wrong_turn": _("Caught on a wrong turn"),
    "challenged_survived": _("Challenges against you that failed"),
    "out_of_turn_throws": _("Out-of-turn throws"),
    "out_of_turn_caught": _("Out-of-turn throws caught"),
    "colour_errors": _("Colour card errors"),
    "average_final_total": _("Average final total"),
    "calls_won": _("Zwicker calls won"),
    "calls_lost": _("Zwicker calls lost"),
    "snaps_right": _("Snaps right"),
    "snaps_wrong": _("Snaps wrong"),
    "snaps_taken_back": _("Snaps taken back"),
    "powers_used": _("Powers used"),
    "combinations_scored": _("Combinations scored"),
    "announcements_correct": _("Correct announcements"),
    "false_announcements": _("False announcements"),
    "counters_confirmed": _("Counters confirmed"),
    "counters_failed": _("Counters failed"),
    "countered_against": _("Counters against your team confirmed"),
    "signs_sent": _("Signs sent"),
    "smacks_won": _("Smacks won"),
    "smack_reaction_median_ms": _("Median smack reaction time"),
    "false_smacks": _("False smacks"),
    "late_smacks": _("Late smacks (taken back)"),
    "challenge_rounds_won": _("Challenge rounds won"),
}


def _format(key: str, kind: str, value: Any) -> str:
    if value is None:
        return "–"
    if key.endswith("_rate"):
        return f"{value * 100:.0f} %"
    if key.endswith("_ms"):
        return f"{value:.0f} ms"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def figure_rows(game: str, fig: dict[str, Any], general: bool = True) -> list[dict[str, Any]]:
    """Label and formatted value of every figure of one game, in a stable order."""
    rows = []
    if general:
        for key, label in GENERAL_LABELS.items():
            if key in fig:
                rows.append({"key": key, "label": label, "value": _format(key, "", fig[key])})
    for f in GAME_FIGURES.get(game, ()):
        rows.append({"key": f.key, "label": FIGURE_LABELS.get(f.key, f.key), "value": _format(f.key, f.kind, fig.get(f.key))})
    return rows


def profile_games(*, user: User) -> list[dict[str, Any]]:
    """Per game: rating, its history for the chart, the figures and recent matches (the profile page)."""
    stats = stats_selectors.player_stats(user=user)
    out = []
    for slug, fig in stats["games"].items():
        out.append(
            {
                "slug": slug,
                "name": fig["name"],
                "rating": fig["rating"],
                "history": fig["history"],
                "chart_id": f"rating-history-{slug}",
                "rows": figure_rows(slug, fig),
                "positions": fig["positions"],
                "recent": stats_selectors.recent_matches(user=user, game=slug),
            }
        )
    return out


def leaderboards(request: HttpRequest) -> HttpResponse:
    boards = []
    for slug in public_slugs():
        counts = stats_selectors.rating_counts(game=slug)
        boards.append(
            {
                "slug": slug,
                "name": stats_selectors.game_name(slug),
                "top": stats_selectors.leaderboard(game=slug, limit=10),
                "size": counts["established_players"],
                "provisional": counts["rated_players"] - counts["established_players"],
            }
        )
    return render(request, "replays/leaderboard_index.html", {"boards": boards})


def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in public_slugs():
        raise Http404("unknown game")
    game_stats = stats_selectors.game_stats(game=slug)
    size = game_stats["established_players"]
    page = Paginator(range(size), PAGE_SIZE).get_page(request.GET.get("page"))
    offset = (page.number - 1) * PAGE_SIZE
    return render(
        request,
        "replays/leaderboard.html",
        {
            "slug": slug,
            "name": stats_selectors.game_name(slug),
            "page": page,
            "rows": stats_selectors.leaderboard(game=slug, limit=PAGE_SIZE, offset=offset),
            "provisional_rows": stats_selectors.leaderboard(game=slug, limit=PROVISIONAL_SHOWN, provisional=True),
            "provisional_count": game_stats["rated_players"] - size,
            "min_matches": ratings.PROVISIONAL_MATCHES,
            "max_sigma": ratings.PROVISIONAL_SIGMA,
            "game_rows": figure_rows(slug, game_stats, general=False),
            "game_stats": game_stats,
        },
    )
