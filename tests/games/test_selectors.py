"""games.selectors: the one-query table payload says exactly what the ORM's does."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.utils import timezone

from games import selectors
from games.models import Seat, Table, TableConnection, WebProcess
from games.services.tables import table_create
from tests.games.factories import started_table, user

pytestmark = [pytest.mark.django_db, pytest.mark.core]


def both(table_id: int) -> tuple[dict | None, dict]:
    return selectors.table_payload_or_none(table_id), selectors.table_payload(Table.objects.select_related("host").get(pk=table_id))


def socket(table: Table, who: object, process: WebProcess, rtt_ms: int | None) -> None:
    TableConnection.objects.create(
        table=table, user=who, channel_name=f"c-{uuid.uuid4().hex}", process_id=process.pk, opened_at=timezone.now(), rtt_ms=rtt_ms
    )


def test_seats_bots_zombies_presence_and_round_trips_match_the_orm_payload() -> None:
    table, _match, humans = started_table(players=3, bots=1)
    alive = WebProcess.objects.create(id=uuid.uuid4(), seen_at=timezone.now())
    dead = WebProcess.objects.create(id=uuid.uuid4(), seen_at=timezone.now() - dt.timedelta(hours=1))
    socket(table, humans[0], alive, 40)
    socket(table, humans[0], alive, 95)  # a second, slower tab: the longest counts
    socket(table, humans[1], alive, None)  # connected, no pong yet
    socket(table, humans[2], dead, 10)  # its process stopped beating: away, no round trip
    socket(table, user("watcher"), alive, 7)  # a spectator: not a player
    Seat.objects.filter(table=table, seat=1).update(zombie=True)

    fast, orm = both(table.pk)
    assert fast == orm
    players = {p["seat"]: p for p in fast["players"]}
    assert [p["seat"] for p in fast["players"]] == [0, 1, 2, 3]
    assert (players[0]["connected"], players[0]["rtt_ms"]) == (True, 95)
    assert (players[1]["connected"], players[1]["rtt_ms"], players[1]["zombie"]) == (True, None, True)
    assert (players[2]["connected"], players[2]["rtt_ms"]) == (False, None)
    assert (players[3]["bot"], players[3]["connected"], players[3]["rtt_ms"], players[3]["level"]) == (True, True, 0, "normal")
    assert fast["match"] == table.current_match_id and fast["host"] == humans[0].username


def test_an_open_table_without_a_match_a_series_and_a_missing_table() -> None:
    host = user("host")
    table = table_create(host=host, game="zack", seats=3, options={"series": True})
    fast, orm = both(table.pk)
    assert fast == orm
    assert fast["match"] is None and fast["status"] == "open" and fast["series"] is not None
    assert selectors.table_payload_or_none(table.pk + 1000) is None
