"""REST body parsers (REST_FRAMEWORK DEFAULT_PARSER_CLASSES): every body read by live.wire's rules.

DRF's JSONParser catches ValueError only: deep nesting raised RecursionError (a 500), and a
"\\ud800" or "\\u0000" escape inside an `options` key reached the database (a 500 on
PostgreSQL). Here a JSON body is read by `live.wire.loads` (size, depth, text, numbers) and
a form body's fields are held to the same text rule; each refusal is a 400
`{"detail", "code": "bad_json"}` (web.api_errors) and nothing is applied.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import QueryDict
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from live import wire

BAD_BODY = "bad_json"


def _refuse(problem: str) -> ParseError:
    return ParseError(f"request body refused: {problem}", code=BAD_BODY)


def _limit() -> int:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> Any:
        encoding = parsers.get_encoding(parser_context or {})
        raw = stream.read(_limit() + 1) if stream is not None else b""
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise _refuse(f"not {encoding} text") from None
        try:
            return wire.loads(text, max_bytes=_limit())
        except wire.WireError as e:
            raise _refuse(e.message) from None


def _check_fields(data: QueryDict) -> None:
    for key, values in data.lists():
        if wire.text_problem(key) is not None:
            raise _refuse(f"a field name contains {wire.text_problem(key)}")
        for value in values:
            if isinstance(value, str) and wire.text_problem(value) is not None:
                raise _refuse(f"{key} contains {wire.text_problem(value)}")


class FormParser(parsers.FormParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> QueryDict:
        data = super().parse(stream, media_type, parser_context)
        _check_fields(data)
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        _check_fields(parsed.data)
        return parsed
