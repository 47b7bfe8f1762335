"""REST of matchmaking (PROTOCOL.md "Matchmaking"): join, look at and leave the queue."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import errors
from matchmaking import selectors, services
from web.query import request_body


class QueueIn(serializers.Serializer):
    game = serializers.CharField(max_length=20)
    seats = serializers.IntegerField(min_value=1, max_value=12)


class QueueOut(serializers.Serializer):
    game = serializers.CharField()
    seats = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["waiting"])
    since = serializers.DateTimeField()


class QueueApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: QueueOut})
    def get(self, request: Request) -> Response:
        entry = selectors.my_entry(user_id=request.user.pk)
        if entry is None:
            raise errors.not_found("you are not waiting for a table", "not_queued")
        return Response(selectors.entry_payload(entry))

    @extend_schema(request=QueueIn, responses={201: QueueOut})
    def post(self, request: Request) -> Response:
        entry = services.queue_join(user=request.user, **request_body(request, QueueIn))
        return Response(selectors.entry_payload(entry), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        services.queue_leave(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
