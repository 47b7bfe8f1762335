"""/metrics counts what really happened: committed actions, acks, open sockets, race claims, the pool."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client

from accounts.services import token_for
from config.asgi import application
from games import errors
from games.kit import registry
from games.models import Table
from games.services.actions import action_submit
from games.services.tables import table_create, table_join, table_start
from ops import metrics
from tests.conftest import Clock
from tests.games.factories import started_table, user
from tests.support import presence, racegame

pytestmark = pytest.mark.django_db(transaction=True)
PATHS = ("loop", "cached", "locked")


@pytest.fixture(autouse=True)
def _loopback_reads_metrics(settings: Any) -> None:
    settings.METRICS_ALLOWED = "127.0.0.0/8"  # as on the embedded default, whichever configuration runs the tests


def committed(game: str) -> float:
    return sum(metrics.value("cardtables_actions_committed_total", {"game": game, "path": p}) for p in PATHS)


def scraped(line_start: str) -> float:
    """The value of the first exposition line starting with `line_start`, read from /metrics as a scraper reads it."""
    text = Client(REMOTE_ADDR="127.0.0.1").get("/metrics").content.decode()
    for line in text.splitlines():
        if line.startswith(line_start):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_a_committed_action_is_counted_once_and_a_refused_one_not_at() -> None:
    _, match, _ = started_table(players=2)
    before = committed("tiny")
    card = match.state["hands"][0][0]["id"]
    action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="a1")
    assert committed("tiny") == before + 1
    action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="a1")  # the same id again
    with pytest.raises(errors.PlatformError):
        action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": 10_000}, action_id="a2")
    assert committed("tiny") == before + 1
    assert 'cardtables_actions_committed_total{game="tiny"' in Client(REMOTE_ADDR="127.0.0.1").get("/metrics").content.decode()


@pytest.fixture()
def racey() -> Any:
    registry.register(racegame.RULES)
    yield racegame.RULES
    registry.unregister("racey")


def test_a_race_claim_is_counted_with_its_compensation(racey: Any, clock: Clock) -> None:
    humans = [user(f"m{i}-{Table.objects.count()}") for i in range(2)]
    table = table_create(host=humans[0], game="racey", seats=2, lag_cap_ms=200)
    table_join(table_id=table.pk, user=humans[1])
    match = table_start(table_id=table.pk, by=humans[0])
    presence.socket_open(table.pk, humans[1].pk, "ch-m1")
    claims = metrics.value("cardtables_race_claims_total", {"game": "racey"})
    compensated = metrics.value("cardtables_race_compensation_seconds_sum", {"game": "racey"})
    action_submit(match_id=match.pk, seat=0, action={"kind": "show"}, action_id="s1", rtt_ms=40)
    assert metrics.value("cardtables_race_claims_total", {"game": "racey"}) == claims  # not a race kind
    clock.advance(0.3)
    action_submit(match_id=match.pk, seat=0, action={"kind": "grab"}, action_id="g1", rtt_ms=340)
    assert metrics.value("cardtables_race_claims_total", {"game": "racey"}) == claims + 1
    assert metrics.value("cardtables_race_compensation_seconds_sum", {"game": "racey"}) == pytest.approx(compensated + 0.2)  # capped


@database_sync_to_async
def table_with_tokens() -> tuple[Any, Any, list[str]]:
    table, match, humans = started_table(players=2)
    return table, match, [token_for(user=h) for h in humans]


@pytest.mark.asyncio
async def test_a_socket_is_counted_while_open_and_its_ack_is_timed() -> None:
    table, match, tokens = await table_with_tokens()
    open_before = metrics.value("cardtables_open_sockets", {"kind": "table"})
    acks_before = metrics.value("cardtables_action_ack_seconds_count")
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/?token={tokens[0]}")
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_json_from(timeout=5))["type"] == "hello"
    assert metrics.value("cardtables_open_sockets", {"kind": "table"}) == open_before + 1
    card = match.state["hands"][0][0]["id"]
    await comm.send_json_to({"type": "act", "id": "m1", "action": {"kind": "play", "card": card}})
    while (await comm.receive_json_from(timeout=5))["type"] != "ack":
        pass
    assert metrics.value("cardtables_action_ack_seconds_count") == acks_before + 1
    assert 0 < metrics.value("cardtables_action_ack_seconds_sum") < 1_000_000
    await comm.disconnect()
    assert metrics.value("cardtables_open_sockets", {"kind": "table"}) == open_before


@pytest.mark.asyncio
async def test_lobby_sockets_are_counted() -> None:
    before = metrics.value("cardtables_open_sockets", {"kind": "lobby"})
    comm = WebsocketCommunicator(application, "/ws/lobby/")
    connected, _ = await comm.connect()
    assert connected
    assert metrics.value("cardtables_open_sockets", {"kind": "lobby"}) == before + 1
    await comm.disconnect()
    assert metrics.value("cardtables_open_sockets", {"kind": "lobby"}) == before


def test_the_database_pool_is_reported_on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no connection pool")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    assert scraped('cardtables_db_pool_max{pool="django:default"}') >= 1
    assert scraped('cardtables_db_pool_connections{pool="django:default",state="in_use"}') >= 1  # this test's own connection
