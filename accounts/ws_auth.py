"""WebSocket authentication: the session cookie, or `?token=` for API clients and bots."""

from __future__ import annotations

from importlib import import_module
from typing import Any
from urllib.parse import parse_qs, urlsplit

from channels.auth import get_user
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.cookie import parse_cookie
from django.http.request import split_domain_port, validate_host
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.http import is_same_domain

from accounts.tokens import user_for_token
from web.middleware import scope_problem


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


class SocketGate:
    """Every socket's handshake, in one middleware: storable text, same origin, then who it is.

    In order: a path, query or header the database could not hold is refused (4400, before
    anything reads it: `web.middleware.scope_problem`); a browser socket from another site is
    refused (4403: cross-site WebSocket hijacking rides the session cookie; a socket without an
    Origin is a tool or a bot, which authenticates with `?token=`, no ambient cookie a foreign page
    could borrow); then the user: `?token=` if given (expired or revoked: a spectator), else the
    session cookie, checked as Django checks it (channels.auth.get_user: the session's auth hash).

    One middleware rather than Channels' stack of four plus ours: each layer copied the scope and
    kept a coroutine frame (and the session wrapper its objects) for the socket's whole life,
    several KB of every open socket (README "Performance", memory per socket). The scope the
    consumer gets carries `user`; no socket reads `session` or `cookies`, and a socket never
    sends the HTTP response the session middleware saves on.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if scope_problem(scope) is not None:
            await send({"type": "websocket.close", "code": 4400})
            return None
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        if origin is not None:
            host = headers.get(b"host", b"").decode("latin-1")
            secure = scope.get("scheme") == "wss"
            if not origin_allowed(origin=origin.decode("latin-1"), host=host, secure=secure):
                await send({"type": "websocket.close", "code": 4403})
                return None
        return await self.inner(dict(scope, user=await socket_user(scope, headers.get(b"cookie"))), receive, send)


async def socket_user(scope: dict, cookie: bytes | None) -> Any:
    """`?token=` first (a bot or API client), else the session cookie's user, else AnonymousUser."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    key = (query.get("token") or [""])[0]
    if key:
        user = await database_sync_to_async(user_for_token)(key)
        return user if user is not None else AnonymousUser()
    session_key = parse_cookie(cookie.decode("latin-1")).get(settings.SESSION_COOKIE_NAME) if cookie else None
    if not session_key:
        return AnonymousUser()
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return await get_user({"session": session})
