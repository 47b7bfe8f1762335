"""WebSocket authentication: the session cookie, or `?token=` for API clients and bots."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import split_domain_port, validate_host
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.http import is_same_domain

from accounts.tokens import user_for_token


class _TokenAuth:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        key = (query.get("token") or [""])[0]
        if key:
            user = await database_sync_to_async(user_for_token)(key)  # expired or revoked: a spectator
            scope = dict(scope, user=user if user is not None else AnonymousUser())
        return await self.inner(scope, receive, send)


def TokenOrSessionAuth(inner: Any) -> Any:  # noqa: N802 - reads like the middleware it builds
    """Session first (browser pages); a `?token=` overrides it."""
    return AuthMiddlewareStack(_TokenAuth(inner))


def origin_allowed(*, origin: str, host: str, secure: bool) -> bool:
    """Whether a browser socket comes from this site, by the rule Django's CSRF check applies to forms.

    Allowed: exactly `scheme://host[:port]` of this request (the Host header, itself one of
    ALLOWED_HOSTS; `https` for a `wss` socket), or an origin of CSRF_TRUSTED_ORIGINS (a deployment
    behind a TLS proxy lists its public origin there). Any other site's page is refused, however
    local it looks: `http://localhost:<any port>` is whatever else runs on the visitor's machine.
    """
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    csrf = CsrfViewMiddleware(lambda request: None)  # its parsed CSRF_TRUSTED_ORIGINS (exact and *.subdomain)
    if origin in csrf.allowed_origins_exact:
        return True
    if any(is_same_domain(parts.netloc, pattern) for pattern in csrf.allowed_origin_subdomains.get(parts.scheme, ())):
        return True
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return origin == f"{'https' if secure else 'http'}://{host}"


class _SameOrigin:
    """Refuse a browser socket from another site (cross-site WebSocket hijacking rides the session cookie).

    A socket without an Origin passes: browsers always send one, so it is a tool or a bot, which
    authenticates with `?token=` (no ambient cookie a foreign page could borrow) and is no CSRF vector.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        if origin is not None:
            host = headers.get(b"host", b"").decode("latin-1")
            secure = scope.get("scheme") == "wss"
            if not origin_allowed(origin=origin.decode("latin-1"), host=host, secure=secure):
                await send({"type": "websocket.close", "code": 4403})
                return None
        return await self.inner(scope, receive, send)


def same_origin_only(inner: Any) -> Any:
    return _SameOrigin(inner)
