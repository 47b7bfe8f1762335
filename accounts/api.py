"""REST: register, token, log-out (PROTOCOL.md "Authentication"); me, password, reset, export, deletion ("People")."""

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
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts import self_service, services
from accounts.export import account_export
from accounts.self_service import LANGUAGES
from accounts.throttling import (
    AddressRateThrottle,
    LoginAddressThrottle,
    ResetAddressThrottle,
    SignupAddressThrottle,
    address_wait,
    wait_minutes,
)
from web.api_errors import field_refusal, refusal
from web.query import request_body


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
    data = request_body(request, body)
    wait = address_wait(throttle=throttle, request=request)
    refused = None if wait is None else _rate_limited(too_many % {"minutes": wait_minutes(wait)}, wait)
    return data, refused


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
    """`POST`: a token for a name and password (no authentication); `DELETE`: the caller's token revoked.

    A revoked token stops working at once, and every open socket of the account closes (4401) on
    every web process (accounts/session_end.py, PROTOCOL.md "Fair play")."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    def get_authenticators(self) -> list[Any]:
        if getattr(self, "request", None) is not None and self.request.method == "DELETE":
            return [auth() for auth in api_settings.DEFAULT_AUTHENTICATION_CLASSES]
        return super().get_authenticators()

    def get_permissions(self) -> list[Any]:
        if getattr(self, "request", None) is not None and self.request.method == "DELETE":
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(request=None, responses={204: None}, description="Revoke the caller's API token; its sockets close (4401).")
    def delete(self, request: Request) -> Response:
        services.token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

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


class MeOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField(allow_blank=True)
    language = serializers.ChoiceField(choices=["", *LANGUAGES], help_text="`en`, `de`, `fr`; empty: the browser's")
    date_joined = serializers.DateTimeField()
    sounds = serializers.BooleanField()
    notifications = serializers.BooleanField(help_text="a mail when someone challenges the player")
    email_verified = serializers.BooleanField()


class MeIn(serializers.Serializer):
    email = serializers.EmailField(required=False, allow_blank=True)
    language = serializers.ChoiceField(choices=["", *LANGUAGES], required=False)
    sounds = serializers.BooleanField(required=False)
    notifications = serializers.BooleanField(required=False)


class PasswordIn(serializers.Serializer):
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class PasswordChangeIn(serializers.Serializer):
    old_password = serializers.CharField(max_length=128, trim_whitespace=False)
    new_password = serializers.CharField(max_length=128, trim_whitespace=False)


class PasswordResetIn(serializers.Serializer):
    email = serializers.EmailField(max_length=254)


class PasswordResetConfirmIn(serializers.Serializer):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=128)
    new_password = serializers.CharField(max_length=128, trim_whitespace=False)


class EmailVerifyConfirmIn(serializers.Serializer):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=128)


def me_payload(user: Any) -> dict[str, Any]:
    return {
        "id": user.id, "username": user.username, "email": user.email, "language": user.language,
        "date_joined": user.date_joined.isoformat(), "sounds": user.sounds, "notifications": user.notifications,
        "email_verified": user.email_verified,
    }


def _refused(e: ValidationError) -> Response:
    return Response(field_refusal(e.message_dict), status=status.HTTP_400_BAD_REQUEST)


def site_root(request: Request) -> str:
    """The site's origin as the browser reached it, for links in mails."""
    return request.build_absolute_uri("/")


class MeApi(APIView):
    """The account of the caller: read, change its settings, delete it (PROTOCOL.md "People")."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: MeOut})
    def get(self, request: Request) -> Response:
        return Response(me_payload(request.user))

    @extend_schema(request=MeIn, responses={200: MeOut})
    def patch(self, request: Request) -> Response:
        data = request_body(request, MeIn)
        try:
            user = self_service.account_update(user=request.user, base_url=site_root(request), **data)
        except ValidationError as e:
            return _refused(e)
        return Response(me_payload(user))

    @extend_schema(request=PasswordIn, responses={204: None})
    def delete(self, request: Request) -> Response:
        data = request_body(request, PasswordIn)
        try:
            self_service.account_delete(user=request.user, password=data["password"])
        except ValidationError as e:
            return _refused(e)
        if request.auth is None:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeApi(APIView):
    """A new password: every other session and API token ends; the answer carries a fresh token."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=PasswordChangeIn, responses={200: inline_serializer("PasswordChanged", {"token": serializers.CharField()})})
    def post(self, request: Request) -> Response:
        data = request_body(request, PasswordChangeIn)
        try:
            token = self_service.password_change(user=request.user, request=request._request, **data)
        except ValidationError as e:
            return _refused(e)
        return Response({"token": token})


class PasswordResetApi(APIView):
    """Always 204: whether an account has the address is never told. A mail carries a one-time link."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(request=PasswordResetIn, responses={204: None, 429: None})
    def post(self, request: Request) -> Response:
        data, refused = _checked(request, PasswordResetIn, ResetAddressThrottle, _("Too many requests from your address. Try again in %(minutes)s min."))
        if refused is not None:
            return refused
        self_service.password_reset_request(email=data["email"], base_url=site_root(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetConfirmApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(request=PasswordResetConfirmIn, responses={204: None, 400: None})
    def post(self, request: Request) -> Response:
        data = request_body(request, PasswordResetConfirmIn)
        try:
            self_service.password_reset_confirm(**data)
        except self_service.BadLinkError:
            return Response(refusal(_("This link is used, expired or wrong: ask for a new one."), "bad_link"), status=status.HTTP_400_BAD_REQUEST)
        except ValidationError as e:
            return _refused(e)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EmailVerifyApi(APIView):
    """Mail the caller a link confirming their address (optional; `email_verified` says when it was opened)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        self_service.email_verify_request(user=request.user, base_url=site_root(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class EmailVerifyConfirmApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(request=EmailVerifyConfirmIn, responses={204: None, 400: None})
    def post(self, request: Request) -> Response:
        data = request_body(request, EmailVerifyConfirmIn)
        try:
            self_service.email_verify_confirm(**data)
        except self_service.BadLinkError:
            return Response(refusal(_("This link is used, expired or wrong: ask for a new one."), "bad_link"), status=status.HTTP_400_BAD_REQUEST)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ExportApi(APIView):
    """Every datum the platform keeps about the caller's account, as one JSON document."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: inline_serializer("AccountExport", {
        "format": serializers.CharField(), "exported_at": serializers.DateTimeField(), "account": MeOut(),
        "records": serializers.DictField(child=serializers.ListField(child=serializers.DictField()),
                                          help_text="per kept model (`app.model`), its rows about the account"),
    })})
    def get(self, request: Request) -> Response:
        response = Response(account_export(user=request.user))
        response["Content-Disposition"] = f'attachment; filename="account-{request.user.pk}.json"'
        return response
