"""REST of fair play (PROTOCOL.md "Fair play"): reports, the moderators' queue and actions, my notices."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from moderation import selectors, services
from web.query import request_body


class IsStaff(BasePermission):
    """Staff (`is_staff`) only: anonymous 401, any other account 403."""

    message = "moderation is for staff"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)


class ReportIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    reason = serializers.ChoiceField(choices=list(services.REASONS))
    match = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=2**62)
    text = serializers.CharField(required=False, allow_blank=True, max_length=services.TEXT_MAX)


class ReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    reason = serializers.CharField()
    match = serializers.IntegerField(allow_null=True)
    text = serializers.CharField()
    status = serializers.ChoiceField(choices=["open", "resolved"])
    created_at = serializers.DateTimeField()


class QueueEntry(serializers.Serializer):
    username = serializers.CharField()
    reports = serializers.IntegerField(help_text="open reports about the player")
    flagged = serializers.BooleanField()
    reasons = serializers.ListField(child=serializers.CharField(), help_text="why the fair-play record is flagged")
    evidence = serializers.DictField(help_text="fair_play: the record with its reaction histogram, round trips, "
                                     "p-values and matches; reports: [{by, reason, match, text, at}]")
    active = serializers.BooleanField(help_text="an addition: false once banned")


class ActionIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    action = serializers.ChoiceField(choices=list(services.ACTIONS))
    note = serializers.CharField(required=False, allow_blank=True, max_length=services.TEXT_MAX)


class ActionOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    action = serializers.CharField()
    note = serializers.CharField()
    by = serializers.CharField()
    at = serializers.DateTimeField()


class MyModerationOut(serializers.Serializer):
    muted = serializers.BooleanField()
    marked = serializers.BooleanField()
    actions = serializers.ListField(child=serializers.DictField(), help_text="[{action, note, at}], newest first")


class ReportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReportIn, responses={201: ReportOut})
    def post(self, request: Request) -> Response:
        d = request_body(request, ReportIn)
        report = services.report_create(
            reporter=request.user, username=d["username"], reason=d["reason"], match_id=d.get("match"), text=d.get("text", "")
        )
        return Response(
            {
                "id": report.pk, "username": report.reported.username, "reason": report.reason, "match": report.match_id,
                "text": report.text, "status": "open", "created_at": report.created_at,
            },
            status=status.HTTP_201_CREATED,
        )


class QueueApi(APIView):
    permission_classes = [IsStaff]

    @extend_schema(responses={200: QueueEntry(many=True)})
    def get(self, request: Request) -> Response:
        return Response(selectors.moderation_queue())


class ActionApi(APIView):
    permission_classes = [IsStaff]

    @extend_schema(request=ActionIn, responses={201: ActionOut})
    def post(self, request: Request) -> Response:
        d = request_body(request, ActionIn)
        taken = services.moderation_action_take(by=request.user, username=d["username"], action=d["action"], note=d.get("note", ""))
        return Response(
            {"id": taken.pk, "username": taken.user.username, "action": taken.action, "note": taken.note, "by": request.user.username,
             "at": taken.created_at},
            status=status.HTTP_201_CREATED,
        )


class MyModerationApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MyModerationOut})
    def get(self, request: Request) -> Response:
        return Response(selectors.my_moderation(user=request.user))
