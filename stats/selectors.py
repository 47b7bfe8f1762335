"""Reads for ratings, statistics and leaderboards (PROTOCOL.md "Statistics").

Everything here reads stored rows only (tallies, ratings, the history), never
an event log, so a player with ten thousand matches or a leaderboard of a
hundred thousand players answers in a few queries on indexes.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber

from accounts.models import User
from games.kit.registry import all_slugs, get_rules
from games.models import Match, MatchPlayer
from stats import ratings
from stats.figures import figures, tally_empty
from stats.models import GameStats, PlayerGameStats, Rating, RatingChange

HISTORY_POINTS = 200
LEADERBOARD_LIMIT = 100
LEADERBOARD_MAX = 500


def game_known(slug: str) -> bool:
    return slug in all_slugs()


def game_name(slug: str) -> str:
    try:
        return str(get_rules(slug).name)
    except KeyError:
        return slug


def _order(slugs: set[str]) -> list[str]:
    known = all_slugs()
    return sorted(slugs, key=lambda s: (known.index(s) if s in known else len(known), s))


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def rating_payload(row: Rating | None, *, with_rank: bool = False) -> dict[str, Any] | None:
    """`{mu, sigma, display}` of PROTOCOL.md, plus whether it is provisional (and the rank)."""
    if row is None:
        return None
    out: dict[str, Any] = {
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "display": round(row.display, 2),
        # Additions (PROTOCOL.md's rating keeps {mu, sigma, display}): the figure people read, ± its spread.
        "friendly": ratings.friendly_of(row.display),
        "friendly_spread": ratings.friendly_spread(row.sigma),
        "provisional": row.provisional,
        "rated_matches": row.rated_matches,
    }
    if with_rank:
        out["rank"] = rank_of(row)
    return out


def rank_of(row: Rating) -> int | None:
    """The place in the top list (None while provisional)."""
    if row.provisional:
        return None
    better = Rating.objects.filter(game=row.game, provisional=False).filter(
        Q(display__gt=row.display) | Q(display=row.display, user_id__lt=row.user_id)
    )
    return better.count() + 1


def rating_history(*, user: User, game: str, points: int = HISTORY_POINTS) -> list[dict[str, Any]]:
    """The rating after each ranked match, oldest first, thinned evenly to at most `points` (the last kept).

    The thinning happens in the database (a row number per change), so a
    player with ten thousand ranked matches costs two hundred rows, not ten
    thousand.
    """
    qs = RatingChange.objects.filter(user=user, game=game)
    total = qs.count()
    if total > points:
        step = total / points
        wanted = sorted({int(i * step) + 1 for i in range(points - 1)} | {total})
        qs = qs.annotate(n=Window(RowNumber(), order_by=[F("ended_at").asc(), F("match_id").asc()])).filter(n__in=wanted)
    rows = qs.order_by("ended_at", "match_id").values_list("match_id", "ended_at", "mu", "sigma", "display", "place")
    return [
        {"match": m, "at": at.isoformat(), "mu": round(mu, 3), "sigma": round(sg, 3), "display": round(d, 2), "place": p,
         "friendly": ratings.friendly_of(d), "friendly_spread": ratings.friendly_spread(sg)}
        for m, at, mu, sg, d, p in rows
    ]


GENERAL_RATIOS = ("win_rate", "average_place", "average_events", "average_seconds")


def _general(fig: dict[str, Any]) -> dict[str, Any]:
    """Rates and averages to three decimals, the game's own medians and means to one."""
    for row in fig["positions"]:
        row["win_rate"] = _round(row["win_rate"], 3)
    for key, value in fig.items():
        if isinstance(value, float):
            fig[key] = _round(value, 3 if key in GENERAL_RATIOS else 1)
    return fig


def player_stats(*, user: User, history_points: int = HISTORY_POINTS) -> dict[str, Any]:
    """`{username, games: {slug: {played, won, rating, history, ...}}}` for one player."""
    tallies = dict(PlayerGameStats.objects.filter(user=user).values_list("game", "tally"))
    rating_rows = {r.game: r for r in Rating.objects.filter(user=user)}
    games: dict[str, Any] = {}
    for slug in _order(set(tallies) | set(rating_rows)):
        fig = _general(figures(tallies.get(slug) or tally_empty(), slug))
        fig["name"] = game_name(slug)
        fig["rating"] = rating_payload(rating_rows.get(slug), with_rank=True)
        fig["history"] = rating_history(user=user, game=slug, points=history_points) if slug in rating_rows else []
        games[slug] = fig
    return {"username": user.username, "bot": user.is_bot, "games": games}


def game_stats(*, game: str) -> dict[str, Any]:
    """Aggregate figures of one game: `played` counts matches, the game's own figures sum every seat."""
    tally = GameStats.objects.filter(game=game).values_list("tally", flat=True).first() or tally_empty()
    fig = _general(figures(tally, game))
    fig.pop("won", None)
    fig.pop("win_rate", None)
    fig.pop("average_place", None)
    out: dict[str, Any] = {"game": game, "name": game_name(game), "matches": fig.pop("played"), **fig}
    out.update(rating_counts(game=game))
    return out


def rating_counts(*, game: str) -> dict[str, int]:
    """How many players of a game are rated, and how many of them are established (one query)."""
    counts = Rating.objects.filter(game=game).aggregate(
        rated_players=Count("id"), established_players=Count("id", filter=Q(provisional=False))
    )
    return {"rated_players": counts["rated_players"], "established_players": counts["established_players"]}


def leaderboard(
    *, game: str, limit: int = LEADERBOARD_LIMIT, offset: int = 0, provisional: bool = False
) -> list[dict[str, Any]]:
    """Ranked `[{rank, username, rating, played}]` by `display`; provisional ratings listed apart, unranked."""
    limit = max(1, min(limit, LEADERBOARD_MAX))
    order = ("-display", "user_id")
    # The page's players first (an index-only scan of `leaderboard_order`, however deep the offset),
    # then those rows with their users.
    rows = Rating.objects.filter(game=game, provisional=provisional).order_by(*order)
    users = list(rows.values_list("user_id", flat=True)[offset : offset + limit])
    qs = Rating.objects.filter(game=game, user_id__in=users).select_related("user").order_by(*order)
    return [
        {
            "rank": None if provisional else offset + i + 1,
            "username": r.user.username,
            "bot": r.user.is_bot,
            "rating": rating_payload(r),
            "played": r.rated_matches,
        }
        for i, r in enumerate(qs)
    ]


def recent_matches(*, user: User, game: str, limit: int = 5) -> list[dict[str, Any]]:
    """A player's last finished matches of one game, with place and rating change (ranked ones)."""
    mine = MatchPlayer.objects.filter(user=user).values("match_id")
    matches = list(
        Match.objects.filter(pk__in=mine, game=game, status=Match.Status.FINISHED).order_by("-id").only(
            "id", "ended_at", "ranked", "seats"
        )[:limit]
    )
    places = dict(MatchPlayer.objects.filter(match__in=matches, user=user).values_list("match_id", "place"))
    changes = {
        c.match_id: c for c in RatingChange.objects.filter(match__in=matches, user=user).only("match_id", "display", "mu_before", "sigma_before")
    }
    out = []
    for m in matches:
        c = changes.get(m.pk)
        delta = None if c is None else round(c.display - ratings.display_of(c.mu_before, c.sigma_before), 2)
        friendly = None if delta is None else round(ratings.FRIENDLY_SCALE * delta)
        out.append({"match": m.pk, "ended_at": m.ended_at, "ranked": m.ranked, "place": places.get(m.pk), "seats": m.seats,
                    "delta": delta, "friendly_delta": friendly})
    return out
