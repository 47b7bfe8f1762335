"""Every REST error is JSON with a `detail` saying why (PROTOCOL.md: 400/403/404/409)."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engine import RuleError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response({"detail": exc.message, "code": exc.code}, status=400)
    return drf_exception_handler(exc, context)
