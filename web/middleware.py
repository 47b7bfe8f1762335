"""Refuse a request whose URL or headers carry text the database cannot hold (live.wire).

A NUL in a path (`/u/%00/`, `/api/stats/players/%00/`), a query parameter (`?game=%00`,
`?player=%00`) or a header (`Authorization: Token \\0`) reached a lookup and PostgreSQL refused
it: a 500. No URL or header of ours has a use for NUL (RFC 9110 forbids it in field values), so
the request is answered here, before any view or authentication reads it: 400, naming the
parameter; for `/api/` in the REST error shape `{"detail", "code"}`. The socket side
(`accounts.ws_auth.SocketGate`, with `scope_problem`) refuses such a handshake with close code 4400:
`ws/tables/1/?token=%00` reached the token lookup and crashed the handshake.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, JsonResponse

from live import wire

_NAME = re.compile(r"[a-z][a-z0-9_]{0,30}", re.ASCII)


def request_problem(request: HttpRequest) -> tuple[str, str] | None:
    """`(message, code)` for the first part of the URL or headers the database could not hold, or None."""
    if wire.text_problem(request.path):
        return f"the path contains {wire.text_problem(request.path)}", "bad_path"
    for key, values in request.GET.lists():
        if wire.text_problem(key):
            return f"a query parameter name contains {wire.text_problem(key)}", "bad_query"
        for value in values:
            if wire.text_problem(value):
                code = f"bad_{key}" if _NAME.fullmatch(key) else "bad_query"
                return f"query parameter {key} contains {wire.text_problem(value)}", code
    for key, value in request.META.items():
        if key.startswith("HTTP_") and isinstance(value, str) and wire.text_problem(value):
            name = key[5:].replace("_", "-").title()
            return f"header {name} contains {wire.text_problem(value)}", "bad_header"
    return None


class RefuseUnstorableText:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = request_problem(request)
        if problem is None:
            return self.get_response(request)
        message, code = problem
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": message, "code": code}, status=400)
        raise BadRequest(message)  # Django's 400 page


def scope_problem(scope: dict[str, Any]) -> str | None:
    """What in a WebSocket handshake's path, query string or headers the database could not hold, or None."""
    if wire.text_problem(scope.get("path", "")):
        return "path"
    for key, value in parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True):
        if wire.text_problem(key) or wire.text_problem(value):
            return f"query parameter {key!a}"
    for name, value in scope.get("headers", []):
        if b"\x00" in value:
            return f"header {name.decode('latin-1')}"
    return None
