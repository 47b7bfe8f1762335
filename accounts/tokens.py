"""API tokens that expire: DRF's token, refused once older than TOKEN_MAX_AGE_SECONDS.

A token is a password that travels in every request and in socket URLs (`?token=`), so it must
not live for ever: after its age it stops working everywhere (REST and sockets read the same
rule here), and `POST /api/auth/token/` issues a fresh one. Log-out deletes it (services.token_revoke).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from accounts.models import User


def token_expired(token: Token) -> bool:
    return token.created <= timezone.now() - dt.timedelta(seconds=settings.TOKEN_MAX_AGE_SECONDS)


def user_for_token(key: str) -> User | None:
    """The active user of a current token, or None (unknown, expired, or the account is deactivated)."""
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or token_expired(token) or not token.user.is_active:
        return None
    return token.user


class ExpiringTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>` as in DRF, refused with 401 once the token is too old.

    A token call has no session, so accounts.middleware.UserLanguageMiddleware sees an anonymous user and
    only Accept-Language would choose the answer's words: the account's language is applied here, once
    the token names the account, as the middleware does for the pages."""

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        found = super().authenticate(request)
        language = getattr(found[0], "language", "") if found else ""
        if language:
            translation.activate(language)  # LocaleMiddleware's response phase sets Content-Language from it
            request.LANGUAGE_CODE = language
        return found

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            raise AuthenticationFailed(_("Token expired: ask POST /api/auth/token/ for a new one."))
        return user, token
