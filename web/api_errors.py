"""One error body for every REST answer of every app: `{"detail": why, "code": what}` (PROTOCOL.md:
400/401/403/404/409/429), plus `rule_code` when a game rule refused it.

Everything is answered here, once (settings REST_FRAMEWORK EXCEPTION_HANDLER), for every API view:

- PlatformError (games.errors), raised by services, selectors and the query-parameter helper
  (web.query), keeps its code and status; its `detail` is in the request's language.
- RuleError (a game's rules) is a 400 with the rule's code.
- A refused body: DRF's field errors (`{field: [messages]}`, what PROTOCOL.md promises for a
  refused sign-up) stay, and gain `detail` (the first field's messages, naming it) and
  `code` `bad_<field>`, as query parameters are refused. Unreadable JSON (web.parsers) and a
  body over Django's size or field-count limits are `bad_json`.
- Any other DRF refusal (401, 403, 404, 405, 429 ...) gains its DRF code (`not_authenticated`,
  `permission_denied`, ...).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engine import RuleError
from games.errors import PlatformError
from web.parsers import BAD_BODY

NON_FIELD = "non_field_errors"


def _messages(problems: Any) -> str:
    if isinstance(problems, dict):  # a nested serializer: its first field's problems
        problems = next(iter(problems.values()), "")
    if isinstance(problems, list):
        return " ".join(_messages(p) for p in problems)
    return str(problems)


def refusal(detail: str, code: str) -> dict[str, str]:
    """The error body (for answers written by hand, e.g. a 429 carrying Retry-After)."""
    return {"detail": detail, "code": code}


def field_refusal(errors: Any) -> dict[str, Any]:
    """DRF's field errors with the common `detail` and `code` added (the first field names both)."""
    if not isinstance(errors, dict) or not errors:
        return refusal(_messages(errors) or "bad request", "bad_request")
    field, problems = next(iter(errors.items()))
    detail = _messages(problems)
    if field == NON_FIELD:
        return {**errors, **refusal(detail, "bad_request")}
    return {**errors, **refusal(detail if detail.startswith(str(field)) else f"{field}: {detail}", f"bad_{field}")}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response(refusal(exc.message, exc.code), status=400)
    if isinstance(exc, PlatformError):
        return Response(exc.as_json(), status=exc.status)
    if isinstance(exc, (RequestDataTooBig, TooManyFieldsSent)):
        return Response(refusal(f"request body refused: {exc}", BAD_BODY), status=400)
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, APIException):
        return response
    if isinstance(exc, ValidationError):
        response.data = field_refusal(response.data)
    elif isinstance(response.data, dict) and "code" not in response.data:
        response.data["code"] = getattr(exc.detail, "code", None) or exc.default_code
    return response
