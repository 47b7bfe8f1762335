"""Every REST operation of the OpenAPI schema fuzzed with schemathesis: no answer is a server error.

The schema is the one the app serves (`/api/schema/`); requests go to the
Django app in-process (WSGI), as a signed-in player who hosts an open table
and plays a live match; every other example aims its path parameters at
objects that exist, so more than the 404 branches are fuzzed.
`SOAK_REST_EXAMPLES` (default 15 per operation) sizes the run; try 500
locally.
"""

from __future__ import annotations

import itertools
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
from games import services
from tests.games.factories import started_table, user

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
    open_table = services.table_create(host=host, game="zack", seats=4)
    live, match, _ = started_table(players=1, bots=2, game="zack")
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield {
            "token": token_for(user=host),
            "ids": {"table_id": [open_table.pk, live.pk], "match_id": [match.pk]},
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
