"""WebSocket authentication: the session cookie, or `?token=` for API clients and bots."""

from __future__ import annotations

import json
from importlib import import_module
from types import SimpleNamespace
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

from accounts.throttling import client_address
from accounts.tokens import user_for_token
from games.error_texts import player_message, socket_language
from live import socket_limits
from live.sessions import Credential
from ops import metrics
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
    several KB of every open socket (docs/performance.md, memory per socket). The scope the
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
        user = await socket_user(scope, headers.get(b"cookie"))
        credential = socket_credential(scope, headers.get(b"cookie"), user)
        address = socket_address(scope, headers)
        user_id = credential.user_id if credential is not None else None
        refused = socket_limits.admit(user_id=user_id, address=address)
        if refused is not None:
            metrics.socket_refused(reason=refused)
            await _refuse_over_limit(scope, receive, send, refused)
            return None
        try:
            return await self.inner(dict(scope, user=user, credential=credential, address=address), receive, send)
        finally:
            socket_limits.release(user_id=user_id, address=address)


# How a socket past a cap is told (docs/security.md "Limits"): accepted, one `error` frame, then close 4429.
# A handshake refused before accepting reaches the client as a bare HTTP 403, no code or reason.
_OVER_LIMIT = {
    "sockets_per_user": "too many open sockets for this account: close a few tabs and try again",
    "sockets_per_address": "too many open sockets from this address: close a few tabs and try again",
}


async def _refuse_over_limit(scope: dict, receive: Any, send: Any, reason: str) -> None:
    await receive()  # the connect
    await send({"type": "websocket.accept"})
    message = player_message(code="too_many_sockets", fallback=_OVER_LIMIT[reason], language=socket_language(scope))
    frame = {"type": "error", "code": "too_many_sockets", "reason": reason, "message": message}
    await send({"type": "websocket.send", "text": json.dumps(frame)})
    await send({"type": "websocket.close", "code": socket_limits.CLOSE_CODE})


def socket_address(scope: dict, headers: dict[bytes, bytes]) -> str:
    """The client's address as the HTTP throttles see it (accounts.throttling.client_address)."""
    client = scope.get("client") or ("", 0)
    forwarded = headers.get(b"x-forwarded-for")
    meta = {"REMOTE_ADDR": str(client[0] or "")}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded.decode("latin-1")
    return client_address(SimpleNamespace(META=meta))


def socket_credential(scope: dict, cookie: bytes | None, user: Any) -> Credential | None:
    """What a signed-in socket holds (live/sessions.py re-checks it): its token or session, and the auth hash."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    key = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token") or [""])[0]
    kind = "token"
    if not key:
        kind, key = "session", (parse_cookie(cookie.decode("latin-1")).get(settings.SESSION_COOKIE_NAME, "") if cookie else "")
    return Credential(user_id=user.pk, kind=kind, key=key, auth_hash=user.get_session_auth_hash())


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
