"""REST for matches and replays (PROTOCOL.md "Matches and replays")."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games import errors
from games.api import PlatformApi
from games.models import Match
from replays import selectors


def _int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise errors.bad_request(f"{name} must be a whole number", f"bad_{name}") from None
    if value < 0:
        raise errors.bad_request(f"{name} must not be negative", f"bad_{name}")
    return value


class MatchListApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str),
            OpenApiParameter("player", str),
            OpenApiParameter("status", str, enum=["live", "finished", "aborted"]),
            OpenApiParameter("limit", int),
            OpenApiParameter("offset", int),
        ],
        responses={200: serializers.DictField()},
    )
    def get(self, request: Request) -> Response:
        status_ = request.query_params.get("status") or None
        if status_ not in (None, *Match.Status.values):
            raise errors.bad_request("status must be live, finished or aborted", "bad_status")
        qs = selectors.match_list(
            game=request.query_params.get("game") or None,
            player=request.query_params.get("player") or None,
            status=status_,
        )
        paginator = LimitOffsetPagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response([selectors.match_summary(m) for m in page or []])


class MatchDetailApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: serializers.DictField()})
    def get(self, request: Request, match_id: int) -> Response:
        return Response(selectors.match_summary(selectors.match_get(match_id=match_id)))


def _perspective(request: Request, match: Match) -> tuple[str, int | None]:
    perspective, seat = selectors.parse_perspective(request.query_params.get("perspective"))
    selectors.check_perspective(match=match, perspective=perspective, seat=seat, user=request.user)
    return perspective, seat


class TimelineApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("perspective", str), OpenApiParameter("from", int), OpenApiParameter("limit", int)],
        responses={200: serializers.DictField()},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(match_id=match_id)
        perspective, seat = _perspective(request, match)
        after = _int_param(request, "from", 0)
        limit = _int_param(request, "limit", selectors.DEFAULT_LIMIT)
        if limit == 0:
            raise errors.bad_request("limit must be at least 1", "bad_limit")
        return Response(selectors.timeline(match=match, perspective=perspective, seat=seat, after=after, limit=limit))


class StateApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("at", int), OpenApiParameter("perspective", str)],
        responses={200: serializers.DictField()},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(match_id=match_id)
        perspective, seat = _perspective(request, match)
        at = _int_param(request, "at", match.seq)
        if at > match.seq:
            raise errors.bad_request(f"at must be at most {match.seq}", "bad_at")
        return Response(selectors.view_at(match=match, at=at, perspective=perspective, seat=seat))


class ExportApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: serializers.DictField()})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(match_id=match_id)
        if match.status == Match.Status.LIVE:
            raise errors.conflict("a live match is exported once it is over", "match_live")
        return Response(selectors.export(match=match))
