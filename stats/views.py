"""Pages: leaderboards and a player's profile. Thin: selectors do the work.

A game's own figures and their labels come from its `games/<slug>/stats.py`
(`games.kit.registry.get_stats`); the labels are English there and translated here.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import user_by_name
from games.kit.registry import get_stats, public_slugs
from games.models import MatchPlayer
from replays.selectors import match_list
from replays.templatetags.plain import duration
from stats import ratings
from stats import selectors as stats_selectors

PAGE_SIZE = 50
PROVISIONAL_SHOWN = 50

# What a player reads of every game's general figures (the API has them all: `average_events`, a count of the
# log's entries, timers and all, says nothing to a player and stays out of the pages).
GENERAL_LABELS = {
    "played": _("Matches played"),
    "won": _("Matches won"),
    "win_rate": _("Win rate"),
    "average_place": _("Average place"),
    "average_seconds": _("Average match length"),
}

def _format(key: str, kind: str, value: Any) -> str:
    if value is None:
        return "–"
    if key.endswith("_rate"):
        return f"{value * 100:.0f} %"
    if key.endswith("_ms"):
        return f"{value:.0f} ms"
    if key.endswith("_seconds"):
        return duration(value)  # "1 min 29 s", never "88.845"
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
    for f in get_stats(game).figures:
        rows.append({"key": f.key, "label": gettext(f.label), "value": _format(f.key, f.kind, fig.get(f.key))})
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
    return render(request, "stats/leaderboard_index.html", {"boards": boards})


def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in public_slugs():
        raise Http404("unknown game")
    game_stats = stats_selectors.game_stats(game=slug)
    size = game_stats["established_players"]
    page = Paginator(range(size), PAGE_SIZE).get_page(request.GET.get("page"))
    offset = (page.number - 1) * PAGE_SIZE
    return render(
        request,
        "stats/leaderboard.html",
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


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: per game rating, history and figures, then the last matches."""
    player = user_by_name(username=username)
    # The player's last 50 matches by id first: match_list(player=...) joins and DISTINCTs every match
    # of the player (seconds for ten thousand matches).
    ids = list(MatchPlayer.objects.filter(user=player).order_by("-match_id").values_list("match_id", flat=True)[:50])
    matches = match_list().filter(pk__in=ids)
    return render(
        request, "stats/profile.html", {"player": player, "matches": matches, "game_stats": profile_games(user=player)}
    )
