"""REST for games and tables (PROTOCOL.md "Games", "Tables"). Thin: services do the work."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors
from games.services.tables import (
    table_add_bot,
    table_create,
    table_join,
    table_leave,
    table_play_now,
    table_rematch,
    table_resign,
    table_start,
)
from games.table_options import TABLE_OPTIONS
from web.query import OneOfField, QuerySerializer, query_params, request_body

ZOMBIE = TABLE_OPTIONS["zombie_seconds"]
LAG_CAP = TABLE_OPTIONS["lag_cap_ms"]
MIN_REACTION = TABLE_OPTIONS["min_reaction_ms"]


class PlatformApi(APIView):
    """The games API's views: a PlatformError becomes its status and `{detail, code}` in
    `web/api_errors.exception_handler`, the one handler of every app (no per-view copy)."""


class TableSerializer(serializers.Serializer):
    """The table of PROTOCOL.md (documentation of the payload selectors build)."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    seats = serializers.IntegerField()
    options = serializers.DictField()
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=["open", "playing", "finished"])
    host = serializers.CharField()
    players = serializers.ListField(child=serializers.DictField())
    match = serializers.IntegerField(allow_null=True)
    zombie_seconds = serializers.IntegerField(help_text=ZOMBIE.help + " (an extension of PROTOCOL.md)")
    lag_cap_ms = serializers.IntegerField(help_text=LAG_CAP.help + " (PROTOCOL.md \"Fair races\")")
    min_reaction_ms = serializers.IntegerField(help_text=MIN_REACTION.help + " (PROTOCOL.md \"Fair play\")")


class TableCreateIn(serializers.Serializer):
    game = serializers.CharField(max_length=20)
    seats = serializers.IntegerField(min_value=1, max_value=12)
    options = serializers.DictField(required=False)
    ranked = serializers.BooleanField(required=False, default=False)
    sit = serializers.BooleanField(required=False, default=True, help_text="false: the host does not sit (a table of bots to watch)")
    # Bounds are checked by the service (400 `bad_option`, as for the game's options), whoever creates the table.
    zombie_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=f"{ZOMBIE.help}: {ZOMBIE.minimum} to {ZOMBIE.maximum}, default {ZOMBIE.default}",
    )
    lag_cap_ms = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=f"{LAG_CAP.help}: {LAG_CAP.minimum} to {LAG_CAP.maximum}, default {LAG_CAP.default}",
    )
    min_reaction_ms = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=f"{MIN_REACTION.help}: {MIN_REACTION.minimum} to {MIN_REACTION.maximum}, default {MIN_REACTION.default}",
    )


class JoinIn(serializers.Serializer):
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=11)


class BotIn(serializers.Serializer):
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=11)
    level = serializers.ChoiceField(choices=["easy", "normal", "hard"], required=False, default="normal")


class PlayNowIn(serializers.Serializer):
    game = serializers.CharField(max_length=20)
    level = serializers.ChoiceField(choices=["easy", "normal", "hard"], required=False, default="normal")


class TableListQuery(QuerySerializer):
    status = OneOfField(choices=["open", "playing", "finished"], required=False)
    game = serializers.CharField(required=False, max_length=20)


def _payload(table_id: int) -> dict[str, Any]:
    return selectors.table_payload(selectors.table_get(table_id=table_id))


class GameListApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: serializers.ListField(child=serializers.DictField())})
    def get(self, request: Request) -> Response:
        return Response(selectors.game_list())


class TableListApi(PlatformApi):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=["open", "playing", "finished"]),
            OpenApiParameter("game", str),
        ],
        responses={200: TableSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        q = query_params(request, TableListQuery)
        tables = selectors.table_list(status=q.get("status"), game=q.get("game"))[:200]
        return Response([selectors.table_payload(t) for t in tables])

    @extend_schema(request=TableCreateIn, responses={201: TableSerializer})
    def post(self, request: Request) -> Response:
        table = table_create(host=request.user, **request_body(request, TableCreateIn))
        return Response(_payload(table.pk), status=status.HTTP_201_CREATED)


class TableDetailApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TableSerializer})
    def get(self, request: Request, table_id: int) -> Response:
        return Response(_payload(table_id))


class TableJoinApi(PlatformApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=JoinIn, responses={200: TableSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        table_join(table_id=table_id, user=request.user, seat=request_body(request, JoinIn).get("seat"))
        return Response(_payload(table_id))


class TableLeaveApi(PlatformApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: TableSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        table = table_leave(table_id=table_id, user=request.user)
        payload = selectors.table_payload_or_none(table_id)
        return Response(payload if payload is not None else {"id": table.pk, "status": "closed"})


class TableBotApi(PlatformApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=BotIn, responses={200: TableSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        table_add_bot(table_id=table_id, by=request.user, **request_body(request, BotIn))
        return Response(_payload(table_id))


class TableStartApi(PlatformApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: TableSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        table_start(table_id=table_id, by=request.user)
        return Response(_payload(table_id))


class TableRematchApi(PlatformApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: TableSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        table_rematch(table_id=table_id, by=request.user)
        return Response(_payload(table_id))


class TableResignApi(PlatformApi):
    """PROTOCOL.md "Leaving a match" (table_resign)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: TableSerializer},
        description="A seated player leaves their live match for good: placed after every player still in at the "
        "end (ranked: a loss), a bot plays the seat on. 403 `not_seated` for anyone else; 409 `not_live` when no "
        "match is live, `resigned` the second time.",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table_resign(table_id=table_id, user=request.user)
        return Response(_payload(table_id))


class TablePlayNowApi(PlatformApi):
    """`POST /api/tables/play-now/ {game, level?}`: an extension of PROTOCOL.md (table_play_now)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=PlayNowIn, responses={201: TableSerializer})
    def post(self, request: Request) -> Response:
        table = table_play_now(user=request.user, **request_body(request, PlayNowIn))
        return Response(_payload(table.pk), status=status.HTTP_201_CREATED)
