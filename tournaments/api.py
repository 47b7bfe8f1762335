"""REST for tournaments (PROTOCOL.md "Tournaments", extended). Thin: services do the work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import PlatformApi
from tournaments import selectors, services
from tournaments.formats import FORMATS
from tournaments.models import Tournament
from web.query import OneOfField, QuerySerializer, query_params, request_body


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
        data = request_body(request, CreateIn)  # web/api_errors.py: 400 `bad_<field>` naming the field
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


class TournamentActionApi(PlatformApi):
    """One organiser or player action: a POST whose body (`body`, if any) is validated, then `service` runs
    with the tournament, the user (as `actor`: `by` for the organiser's actions, `user` for a player's own)
    and the body's fields; every action answers with the tournament. Each action is one `_action` below."""

    permission_classes = [IsAuthenticated]
    body: type[serializers.Serializer] | None = None
    service: Callable[..., Any]
    actor = "by"

    def post(self, request: Request, tournament_id: int) -> Response:
        data = {} if self.body is None else request_body(request, self.body)
        self.service(tournament_id=tournament_id, **{self.actor: request.user}, **data)
        return Response(_payload(tournament_id))


def _action(
    name: str, service: Callable[..., Any], doc: str = "", body: type[serializers.Serializer] | None = None, actor: str = "by"
) -> type[TournamentActionApi]:
    """The view of one action, with its own schema (its POST is inherited, so drf-spectacular isolates it per class)."""
    view = type(f"{name.title()}Api", (TournamentActionApi,), {"service": staticmethod(service), "body": body, "actor": actor, "__doc__": doc})
    schema = extend_schema(request=body, responses={200: TournamentSerializer}, description=doc, operation_id=f"tournament_{name}")
    ACTIONS[name] = extend_schema_view(post=schema)(view)
    return ACTIONS[name]


# Every action by its name, which is also its route (tournaments/urls.py).
ACTIONS: dict[str, type[TournamentActionApi]] = {}


RegisterApi = _action("register", services.tournament_register, "Register yourself.", actor="user")
UnregisterApi = _action("unregister", services.tournament_unregister, actor="user")
OpenApi = _action("open", services.tournament_open, "Organiser: open registration of a draft.")
StartApi = _action("start", services.tournament_start, "Organiser only.")
PauseApi = _action("pause", services.tournament_pause, "Organiser only: no new round or table starts.")
ResumeApi = _action("resume", services.tournament_resume, "Organiser only.")
CancelApi = _action("cancel", services.tournament_cancel, "Organiser only: live tables are aborted.")
BotsApi = _action("bots", services.tournament_add_bots, "Organiser: register `count` bots of a level, each a distinct named bot account.", BotsIn)
RemoveApi = _action("remove", services.tournament_remove_player, "Organiser: remove a player (withdrawn once running; a bot finishes their table).", PlayerIn)
ReplaceApi = _action("replace", services.tournament_replace_player, "Organiser: a bot plays this player's live seat now (a no-show).", PlayerIn)
