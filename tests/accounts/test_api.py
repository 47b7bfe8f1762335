"""Accounts API of PROTOCOL.md: register, token, me, and the failed log-in throttle."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

pytestmark = [pytest.mark.django_db, pytest.mark.core]


@pytest.fixture(autouse=True)
def _clear_cache() -> None:
    cache.clear()


def test_register_returns_token_that_authenticates() -> None:
    client = APIClient()
    r = client.post("/api/auth/register/", {"username": "alice", "password": "correct horse 42"}, format="json")
    assert r.status_code == 201
    body = r.json()
    assert body["username"] == "alice" and isinstance(body["id"], int) and body["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = client.get("/api/me/")
    assert me.status_code == 200
    assert {k: me.json()[k] for k in ("id", "username", "email", "language")} == {"id": body["id"], "username": "alice", "email": "", "language": ""}
    assert me.json()["date_joined"]


def test_register_rejects_taken_name_and_weak_password() -> None:
    client = APIClient()
    assert client.post("/api/auth/register/", {"username": "bob", "password": "correct horse 42"}, format="json").status_code == 201
    taken = client.post("/api/auth/register/", {"username": "BOB", "password": "correct horse 42"}, format="json")
    assert taken.status_code == 400 and "username" in taken.json()
    weak = client.post("/api/auth/register/", {"username": "carol", "password": "123"}, format="json")
    assert weak.status_code == 400 and "password" in weak.json()


def test_token_login_and_bad_credentials() -> None:
    client = APIClient()
    client.post("/api/auth/register/", {"username": "dora", "password": "correct horse 42"}, format="json")
    ok = client.post("/api/auth/token/", {"username": "dora", "password": "correct horse 42"}, format="json")
    assert ok.status_code == 200 and ok.json()["token"]
    bad = client.post("/api/auth/token/", {"username": "dora", "password": "wrong"}, format="json")
    assert bad.status_code == 400 and "detail" in bad.json()


def test_me_needs_credentials() -> None:
    assert APIClient().get("/api/me/").status_code in (401, 403)


def test_failed_logins_are_throttled_even_with_the_right_password(settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    client = APIClient()
    client.post("/api/auth/register/", {"username": "eve", "password": "correct horse 42"}, format="json")
    for _ in range(3):
        assert client.post("/api/auth/token/", {"username": "eve", "password": "nope"}, format="json").status_code == 400
    r = client.post("/api/auth/token/", {"username": "eve", "password": "correct horse 42"}, format="json")
    assert r.status_code == 429


def test_login_page_throttles_too(client, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    from accounts.models import User

    User.objects.create_user("fred", password="correct horse 42")
    for _ in range(2):
        r = client.post("/login/", {"username": "fred", "password": "bad"})
        assert r.status_code == 200 and not r.wsgi_request.user.is_authenticated
    r = client.post("/login/", {"username": "fred", "password": "correct horse 42"})
    assert r.status_code == 429 and b"Too many failed" in r.content and not r.wsgi_request.user.is_authenticated


def test_signup_page_logs_in(client) -> None:
    r = client.post("/signup/", {"username": "gina", "password": "correct horse 42"})
    assert r.status_code == 302
    assert client.get("/api/me/").json()["username"] == "gina"
