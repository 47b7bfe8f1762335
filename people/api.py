"""REST of people (PROTOCOL.md "People"): following, blocks, challenges, notifications. Thin."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from people import selectors, services
from web.query import request_body


class FollowOut(serializers.Serializer):
    username = serializers.CharField()
    online = serializers.BooleanField(help_text="a table socket open now")
    table = serializers.IntegerField(allow_null=True, help_text="the live table they sit at, or null")


class BlockOut(serializers.Serializer):
    username = serializers.CharField()
    since = serializers.DateTimeField()


class ChallengeIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    game = serializers.CharField(max_length=20)
    seats = serializers.IntegerField(required=False, min_value=1, max_value=12, help_text="default: the game's smallest table")
    ranked = serializers.BooleanField(required=False, default=False)
    options = serializers.DictField(required=False)


class ChallengeOut(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=["pending", "accepted", "declined", "cancelled"])
    game = serializers.CharField()
    challenger = serializers.CharField()
    challenged = serializers.CharField()
    created_at = serializers.DateTimeField()


class NotificationOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["challenge"])
    challenge = ChallengeOut()


class PeopleApi(APIView):
    permission_classes = [IsAuthenticated]


class FollowingApi(PeopleApi):
    @extend_schema(responses={200: FollowOut(many=True)})
    def get(self, request: Request) -> Response:
        return Response(selectors.following(user=request.user))


class FollowApi(PeopleApi):
    """Follow (`POST`, 201 when new) or unfollow (`DELETE`) a player; both answer the following list."""

    @extend_schema(request=None, responses={200: FollowOut(many=True), 201: FollowOut(many=True)})
    def post(self, request: Request, username: str) -> Response:
        new = services.follow_add(user=request.user, username=username)
        return Response(selectors.following(user=request.user), status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)

    @extend_schema(request=None, responses={200: FollowOut(many=True)})
    def delete(self, request: Request, username: str) -> Response:
        services.follow_remove(user=request.user, username=username)
        return Response(selectors.following(user=request.user))


class BlocksApi(PeopleApi):
    @extend_schema(responses={200: BlockOut(many=True)})
    def get(self, request: Request) -> Response:
        return Response(selectors.blocks(user=request.user))


class BlockApi(PeopleApi):
    """Block (`POST`, 201 when new) or unblock (`DELETE`) a player; both answer the block list."""

    @extend_schema(request=None, responses={200: BlockOut(many=True), 201: BlockOut(many=True)})
    def post(self, request: Request, username: str) -> Response:
        new = services.block_add(user=request.user, username=username)
        return Response(selectors.blocks(user=request.user), status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)

    @extend_schema(request=None, responses={200: BlockOut(many=True)})
    def delete(self, request: Request, username: str) -> Response:
        services.block_remove(user=request.user, username=username)
        return Response(selectors.blocks(user=request.user))


class ChallengesApi(PeopleApi):
    @extend_schema(responses={200: ChallengeOut(many=True)})
    def get(self, request: Request) -> Response:
        mine = selectors.challenges_of(user=request.user)
        return Response(mine["received"] + mine["sent"])

    @extend_schema(request=ChallengeIn, responses={201: ChallengeOut})
    def post(self, request: Request) -> Response:
        data = request_body(request, ChallengeIn)
        challenge = services.challenge_create(challenger=request.user, base_url=request.build_absolute_uri("/"), **data)
        return Response(selectors.challenge_payload(challenge), status=status.HTTP_201_CREATED)


class ChallengeAcceptApi(PeopleApi):
    @extend_schema(request=None, responses={200: ChallengeOut})
    def post(self, request: Request, challenge_id: int) -> Response:
        challenge = services.challenge_accept(challenge_id=challenge_id, user=request.user)
        return Response(selectors.challenge_payload(challenge))


class ChallengeDeclineApi(PeopleApi):
    @extend_schema(request=None, responses={200: ChallengeOut})
    def post(self, request: Request, challenge_id: int) -> Response:
        challenge = services.challenge_decline(challenge_id=challenge_id, user=request.user)
        return Response(selectors.challenge_payload(challenge))


class NotificationsApi(PeopleApi):
    """Challenges waiting for the caller's answer, then the answers to the caller's own challenges."""

    @extend_schema(responses={200: NotificationOut(many=True)})
    def get(self, request: Request) -> Response:
        return Response(selectors.notifications(user=request.user))
