"""REST for matches and replays (PROTOCOL.md "Matches and replays"). Thin: selectors do the work.

Bad query parameters answer 400 with a `code` naming the parameter
(`bad_perspective`, `bad_from`, `bad_limit`, `bad_at`, ...); a forbidden
perspective 403, an unknown match 404; a large `limit` is capped. A match
whose deal another table still plays (a duplicate tournament round) answers
403 `deal_secret` to everything but its own players' views.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games import errors
from games.api import PlatformApi
from games.kit.registry import all_slugs
from games.models import Match
from replays import selectors
from web.query import OneOfField, QuerySerializer, WholeNumberField, query_params

MAX_PAGE = 100


# The query parameters of each endpoint (web/query.py: a bad one is a 400 `bad_<name>` naming it).
class MatchListQuery(QuerySerializer):
    game = serializers.CharField(required=False, max_length=40)
    player = serializers.CharField(required=False, allow_blank=True, max_length=150)
    status = OneOfField(choices=Match.Status.values, required=False)
    limit = WholeNumberField(min_value=1, required=False)  # read again (capped) by MatchPagination
    offset = WholeNumberField(required=False)

    def validate_game(self, value: str) -> str:
        if value not in all_slugs():
            raise serializers.ValidationError(f"game must be one of {', '.join(all_slugs())}")
        return value


class _UpToSeq(QuerySerializer):
    """A seq is bounded by the match's own: its `seq` comes in the context."""

    def up_to_seq(self, name: str, value: int) -> int:
        if value > self.context["seq"]:
            raise self.fields[name].refuse(self.context["seq"])
        return value


class TimelineQuery(_UpToSeq):
    perspective = serializers.CharField(required=False, max_length=20)
    from_ = WholeNumberField(required=False, default=0)
    limit = WholeNumberField(min_value=1, required=False, default=lambda: selectors.DEFAULT_LIMIT)

    def validate_from(self, value: int) -> int:
        return self.up_to_seq("from", value)


class StateQuery(_UpToSeq):
    perspective = serializers.CharField(required=False, max_length=20)
    at = WholeNumberField(min_value=1, required=False)

    def validate_at(self, value: int) -> int:
        return self.up_to_seq("at", value)


class MatchPagination(LimitOffsetPagination):
    max_limit = MAX_PAGE


# Documentation of the payloads the selectors build (drf-spectacular reads these; nothing is validated).
class SeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.BooleanField()
    level = serializers.CharField(allow_null=True, help_text="bot level (extension)")
    place = serializers.IntegerField(allow_null=True, help_text="extension")
    rating = serializers.DictField(
        allow_null=True, required=False,
        help_text="extension, one match's detail only: {before, after} on the friendly scale (1500 at the start) once a "
        "ranked match is rated, else null",
    )


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
        q = query_params(request, MatchListQuery)
        qs = selectors.match_list(game=q.get("game"), player=q.get("player") or None, status=q.get("status"))
        paginator = MatchPagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response([selectors.match_summary(m) for m in page or []])


class MatchDetailApi(PlatformApi):
    """One match's summary."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: MatchOut})
    def get(self, request: Request, match_id: int) -> Response:
        return Response(selectors.match_summary(selectors.match_get(match_id=match_id), ratings=True))


def _perspective(request: Request, match: Match, value: str | None) -> tuple[str, int | None]:
    perspective, seat = selectors.parse_perspective(value)
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
        q = query_params(request, TimelineQuery, seq=match.seq)
        perspective, seat = _perspective(request, match, q.get("perspective"))
        return Response(selectors.timeline(match=match, perspective=perspective, seat=seat, after=q["from"], limit=q["limit"]))


class StateApi(PlatformApi):
    """The view after event `at` for the perspective (folded from the nearest snapshot)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("at", int, description="a seq from 1 to event_count (default: the last)"), PERSPECTIVE],
        responses={200: StateOut},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_for_replay(match_id=match_id)
        q = query_params(request, StateQuery, seq=match.seq)
        perspective, seat = _perspective(request, match, q.get("perspective"))
        return Response(selectors.view_at(match=match, at=q.get("at", match.seq), perspective=perspective, seat=seat))


class ExportApi(PlatformApi):
    """The whole log of a finished (or aborted) match as one document; `manage.py import_match` reads it.

    409 `match_live` while the match plays; 403 `deal_secret` while another table still plays its deal.
    """

    permission_classes = [AllowAny]

    @extend_schema(responses={200: ExportOut})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(match_id=match_id)
        if match.status == Match.Status.LIVE:
            raise errors.conflict("a live match is exported once it is over", "match_live")
        selectors.check_deal_open(match=match)  # a duplicate twin: its deal is still played elsewhere
        return Response(selectors.export(match=match))
