"""Every REST error is JSON with a `detail` saying why (PROTOCOL.md: 400/403/404/409), and a `code`
where the platform names one.

PlatformError (games.errors) is answered here for every API view, not only PlatformApi's: the
query-parameter helper (config.query) raises it from any view. A refused body (config.parsers)
keeps DRF's ParseError and gains its `code` (`bad_json`), as does a body over Django's size or
field-count limits (which DRF reads through `request.body`).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.parsers import BAD_BODY
from games.engine import RuleError
from games.errors import PlatformError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response({"detail": exc.message, "code": exc.code}, status=400)
    if isinstance(exc, PlatformError):
        return Response(exc.as_json(), status=exc.status)
    if isinstance(exc, (RequestDataTooBig, TooManyFieldsSent)):
        return Response({"detail": f"request body refused: {exc}", "code": BAD_BODY}, status=400)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, ParseError) and isinstance(response.data, dict):
        response.data["code"] = getattr(exc.detail, "code", None) or exc.default_code
    return response
