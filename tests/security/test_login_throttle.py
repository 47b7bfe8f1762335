"""Log-in throttling as the attacker tries it: nobody can lock another person out.

Failed log-ins count per (account, address) pair (django-axes); attempts under any names count per
address (LOGIN_RATE). The old per-name and per-address failure counters let five made-up names lock
every account out of a shared address, and five guesses from anywhere lock a victim's account.
"""

from __future__ import annotations

import datetime as dt

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.core]

PASSWORD = "correct horse 42"
NAT = "198.51.100.7"  # an address people share: a school, a café, a carrier's NAT


@pytest.fixture(autouse=True)
def _fresh(settings) -> None:
    cache.clear()
    settings.AXES_FAILURE_LIMIT = 5
    settings.LOGIN_RATE = "30/hour"


@pytest.fixture
def victim() -> User:
    return User.objects.create_user("victim", password=PASSWORD)


def token(address: str, username: str, password: str, **headers: str) -> int:
    return APIClient().post("/api/auth/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=address, **headers).status_code


def test_made_up_names_from_a_shared_address_do_not_lock_its_other_people_out(victim: User) -> None:
    for i in range(8):
        assert token(NAT, f"nobody{i}", "guess") == 400
    assert token(NAT, "victim", PASSWORD) == 200  # the old per-address failure counter answered 429


def test_guesses_at_a_victim_from_many_addresses_leave_the_owner_able_to_log_in(victim: User) -> None:
    for a in range(1, 7):
        for _ in range(5):
            assert token(f"203.0.113.{a}", "victim", "guess") == 400
        assert token(f"203.0.113.{a}", "victim", PASSWORD) == 429  # that address is done guessing at this account
    assert token("192.0.2.50", "victim", PASSWORD) == 200  # the old per-name counter locked the owner out
    page = APIClient()
    r = page.post("/login/", {"username": "victim", "password": PASSWORD}, REMOTE_ADDR="192.0.2.51")
    assert r.status_code == 302 and r.wsgi_request.user.is_authenticated


def test_the_pair_that_guessed_is_locked_even_with_the_right_password_and_cools_off(victim: User, settings) -> None:
    for _ in range(5):
        assert token(NAT, "victim", "guess") == 400
    assert token(NAT, "victim", PASSWORD) == 429
    # Other spellings of the name are the same account's failures, not fresh allowances.
    assert token(NAT, "VICTIM", "guess") == 429
    # After the cool-off the pair may try again (axes counts failures younger than AXES_COOLOFF_TIME).
    AccessAttempt.objects.update(attempt_time=dt.datetime.now(dt.UTC) - settings.AXES_COOLOFF_TIME - dt.timedelta(seconds=1))
    assert token(NAT, "victim", PASSWORD) == 200


def test_a_successful_log_in_clears_the_pairs_failures(victim: User) -> None:
    for _ in range(4):
        assert token(NAT, "victim", "guess") == 400
    assert token(NAT, "victim", PASSWORD) == 200
    for _ in range(4):
        assert token(NAT, "victim", "guess") == 400  # four more allowed: the count started again
    assert token(NAT, "victim", PASSWORD) == 200


def test_many_names_from_one_address_meet_its_rate_which_blocks_that_address_only(victim: User, settings) -> None:
    settings.LOGIN_RATE = "10/hour"
    for i in range(10):
        assert token(NAT, f"nobody{i}", "guess") == 400
    r = APIClient().post("/api/auth/token/", {"username": "nobody99", "password": "guess"}, format="json", REMOTE_ADDR=NAT)
    assert r.status_code == 429 and r.json()["code"] == "rate_limited" and int(r["Retry-After"]) > 0
    assert "address" in r.json()["detail"]
    assert token("192.0.2.50", "victim", PASSWORD) == 200  # anyone elsewhere is untouched
    page = APIClient().post("/login/", {"username": "victim", "password": PASSWORD}, REMOTE_ADDR=NAT)
    assert page.status_code == 429 and b"from your address" in page.content  # the page counts the same attempts


def test_a_forged_forwarded_for_does_not_make_a_new_address(victim: User, settings) -> None:
    """DRF's throttle on its default settings takes X-Forwarded-For from the client as the address."""
    settings.LOGIN_RATE = "5/hour"
    for i in range(5):
        assert token(NAT, f"nobody{i}", "guess", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}") == 400
    assert token(NAT, "nobody9", "guess", HTTP_X_FORWARDED_FOR="10.9.9.9") == 429
    settings.LOGIN_RATE = "100/hour"
    for i in range(5):  # nor a new (account, address) pair
        assert token(NAT, "victim", "guess", HTTP_X_FORWARDED_FOR=f"10.0.1.{i}") == 400
    assert token(NAT, "victim", PASSWORD, HTTP_X_FORWARDED_FOR="10.0.1.99") == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {NAT}


def test_behind_a_trusted_proxy_the_address_is_the_one_the_proxy_saw(victim: User, settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    settings.LOGIN_RATE = "3/hour"
    proxy = "10.1.1.1"
    for i in range(3):  # the client wrote the left entries itself; our proxy appended the right one
        assert token(proxy, f"nobody{i}", "guess", HTTP_X_FORWARDED_FOR=f"6.6.6.{i}, {NAT}") == 400
    assert token(proxy, "nobody9", "guess", HTTP_X_FORWARDED_FOR=f"7.7.7.7, {NAT}") == 429
    assert token(proxy, "victim", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.9") == 200  # another client, same proxy
