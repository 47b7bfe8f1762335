"""Query parameters read by filter serializers: typed, bounded, and a 400 naming the parameter.

Each endpoint declares the parameters it reads as a `QuerySerializer` and calls `query_params`.
Hand-parsing them (`int(raw)`, `request.GET.get(...)` into a query) let an `offset` of 10^23
reach PostgreSQL ("bigint out of range", a 500) and differed from one API to the next.
Text fields are DRF's CharField, which refuses NUL and lone surrogates; whole numbers are
ASCII digits within +-live.wire.MAX_INT unless a field says narrower.
"""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

from games import errors
from live.wire import MAX_INT

_DIGITS = re.compile(r"[0-9]{1,16}", re.ASCII)


class WholeNumberField(serializers.IntegerField):
    """A whole number written as ASCII digits (no sign, blank, `1_000` or other scripts' digits), in bounds."""

    def __init__(self, *, min_value: int = 0, max_value: int = MAX_INT, **kwargs: Any) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def refuse(self, high: int | None = None) -> serializers.ValidationError:
        """The one message of every refusal; `high` when the upper bound is the request's (a match's seq)."""
        high = self.max_value if high is None else high
        return serializers.ValidationError(f"{self.field_name} must be a whole number from {self.min_value} to {high}")

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not (isinstance(data, int) or (isinstance(data, str) and _DIGITS.fullmatch(data))):
            raise self.refuse()
        value = int(data)
        if not self.min_value <= value <= self.max_value:
            raise self.refuse()
        return value


class OneOfField(serializers.ChoiceField):
    """One of a few words; the refusal lists them."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str) or data not in self.choice_strings_to_values:
            raise serializers.ValidationError(f"{self.field_name} must be one of {', '.join(map(str, self.choices))}")
        return self.choice_strings_to_values[data]


class QuerySerializer(serializers.Serializer):
    """A filter serializer over `request.query_params`. A field named with a trailing underscore
    (`from_`) reads the parameter without it (`from`, a Python keyword)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {name.removesuffix("_"): field for name, field in super().get_fields().items()}


def query_params(request: Any, serializer_class: type[QuerySerializer], **context: Any) -> dict[str, Any]:
    """The query parameters `serializer_class` declares, validated; PlatformError 400 `bad_<name>` on the
    first bad one, its message naming the parameter. `context` reaches `validate_<name>` hooks."""
    params = getattr(request, "query_params", None)
    serializer = serializer_class(data=params if params is not None else request.GET, context=context)
    if not serializer.is_valid():
        name, problems = next(iter(serializer.errors.items()))
        detail = " ".join(str(p) for p in problems)
        raise errors.bad_request(detail if detail.startswith(name) else f"{name}: {detail}", f"bad_{name}")
    return dict(serializer.validated_data)


def request_body(request: Any, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
    """The JSON body `serializer_class` declares, validated: a bad one is DRF's ValidationError, which
    web/api_errors.py answers as a 400 `bad_<field>` naming the field. Every API's POST reads its body so,
    one way, instead of writing the serializer's three steps again in each view."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
