"""A stolen or forgotten API token, used as an attacker would: after log-out, and after its age.

Before: a token never expired and outlived log-out, on REST and on sockets (`?token=`).
"""

from __future__ import annotations

import datetime as dt

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.services import token_for
from tests.games.factories import user
from tests.games.test_consumers import connect, setup_table

PASSWORD = "correct horse 42"


@pytest.fixture(autouse=True)
def _fresh() -> None:
    cache.clear()


def me(key: str) -> int:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return c.get("/api/me/").status_code


def age(key: str, seconds: float) -> None:
    Token.objects.filter(key=key).update(created=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds))


@pytest.mark.django_db
@pytest.mark.core
def test_logging_out_on_the_page_ends_the_token() -> None:
    person = user("ada")
    key = APIClient().post("/api/auth/token/", {"username": "ada", "password": PASSWORD}, format="json").json()["token"]
    assert me(key) == 200
    browser = Client()
    browser.force_login(person)
    assert browser.post("/logout/").status_code == 302
    assert me(key) == 401  # the old log-out left the token working
    fresh = APIClient().post("/api/auth/token/", {"username": "ada", "password": PASSWORD}, format="json").json()["token"]
    assert fresh != key and me(fresh) == 200


@pytest.mark.django_db
@pytest.mark.core
def test_the_api_log_out_ends_the_token_and_the_session() -> None:
    person = user("bea")
    key = token_for(user=person)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.post("/api/auth/logout/").status_code == 204
    assert me(key) == 401
    assert APIClient().post("/api/auth/logout/").status_code in (401, 403)  # nobody to log out
    browser = APIClient()
    browser.force_login(person)
    token_for(user=person)
    assert browser.post("/api/auth/logout/").status_code == 204
    assert browser.get("/api/me/").status_code in (401, 403) and not Token.objects.filter(user=person).exists()


@pytest.mark.django_db
@pytest.mark.core
def test_an_old_token_stops_working_and_logging_in_issues_a_fresh_one(settings) -> None:
    settings.TOKEN_MAX_AGE_SECONDS = 3600
    user("cleo")
    key = APIClient().post("/api/auth/token/", {"username": "cleo", "password": PASSWORD}, format="json").json()["token"]
    age(key, 3599)
    assert me(key) == 200
    age(key, 3601)
    r = APIClient()
    r.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    refused = r.get("/api/me/")
    assert refused.status_code == 401 and "expired" in refused.json()["detail"]  # the old token lived for ever
    fresh = APIClient().post("/api/auth/token/", {"username": "cleo", "password": PASSWORD}, format="json").json()["token"]
    assert fresh != key and me(fresh) == 200 and me(key) == 401


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.core
async def test_an_old_or_revoked_token_makes_a_socket_a_spectator(settings) -> None:
    settings.TOKEN_MAX_AGE_SECONDS = 3600
    table, match, tokens = await setup_table()
    comm, hello = await connect(table.pk, tokens[0])
    assert hello["seat"] == 0
    await comm.disconnect()
    await database_sync_to_async(age)(tokens[0], 3601)
    comm, hello = await connect(table.pk, tokens[0])
    assert hello["seat"] is None and hello["view"]["hand"] is None  # the old socket auth took any token
    await comm.disconnect()
    from accounts.services import token_revoke

    seat_one = await database_sync_to_async(lambda: Token.objects.get(key=tokens[1]).user)()
    await database_sync_to_async(token_revoke)(user=seat_one)
    comm, hello = await connect(table.pk, tokens[1])
    assert hello["seat"] is None
    await comm.disconnect()
