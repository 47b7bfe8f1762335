"""`table_play_now`: one click from the lobby to a started table against bots."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games import errors
from games.kit.registry import public_slugs
from games.models import Table
from games.services.tables import table_add_bot, table_create, table_join, table_play_now, table_start
from tests.games.factories import user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh() -> None:
    cache.clear()


@pytest.mark.parametrize("game", sorted(public_slugs()))
def test_play_now_seats_you_at_a_started_table_of_bots(game: str) -> None:
    ann = user("ann")
    table = table_play_now(user=ann, game=game)
    assert table.status == Table.Status.PLAYING and table.current_match_id and not table.ranked
    seats = list(table.seat_set.select_related("user").order_by("seat"))
    assert seats[0].user == ann and len(seats) == table.seats
    bots = [s.user for s in seats[1:]]
    assert all(b.is_bot for b in bots) and len({b.pk for b in bots}) == len(bots) == table.seats - 1


def test_every_click_opens_a_new_table() -> None:
    """A half-played table is never handed back: the lobby lists it (tables_in_progress) instead."""
    ann = user("ann")
    first = table_play_now(user=ann, game="zack")
    second = table_play_now(user=ann, game="zack")
    assert second.pk != first.pk and second.current_match_id != first.current_match_id
    assert Table.objects.get(pk=first.pk).status == Table.Status.PLAYING  # the first one waits for its player


def test_a_table_with_another_person_is_not_play_now() -> None:
    ann, bob = user("ann"), user("bob")
    table = table_create(host=ann, game="zack", seats=3)
    table_join(table_id=table.pk, user=bob)
    table_add_bot(table_id=table.pk, by=ann)
    table_start(table_id=table.pk, by=ann)
    assert table_play_now(user=ann, game="zack").pk != table.pk


def test_unknown_game_and_level_are_refused() -> None:
    ann = user("ann")
    with pytest.raises(errors.PlatformError) as e:
        table_play_now(user=ann, game="tiny")  # a test game, not in the lobby
    assert e.value.code == "unknown_game"
    with pytest.raises(errors.PlatformError) as e:
        table_play_now(user=ann, game="zack", level="godlike")
    assert e.value.code == "bad_level"


def test_play_now_api() -> None:
    ann = user("ann")
    client = APIClient()
    assert client.post("/api/tables/play-now/", {"game": "zack"}, format="json").status_code in (401, 403)
    client.force_authenticate(ann)
    r = client.post("/api/tables/play-now/", {"game": "zack"}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["status"] == "playing" and body["match"] and body["players"][0]["username"] == "ann"
    assert all(p["bot"] for p in body["players"][1:])
    bad = client.post("/api/tables/play-now/", {"game": "nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "unknown_game"
