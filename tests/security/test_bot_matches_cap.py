"""One account cannot start dozens of bot-only matches at once (docs/security.md "Limits").

Before: one account started 36 six-bot matches at once and the honest bot tables slowed down.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services import token_for
from games.models import Table
from tests.games.factories import user

pytestmark = [pytest.mark.django_db, pytest.mark.core]


def bot_table(api: APIClient, seats: int = 2) -> int:
    r = api.post("/api/tables/", {"game": "tiny", "seats": seats, "sit": False}, format="json")
    assert r.status_code == 201, r.json()
    table_id = r.json()["id"]
    for _ in range(seats):
        assert api.post(f"/api/tables/{table_id}/bots/", {"level": "normal"}, format="json").status_code == 200
    return table_id


def test_a_host_runs_at_most_the_cap_of_bot_only_matches(settings) -> None:
    settings.MAX_BOT_MATCHES_PER_HOST = 3
    settings.MAX_OPEN_TABLES_PER_USER = 10
    host = user("botfarm")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=host)}")
    answers = [api.post(f"/api/tables/{bot_table(api)}/start/", format="json") for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 3 + [409] * 2, [a.json() for a in answers]
    refused = answers[-1].json()
    assert refused["code"] == "too_many_bot_matches" and "bots only" in refused["detail"]
    assert Table.objects.filter(host=host, status=Table.Status.PLAYING).count() == 3
    # Another account is not affected, nor is a table a person plays at.
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=user('honest'))}")
    assert other.post(f"/api/tables/{bot_table(other)}/start/", format="json").status_code == 200
    seated = api.post("/api/tables/", {"game": "tiny", "seats": 2}, format="json").json()["id"]
    assert api.post(f"/api/tables/{seated}/bots/", {"level": "normal"}, format="json").status_code == 200
    assert api.post(f"/api/tables/{seated}/start/", format="json").status_code == 200
