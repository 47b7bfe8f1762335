"""REST: register, token, me (PROTOCOL.md "Authentication")."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services


class RegisterIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True)


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class RegisterApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=RegisterIn,
        responses={201: inline_serializer("Registered", {"id": serializers.IntegerField(), "username": serializers.CharField(), "token": serializers.CharField()})},
    )
    def post(self, request: Request) -> Response:
        data = RegisterIn(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = services.user_register(**data.validated_data)
        except ValidationError as e:
            return Response(e.message_dict, status=status.HTTP_400_BAD_REQUEST)
        return Response(
            {"id": user.id, "username": user.username, "token": services.token_for(user=user)},
            status=status.HTTP_201_CREATED,
        )


class TokenApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(request=TokenIn, responses={200: inline_serializer("TokenOut", {"token": serializers.CharField()})})
    def post(self, request: Request) -> Response:
        data = TokenIn(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = services.login_check(address=request.META.get("REMOTE_ADDR", ""), **data.validated_data)
        except services.LoginThrottledError as e:
            return Response({"detail": str(e)}, status=status.HTTP_429_TOO_MANY_REQUESTS)
        if user is None or user.is_bot:
            return Response({"detail": "Unable to log in with the given credentials."}, status=status.HTTP_400_BAD_REQUEST)
        return Response({"token": services.token_for(user=user)})


class MeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: inline_serializer("Me", {"id": serializers.IntegerField(), "username": serializers.CharField()})})
    def get(self, request: Request) -> Response:
        return Response({"id": request.user.id, "username": request.user.username})
