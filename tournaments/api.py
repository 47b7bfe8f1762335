"""REST for tournaments (PROTOCOL.md "Tournaments", extended). Thin: services do the work."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from config.query import OneOfField, QuerySerializer, query_params
from games import errors
from games.api import PlatformApi
from tournaments import selectors, services
from tournaments.formats import FORMATS
from tournaments.models import Tournament


class TournamentSerializer(serializers.Serializer):
    """The tournament payload (documentation of what selectors build)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    format = serializers.ChoiceField(choices=list(FORMATS))
    status = serializers.ChoiceField(choices=[s.value for s in Tournament.Status])
    organiser = serializers.CharField()
    table_size = serializers.IntegerField()
    round_count = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.DictField())
    rounds = serializers.ListField(child=serializers.DictField())
    standings = serializers.ListField(child=serializers.DictField())


class CreateIn(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    game = serializers.CharField(max_length=20)
    format = serializers.ChoiceField(choices=list(FORMATS))
    table_size = serializers.IntegerField()
    rounds = serializers.IntegerField(required=False, allow_null=True, help_text="swiss (default 3), round_robin (default: enough for every pair to meet)")
    duration_minutes = serializers.IntegerField(required=False, allow_null=True, help_text="arena: required")
    options = serializers.DictField(required=False, help_text="game options of every table")
    ranked = serializers.BooleanField(required=False, default=False)
    duplicate = serializers.BooleanField(required=False, default=False, help_text="every table of a round plays the same deal")
    starts_at = serializers.DateTimeField(required=False, allow_null=True, help_text="omit: the organiser starts it")
    no_show_seconds = serializers.IntegerField(required=False, default=120, help_text="a player not connected this long after seating is replaced by a bot; 0 = never")
    open = serializers.BooleanField(required=False, default=True, help_text="false: create as a draft, open registration later")


class BotsIn(serializers.Serializer):
    level = serializers.ChoiceField(choices=["easy", "normal", "hard"], required=False, default="normal")
    count = serializers.IntegerField(required=False, default=1)


class PlayerIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class TournamentListQuery(QuerySerializer):
    status = OneOfField(choices=Tournament.Status.values, required=False)
    game = serializers.CharField(required=False, max_length=20)


def _payload(tournament_id: int) -> dict[str, Any]:
    return selectors.tournament_payload(selectors.tournament_get(tournament_id=tournament_id))


def _validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    s = serializer_class(data=data)
    if not s.is_valid():
        field, problems = next(iter(s.errors.items()))
        raise errors.bad_request(f"{field}: {' '.join(str(p) for p in problems)}", f"bad_{field}")
    return dict(s.validated_data)


class TournamentListApi(PlatformApi):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=[s.value for s in Tournament.Status]), OpenApiParameter("game", str)],
        responses={200: serializers.ListField(child=serializers.DictField())},
    )
    def get(self, request: Request) -> Response:
        q = query_params(request, TournamentListQuery)
        qs = selectors.tournament_list(status=q.get("status"), game=q.get("game"))[:200]
        return Response([selectors.tournament_summary(t) for t in qs])

    @extend_schema(request=CreateIn, responses={201: TournamentSerializer})
    def post(self, request: Request) -> Response:
        data = _validated(CreateIn, request.data)
        open_registration = data.pop("open")
        t = services.tournament_create(organiser=request.user, open_registration=open_registration, **data)
        return Response(_payload(t.pk), status=status.HTTP_201_CREATED)


class TournamentDetailApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentSerializer})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_payload(tournament_id))


class StandingsApi(PlatformApi):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: serializers.ListField(child=serializers.DictField())})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_payload(tournament_id)["standings"])


def _action(name: str, call: Any, body: type[serializers.Serializer] | None = None, doc: str = "") -> type[PlatformApi]:
    """One POST endpoint per organiser or player action; all answer with the tournament."""

    class ActionApi(PlatformApi):
        permission_classes = [IsAuthenticated]

        @extend_schema(request=body, responses={200: TournamentSerializer}, description=doc, operation_id=f"tournament_{name}")
        def post(self, request: Request, tournament_id: int) -> Response:
            data = _validated(body, request.data) if body is not None else {}
            call(tournament_id=tournament_id, user=request.user, **data)
            return Response(_payload(tournament_id))

    ActionApi.__name__ = ActionApi.__qualname__ = f"Tournament{name.title().replace('_', '')}Api"
    return ActionApi


RegisterApi = _action("register", lambda tournament_id, user: services.tournament_register(tournament_id=tournament_id, user=user), doc="Register yourself.")
UnregisterApi = _action("unregister", lambda tournament_id, user: services.tournament_unregister(tournament_id=tournament_id, user=user))
OpenApi = _action("open", lambda tournament_id, user: services.tournament_open(tournament_id=tournament_id, by=user), doc="Organiser: open registration of a draft.")
StartApi = _action("start", lambda tournament_id, user: services.tournament_start(tournament_id=tournament_id, by=user), doc="Organiser only.")
PauseApi = _action("pause", lambda tournament_id, user: services.tournament_pause(tournament_id=tournament_id, by=user), doc="Organiser only: no new round or table starts.")
ResumeApi = _action("resume", lambda tournament_id, user: services.tournament_resume(tournament_id=tournament_id, by=user), doc="Organiser only.")
CancelApi = _action("cancel", lambda tournament_id, user: services.tournament_cancel(tournament_id=tournament_id, by=user), doc="Organiser only: live tables are aborted.")
BotsApi = _action(
    "bots",
    lambda tournament_id, user, level, count: services.tournament_add_bots(tournament_id=tournament_id, by=user, level=level, count=count),
    BotsIn,
    "Organiser: register `count` bots of a level, each a distinct named bot account.",
)
RemoveApi = _action(
    "remove",
    lambda tournament_id, user, username: services.tournament_remove_player(tournament_id=tournament_id, by=user, username=username),
    PlayerIn,
    "Organiser: remove a player (withdrawn once running; a bot finishes their table).",
)
ReplaceApi = _action(
    "replace",
    lambda tournament_id, user, username: services.tournament_replace_player(tournament_id=tournament_id, by=user, username=username),
    PlayerIn,
    "Organiser: a bot plays this player's live seat now (a no-show).",
)
