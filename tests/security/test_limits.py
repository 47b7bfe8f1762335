"""Bulk abuse as a script tries it: accounts in a burst from one address, tables in a burst from one account.

Before: 15 sign-ups in a burst from one address and 40 open tables from one account were all accepted.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import token_for
from games.models import Table
from games.services.tables import table_create, table_create_for
from tests.games.factories import user

pytestmark = [pytest.mark.django_db, pytest.mark.core]

PASSWORD = "correct horse 42"
SCRIPT = "198.51.100.23"


@pytest.fixture(autouse=True)
def _fresh(settings) -> None:
    cache.clear()
    settings.SIGNUP_RATE = "5/hour"
    settings.MAX_OPEN_TABLES_PER_USER = 5


def register(name: str, address: str = SCRIPT) -> object:
    return APIClient().post("/api/auth/register/", {"username": name, "password": PASSWORD}, format="json", REMOTE_ADDR=address)


def test_a_burst_of_sign_ups_from_one_address_stops_at_the_limit() -> None:
    answers = [register(f"sock{i}").status_code for i in range(15)]
    assert answers == [201] * 5 + [429] * 10
    refused = register("sock99")
    assert refused.json()["code"] == "rate_limited" and "sign-ups from your address" in refused.json()["detail"]
    assert int(refused["Retry-After"]) > 0
    assert User.objects.filter(username__startswith="sock").count() == 5
    assert register("elsewhere", address="192.0.2.77").status_code == 201  # another address is not affected


def test_the_sign_up_page_counts_against_the_same_limit(client) -> None:
    for i in range(5):
        assert register(f"sock{i}").status_code == 201
    r = client.post("/signup/", {"username": "sock5", "password": PASSWORD}, REMOTE_ADDR=SCRIPT)
    assert r.status_code == 429 and b"Too many sign-ups from your address" in r.content
    assert not User.objects.filter(username="sock5").exists()


def test_one_account_hosts_at_most_the_cap_of_open_tables() -> None:
    host = user("spammer")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=host)}")
    answers = [api.post("/api/tables/", {"game": "tiny", "seats": 2}, format="json") for _ in range(40)]
    assert [a.status_code for a in answers] == [201] * 5 + [409] * 35
    assert answers[-1].json()["code"] == "too_many_tables"
    assert Table.objects.filter(host=host).count() == 5
    # Leaving one (an empty table closes) makes room again; started tables do not count.
    first = answers[0].json()["id"]
    assert api.post(f"/api/tables/{first}/leave/").status_code == 200
    second = answers[1].json()["id"]
    assert api.post(f"/api/tables/{second}/bots/", {"level": "easy"}, format="json").status_code == 200
    assert api.post(f"/api/tables/{second}/start/").status_code == 200
    assert [api.post("/api/tables/", {"game": "tiny", "seats": 2}, format="json").status_code for _ in range(3)] == [201, 201, 409]


def test_tables_the_platform_organises_are_not_a_persons_cap() -> None:
    organiser = user("organiser")
    for _ in range(5):
        table_create(host=organiser, game="tiny", seats=2)
    table = table_create_for(organiser=organiser, game="tiny", players=[(None, "easy"), (None, "easy")], start=False)
    assert table.status == Table.Status.OPEN
