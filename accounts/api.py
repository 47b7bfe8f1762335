"""REST: register, token, log-out, me (PROTOCOL.md "Authentication")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import logout
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.throttling import AddressRateThrottle, LoginAddressThrottle, SignupAddressThrottle, address_wait, wait_minutes
from config.api_errors import field_refusal, refusal


class RegisterIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True)


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


def _rate_limited(message: str, wait: int) -> Response:
    response = Response(refusal(message, "rate_limited"), status=status.HTTP_429_TOO_MANY_REQUESTS)
    response["Retry-After"] = str(wait)
    return response


def _checked(
    request: Request, body: type[serializers.Serializer], throttle: type[AddressRateThrottle], too_many: str
) -> tuple[dict[str, Any], Response | None]:
    """The body validated (a bad one is a 400 first), and the 429 when the address is over its rate
    (`too_many`: the message, with `%(minutes)s`)."""
    data = body(data=request.data)
    data.is_valid(raise_exception=True)
    wait = address_wait(throttle=throttle, request=request)
    refused = None if wait is None else _rate_limited(too_many % {"minutes": wait_minutes(wait)}, wait)
    return dict(data.validated_data), refused


class RegisterApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=RegisterIn,
        responses={201: inline_serializer("Registered", {"id": serializers.IntegerField(), "username": serializers.CharField(), "token": serializers.CharField()})},
    )
    def post(self, request: Request) -> Response:
        data, refused = _checked(request, RegisterIn, SignupAddressThrottle, _("Too many sign-ups from your address. Try again in %(minutes)s min."))
        if refused is not None:
            return refused
        try:
            user = services.user_register(**data)
        except ValidationError as e:
            return Response(field_refusal(e.message_dict), status=status.HTTP_400_BAD_REQUEST)  # PROTOCOL.md: field errors
        return Response(
            {"id": user.id, "username": user.username, "token": services.token_for(user=user)},
            status=status.HTTP_201_CREATED,
        )


class TokenApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(request=TokenIn, responses={200: inline_serializer("TokenOut", {"token": serializers.CharField()})})
    def post(self, request: Request) -> Response:
        data, refused = _checked(request, TokenIn, LoginAddressThrottle, _("Too many log-in attempts from your address. Try again in %(minutes)s min."))
        if refused is not None:
            return refused
        try:
            token = services.token_login(request=request._request, **data)
        except services.LoginThrottledError:
            cooloff = int(settings.AXES_COOLOFF_TIME.total_seconds())
            return _rate_limited(_("Too many failed log-ins. Try again in a few minutes."), cooloff)
        if token is None:
            return Response(refusal("Unable to log in with the given credentials.", "bad_credentials"), status=status.HTTP_400_BAD_REQUEST)
        return Response({"token": token})


class LogoutApi(APIView):
    """Deletes the caller's API token (and ends the session, when called with one)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        services.token_revoke(user=request.user)
        if request.auth is None:  # session authentication: log the browser out too
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: inline_serializer("Me", {"id": serializers.IntegerField(), "username": serializers.CharField()})})
    def get(self, request: Request) -> Response:
        return Response({"id": request.user.id, "username": request.user.username})
