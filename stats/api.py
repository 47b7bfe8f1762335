"""REST for statistics and leaderboards (PROTOCOL.md "Statistics"). Thin: selectors do the work."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from games import errors
from games.api import PlatformApi
from stats import selectors as stats_selectors
from web.query import QuerySerializer, WholeNumberField, query_params


# The query parameters (web/query.py: a bad one is a 400 `bad_<name>` naming it). A `limit` or
# `history` beyond what is served is capped, as before; beyond live.wire.MAX_INT it is refused.
class PlayerStatsQuery(QuerySerializer):
    history = WholeNumberField(required=False, default=stats_selectors.HISTORY_POINTS)


class LeaderboardQuery(QuerySerializer):
    limit = WholeNumberField(required=False, default=stats_selectors.LEADERBOARD_LIMIT)
    offset = WholeNumberField(required=False, default=0)
    provisional = serializers.BooleanField(required=False, default=False)


def _game_or_404(slug: str) -> str:
    if not stats_selectors.game_known(slug):
        raise errors.not_found(f"unknown game {slug!r}", "unknown_game")
    return slug


class RatingSerializer(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    display = serializers.FloatField(help_text="the conservative figure (mu - 3 sigma) used for ranking")
    friendly = serializers.IntegerField(help_text="an addition: the figure people read, 1500 + 40 x display (1500 at the start)")
    friendly_spread = serializers.IntegerField(help_text="an addition: ± how far `friendly` may still be off (40 x sigma)")
    provisional = serializers.BooleanField(help_text="too few rated matches or too uncertain for the top list")
    rated_matches = serializers.IntegerField()


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True)
    username = serializers.CharField()
    bot = serializers.BooleanField()
    rating = RatingSerializer()
    played = serializers.IntegerField(help_text="ranked matches rated")


class PlayerStatsSerializer(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField()
    games = serializers.DictField(
        child=serializers.DictField(),
        help_text="per game slug: played, won, win_rate, average_place, average_events, average_seconds, "
        "positions, rating (or null), history [{match, at, mu, sigma, display, place}], and the game's own figures",
    )
    fair_play = serializers.DictField(
        required=False,
        help_text="staff only (PROTOCOL.md \"Fair play\"): {races, judged_median_ms, anticipations, rtt_inflated, flagged, reasons}",
    )


class GameStatsSerializer(serializers.Serializer):
    game = serializers.CharField()
    name = serializers.CharField()
    matches = serializers.IntegerField()
    average_events = serializers.FloatField(allow_null=True)
    average_seconds = serializers.FloatField(allow_null=True)
    positions = serializers.ListField(child=serializers.DictField(), help_text="[{seats, position, played, won, win_rate}]")
    rated_players = serializers.IntegerField()
    established_players = serializers.IntegerField(help_text="rated players that are not provisional; the game's own figures follow")


class PlayerStatsApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("history", int, description="at most this many rating history points (default 200)")],
        responses={200: PlayerStatsSerializer},
    )
    def get(self, request: Request, username: str) -> Response:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise errors.not_found(f"no player {username!r}", "unknown_player")
        points = min(query_params(request, PlayerStatsQuery)["history"], 2000)
        payload = stats_selectors.player_stats(user=user, history_points=max(points, 2))
        if request.user.is_staff:  # PROTOCOL.md "Fair play": the record is for staff alone
            from moderation.selectors import fair_play_of

            payload["fair_play"] = fair_play_of(user=user)
        return Response(payload)


class GameStatsApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: GameStatsSerializer})
    def get(self, request: Request, slug: str) -> Response:
        return Response(stats_selectors.game_stats(game=_game_or_404(slug)))


class LeaderboardApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("limit", int, description=f"at most {stats_selectors.LEADERBOARD_MAX}"),
            OpenApiParameter("offset", int),
            OpenApiParameter("provisional", bool, description="list the provisional ratings (unranked) instead"),
        ],
        responses={200: LeaderboardEntrySerializer(many=True)},
    )
    def get(self, request: Request, slug: str) -> Response:
        game = _game_or_404(slug)
        q = query_params(request, LeaderboardQuery)
        return Response(stats_selectors.leaderboard(game=game, limit=min(q["limit"], stats_selectors.LEADERBOARD_MAX), offset=q["offset"], provisional=q["provisional"]))
