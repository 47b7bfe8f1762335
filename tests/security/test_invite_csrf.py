"""An invite link as another site uses it: opening it (a GET any page can make a browser do) seats nobody.

The old invite view joined on GET: a cross-site image or link seated a logged-in victim at a ranked
table. Joining is now a CSRF-checked POST from the invitation page, which says what one joins.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from accounts.models import User
from games.models import Seat, Table
from games.services.tables import table_create, table_join, table_start
from tests.games.factories import user

pytestmark = [pytest.mark.django_db, pytest.mark.core]

PASSWORD = "correct horse 42"


@pytest.fixture(autouse=True)
def _fresh() -> None:
    cache.clear()


@pytest.fixture
def ranked_table() -> Table:
    return table_create(host=user("hostess"), game="tiny", seats=3, ranked=True)


def logged_in(name: str, csrf: bool = True) -> tuple[Client, User]:
    person = user(name)
    c = Client(enforce_csrf_checks=csrf)
    c.force_login(person)
    return c, person


def test_opening_the_link_seats_nobody_and_says_what_one_would_join(ranked_table: Table) -> None:
    victim_browser, victim = logged_in("victim")
    r = victim_browser.get(f"/invite/{ranked_table.invite_code}/")
    assert r.status_code == 200  # the old view answered 302 to the table, the victim already seated
    assert not Seat.objects.filter(table=ranked_table, user=victim).exists()
    page = r.content.decode()
    assert "hostess invites you to a table of Tiny" in page
    assert "Ranked: the result counts" in page and "2 of 3 seats free." in page
    assert 'data-testid="invite-join"' in page and 'name="csrfmiddlewaretoken"' in page
    assert f'href="/tables/{ranked_table.pk}/"' in page  # "Just watch"


def test_a_post_without_the_pages_csrf_token_seats_nobody(ranked_table: Table) -> None:
    browser, victim = logged_in("victim")
    r = browser.post(f"/invite/{ranked_table.invite_code}/")  # a cross-site form: no token of ours
    assert r.status_code == 403
    assert not Seat.objects.filter(table=ranked_table, user=victim).exists()


def test_join_from_the_invitation_page_seats_the_visitor(ranked_table: Table) -> None:
    browser, friend = logged_in("friend")
    browser.get(f"/invite/{ranked_table.invite_code}/")
    r = browser.post(f"/invite/{ranked_table.invite_code}/", {"csrfmiddlewaretoken": browser.cookies["csrftoken"].value})
    assert r.status_code == 302 and r["Location"] == f"/tables/{ranked_table.pk}/"
    assert Seat.objects.get(table=ranked_table, user=friend).seat == 1
    assert browser.get(f"/invite/{ranked_table.invite_code}/")["Location"] == f"/tables/{ranked_table.pk}/"  # seated: to the table


def test_a_full_or_started_table_says_you_will_watch(ranked_table: Table) -> None:
    for name in ("a", "b"):
        table_join(table_id=ranked_table.pk, user=user(name))
    browser, late = logged_in("late")
    page = browser.get(f"/invite/{ranked_table.invite_code}/").content.decode()
    assert "This table is full: you can watch as a spectator." in page and 'data-testid="invite-join"' not in page
    table_start(table_id=ranked_table.pk, by=ranked_table.host)
    page = browser.get(f"/invite/{ranked_table.invite_code}/").content.decode()
    assert "This table is already playing: you can join as a spectator" in page
    # A POST anyway (the page open from before) watches too: nothing is taken from the players.
    browser.post(f"/invite/{ranked_table.invite_code}/", {"csrfmiddlewaretoken": browser.cookies["csrftoken"].value})
    assert not Seat.objects.filter(table=ranked_table, user=late).exists()


def test_an_unknown_code_is_404() -> None:
    browser, _ = logged_in("someone")
    assert browser.get("/invite/not-a-code/").status_code == 404


def test_anonymous_visitors_log_in_or_sign_up_and_come_back_to_the_invitation(ranked_table: Table) -> None:
    invite = f"/invite/{ranked_table.invite_code}/"
    browser = Client()
    r = browser.get(invite)  # the invitation itself, readable before log-in, with both ways back to it
    assert r.status_code == 200 and f'href="/login/?next={invite}"' in r.content.decode()
    assert f'href="/signup/?next={invite}"' in r.content.decode()
    r = browser.post(invite)  # joining needs an account: to log-in, and back
    assert r.status_code == 302 and r["Location"] == f"/login/?next={invite}"
    login_page = browser.get(r["Location"]).content.decode()
    assert f'href="/signup/?next={invite}"' in login_page  # the sign-up link keeps `next`
    assert f'name="next" value="{invite}"' in browser.get(f"/signup/?next={invite}").content.decode()
    r = browser.post("/signup/", {"username": "newcomer", "password": PASSWORD, "next": invite})
    assert r.status_code == 302 and r["Location"] == invite
    assert not Seat.objects.filter(table=ranked_table, user__username="newcomer").exists()  # still a page to confirm
    # Log-in returns to the invitation as well.
    browser.post("/logout/")
    r = browser.post("/login/", {"username": "newcomer", "password": PASSWORD, "next": invite})
    assert r.status_code == 302 and r["Location"] == invite


def test_sign_up_never_sends_anyone_to_another_site() -> None:
    r = Client().post("/signup/", {"username": "newcomer", "password": PASSWORD, "next": "https://evil.example/"})
    assert r.status_code == 302 and r["Location"] == "/"


@pytest.mark.parametrize(("lang", "says"), [("de", "hostess lädt dich an einen Tisch Tiny ein."), ("fr", "hostess vous invite à une table de Tiny.")])
def test_the_invitation_speaks_the_visitors_language(ranked_table: Table, lang: str, says: str) -> None:
    browser, _ = logged_in("visitor")
    page = browser.get(f"/invite/{ranked_table.invite_code}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert says in page
