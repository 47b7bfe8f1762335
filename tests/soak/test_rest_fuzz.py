"""Every REST operation of the OpenAPI schema fuzzed with schemathesis: no answer is a server error.

The schema is the one the app serves (`/api/schema/`); requests go to the
Django app in-process (WSGI), as a signed-in player who hosts an open table
and plays a live match; every other example aims its path parameters at
objects that exist, so more than the 404 branches are fuzzed.
`SOAK_REST_EXAMPLES` (default 15 per operation) sizes the run; try 500
locally.

Schemathesis draws values the schema allows (NUL included, but never a lone
surrogate, deep nesting or a number JSON cannot hold), so a second test sends
every operation of the schema the hostile inputs themselves: bodies nested past
Python's recursion limit, lone surrogates and NULs in keys and values, NaN,
1e999, integers past 2^53, giant strings; query parameters with NUL, 10^23,
negative, fractional and signed numbers; a NUL in every path parameter. No
answer is a 5xx, and a refused body or parameter is a 400 in the REST error
shape (`detail`, `code`).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from accounts.services import token_for
from games.services.tables import table_create
from tests.games.factories import started_table, user
from tournaments import services as tournament_services

EXAMPLES = int(os.environ.get("SOAK_REST_EXAMPLES", "15"))

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


REAL_EVERY = 2  # every other example aims its path at objects that exist


@pytest.fixture
def world(db: Any) -> Iterator[dict[str, Any]]:
    """A player hosting an open table and seated at a live ZACK! table.

    Requests reach the WSGI app directly, so, as Django's test client does, the
    request signals must not close the test's connection inside its transaction.
    """
    host = user("fuzzer")
    open_table = table_create(host=host, game="zack", seats=4)
    live, match, _ = started_table(players=1, bots=2, game="zack")
    tournament = tournament_services.tournament_create(organiser=host, name="Fuzz cup", game="zack", format="swiss", table_size=4)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield {
            "token": token_for(user=host),
            "ids": {"table_id": [open_table.pk, live.pk], "match_id": [match.pk], "tournament_id": [tournament.pk]},
            "names": {"slug": ["zack", "smackit"], "username": ["fuzzer"]},
        }
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


_turn = itertools.count()


def aim(case: schemathesis.Case, world: dict[str, Any]) -> None:
    """Point path parameters at real objects every other time, so more than the 404 branch is fuzzed."""
    n = next(_turn)
    if n % REAL_EVERY or not case.path_parameters:
        return
    for name in list(case.path_parameters):
        choices = world["ids"].get(name) or world["names"].get(name)
        if choices:
            case.path_parameters[name] = choices[(n // REAL_EVERY) % len(choices)]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@pytest.mark.django_db
def test_no_rest_operation_answers_a_server_error(case: schemathesis.Case, world: dict[str, Any]) -> None:
    aim(case, world)
    response = case.call(headers={"Authorization": f"Token {world['token']}"})
    case.validate_response(response, checks=[not_a_server_error])


HOSTILE_BODIES = [
    "[" * 50_000 + "]" * 50_000,
    '{"a":' * 900 + "1" + "}" * 900,
    '{"game":"zack\\u0000","seats":4,"username":"\\u0000","name":"x\\u0000","options":{"a":"\\u0000"}}',
    '{"game":"\\ud800","seats":4,"username":"\\udfff","name":"\\ud83d","options":{"\\ud800":1},"level":"\\udc00"}',
    '{"\\u0000":1,"seat":0}',
    '{"seats":NaN,"seat":Infinity,"count":-Infinity,"table_size":1e999}',
    json.dumps(dict.fromkeys(["seats", "seat", "count", "table_size", "rounds", "duration_minutes"], 10**23)),
    '{"seats":-1,"seat":-5,"count":-1,"table_size":-3,"rounds":-1,"no_show_seconds":-1}',
    '{"seats":true,"seat":false,"count":true,"table_size":4.5,"rounds":2.0}',
    json.dumps({"game": "zack", "seats": 4, "name": "x" * 1_000_000, "username": "u" * 100_000}),
    "not json at all",
    "\ufeff{}",
]
HOSTILE_VALUES = ["%00", "a%00b", "100000000000000000000000", "-1", "1.5", "%2B1", "1e3", "%EF%BF%BD", "%ED%A0%80", "x" * 3000]


def _operations() -> list[tuple[str, str, list[str], bool]]:
    out = []
    for path, ops in schema.raw_schema["paths"].items():
        for method, op in ops.items():
            if method in ("get", "post", "put", "patch", "delete"):
                query = [p["name"] for p in op.get("parameters", []) if p["in"] == "query"]
                out.append((method, path, query, "requestBody" in op))
    return out


def _fill(path: str, world: dict[str, Any], bad: str | None = None) -> str:
    for name, choices in {**world["ids"], **world["names"]}.items():
        path = path.replace("{" + name + "}", bad if bad is not None else str(choices[0]))
    return path


def _no_server_error(response: Any, what: str) -> None:
    assert response.status_code < 500, f"{what}: {response.status_code} {response.content[:300]!r}"
    if response.status_code == 400 and response.get("Content-Type", "").startswith("application/json"):
        body = response.json()
        assert isinstance(body, dict) and body, f"{what}: {body!r}"


@pytest.mark.django_db
def test_every_operation_refuses_hostile_input_without_a_server_error(world: dict[str, Any]) -> None:
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {world['token']}")
    for method, path, query, has_body in _operations():
        call = getattr(client, method)
        url = _fill(path, world)
        if "{" in path:
            _no_server_error(call(_fill(path, world, "%00")), f"{method} {path} with NUL in the path")
        for name in query:
            for value in HOSTILE_VALUES:
                _no_server_error(call(f"{url}?{name}={value}"), f"{method} {path}?{name}={value[:30]}")
        if method != "get":
            for body in HOSTILE_BODIES:
                response = call(url, body, content_type="application/json")
                _no_server_error(response, f"{method} {path} body {body[:40]!r}")
                if has_body:
                    assert response.status_code in (400, 401, 403, 404, 409), f"{method} {path} body {body[:40]!r}: {response.status_code}"
