"""REST for matches and replays (PROTOCOL.md "Matches and replays"). Thin: selectors do the work.

Bad query parameters answer 400 with a `code` naming the parameter
(`bad_perspective`, `bad_from`, `bad_limit`, `bad_at`, ...); a forbidden
perspective 403, an unknown match 404; a large `limit` is capped.
"""

from __future__ import annotations

import re

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games import errors
from games.api import PlatformApi
from games.models import Match
from games.registry import all_slugs
from replays import selectors

_WHOLE = re.compile(r"\d{1,15}", re.ASCII)
MAX_PAGE = 100


def _int_param(request: Request, name: str, default: int, *, low: int = 0, high: int | None = None) -> int:
    """A whole number from the query string, or a 400 naming the parameter and its range."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    bounds = f"from {low} to {high}" if high is not None else f"of {low} or more"
    if not _WHOLE.fullmatch(raw):
        raise errors.bad_request(f"{name} must be a whole number {bounds}", f"bad_{name}")
    value = int(raw)
    if value < low or (high is not None and value > high):
        raise errors.bad_request(f"{name} must be a whole number {bounds}", f"bad_{name}")
    return value


class MatchPagination(LimitOffsetPagination):
    max_limit = MAX_PAGE


# Documentation of the payloads the selectors build (drf-spectacular reads these; nothing is validated).
class SeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.BooleanField()
    level = serializers.CharField(allow_null=True, help_text="bot level (extension)")
    place = serializers.IntegerField(allow_null=True, help_text="extension")


class MatchOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Match.Status.values)
    seats = SeatOut(many=True)
    options = serializers.DictField()
    ranked = serializers.BooleanField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.DictField(allow_null=True)
    event_count = serializers.IntegerField()


class MatchPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = MatchOut(many=True)


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField()
    t_ms = serializers.IntegerField()
    kind = serializers.CharField(required=False, help_text="absent when the event is hidden from the perspective")
    seat = serializers.IntegerField(allow_null=True, required=False)
    data = serializers.DictField(required=False)


class TimelineOut(serializers.Serializer):
    match = serializers.IntegerField()
    perspective = serializers.CharField()
    events = EventOut(many=True)
    next = serializers.IntegerField(allow_null=True)


class StateOut(serializers.Serializer):
    seq = serializers.IntegerField()
    view = serializers.DictField()
    state = serializers.JSONField(required=False, help_text="perspective all only: the raw folded state (extension)")


class ExportOut(serializers.Serializer):
    format = serializers.CharField()
    game = serializers.CharField()
    options = serializers.DictField()
    seats = SeatOut(many=True)
    ranked = serializers.BooleanField()
    status = serializers.CharField()
    seed = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.DictField(allow_null=True)
    event_count = serializers.IntegerField()
    events = EventOut(many=True)


class MatchListApi(PlatformApi):
    """Match summaries, newest first, filtered by game, player (username) and status; paginated."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str),
            OpenApiParameter("player", str, description="username"),
            OpenApiParameter("status", str, enum=["live", "finished", "aborted"]),
            OpenApiParameter("limit", int, description=f"page size (default 50, at most {MAX_PAGE})"),
            OpenApiParameter("offset", int),
        ],
        responses={200: MatchPageOut},
    )
    def get(self, request: Request) -> Response:
        game = request.query_params.get("game") or None
        if game is not None and game not in all_slugs():
            raise errors.bad_request(f"game must be one of {', '.join(all_slugs())}", "bad_game")
        status_ = request.query_params.get("status") or None
        if status_ not in (None, *Match.Status.values):
            raise errors.bad_request("status must be live, finished or aborted", "bad_status")
        _int_param(request, "limit", 0, low=1)
        _int_param(request, "offset", 0)
        qs = selectors.match_list(game=game, player=request.query_params.get("player") or None, status=status_)
        paginator = MatchPagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response([selectors.match_summary(m) for m in page or []])


class MatchDetailApi(PlatformApi):
    """One match's summary."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: MatchOut})
    def get(self, request: Request, match_id: int) -> Response:
        return Response(selectors.match_summary(selectors.match_get(match_id=match_id)))


def _perspective(request: Request, match: Match) -> tuple[str, int | None]:
    perspective, seat = selectors.parse_perspective(request.query_params.get("perspective"))
    selectors.check_perspective(match=match, perspective=perspective, seat=seat, user=request.user)
    return perspective, seat


PERSPECTIVE = OpenApiParameter("perspective", str, description="spectator (default), all or seat:N")


class TimelineApi(PlatformApi):
    """Events after `from`, redacted for the perspective; follow `next` until it is null."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            PERSPECTIVE,
            OpenApiParameter("from", int, description="events with seq > from (default 0)"),
            OpenApiParameter("limit", int, description=f"default {selectors.DEFAULT_LIMIT}, capped at {selectors.MAX_LIMIT}"),
        ],
        responses={200: TimelineOut},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_for_replay(match_id=match_id)
        perspective, seat = _perspective(request, match)
        after = _int_param(request, "from", 0, high=match.seq)
        limit = _int_param(request, "limit", selectors.DEFAULT_LIMIT, low=1)
        return Response(selectors.timeline(match=match, perspective=perspective, seat=seat, after=after, limit=limit))


class StateApi(PlatformApi):
    """The view after event `at` for the perspective (folded from the nearest snapshot)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("at", int, description="a seq from 1 to event_count (default: the last)"), PERSPECTIVE],
        responses={200: StateOut},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_for_replay(match_id=match_id)
        perspective, seat = _perspective(request, match)
        at = _int_param(request, "at", match.seq, low=1, high=match.seq)
        return Response(selectors.view_at(match=match, at=at, perspective=perspective, seat=seat))


class ExportApi(PlatformApi):
    """The whole log of a finished (or aborted) match as one document; `manage.py import_match` reads it."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: ExportOut})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(match_id=match_id)
        if match.status == Match.Status.LIVE:
            raise errors.conflict("a live match is exported once it is over", "match_live")
        return Response(selectors.export(match=match))
