"""WebSocket authentication: the session cookie, or `?token=` for API clients and bots."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import validate_host
from rest_framework.authtoken.models import Token


@database_sync_to_async
def _user_for_token(key: str) -> Any:
    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token is not None and token.user.is_active else None


class _TokenAuth:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        key = (query.get("token") or [""])[0]
        if key:
            user = await _user_for_token(key)
            scope = dict(scope, user=user if user is not None else AnonymousUser())
        return await self.inner(scope, receive, send)


def TokenOrSessionAuth(inner: Any) -> Any:  # noqa: N802 - reads like the middleware it builds
    """Session first (browser pages); a `?token=` overrides it."""
    return AuthMiddlewareStack(_TokenAuth(inner))


class _SameOrigin:
    """Refuse a browser socket from another site (cross-site hijacking); tools send no Origin."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        origin = dict(scope.get("headers", [])).get(b"origin")
        if origin:
            host = urlparse(origin.decode("latin-1")).hostname or ""
            if not validate_host(host, settings.ALLOWED_HOSTS) and host not in {"localhost", "127.0.0.1"}:
                await send({"type": "websocket.close", "code": 4403})
                return None
        return await self.inner(scope, receive, send)


def same_origin_only(inner: Any) -> Any:
    return _SameOrigin(inner)
