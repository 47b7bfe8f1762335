"""A friend's first visit through an invitation, server side: readable before log-in, sign-up and log-in
come back to it, joining is one CSRF POST; a running table says you will watch."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import Seat
from games.services.tables import table_add_bot, table_create, table_start
from tests.games.factories import user

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse 42"


@pytest.fixture(autouse=True)
def _fresh() -> None:
    cache.clear()


def _table(seats: int = 3):
    host = user("hostess")
    return table_create(host=host, game="zack", seats=seats), host


def test_the_invitation_is_readable_before_log_in_and_links_back() -> None:
    table, host = _table()
    url = f"/invite/{table.invite_code}/"
    page = Client().get(url)
    html = page.content.decode()
    assert page.status_code == 200 and "hostess" in html and "ZACK!" in html
    assert f'href="/signup/?next={url}"' in html and f'href="/login/?next={url}"' in html
    assert 'data-testid="invite-join"' not in html  # no seat without an account


def test_sign_up_from_the_invitation_comes_back_to_it_and_one_post_seats() -> None:
    table, _ = _table()
    url = f"/invite/{table.invite_code}/"
    c = Client(enforce_csrf_checks=False)
    form = c.get(f"/signup/?next={url}").content.decode()
    assert f'name="next" value="{url}"' in form
    r = c.post("/signup/", {"username": "newfriend", "password": PASSWORD, "next": url})
    assert r.status_code == 302 and r["Location"] == url
    assert not Seat.objects.filter(table=table, user__username="newfriend").exists()  # GETs seat nobody
    page = c.get(url).content.decode()
    assert 'data-testid="invite-join"' in page
    r = c.post(url)
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/"
    assert Seat.objects.filter(table=table, user__username="newfriend", seat=1).exists()


def test_a_post_without_an_account_goes_to_log_in_and_back() -> None:
    table, _ = _table()
    url = f"/invite/{table.invite_code}/"
    r = Client().post(url)
    assert r.status_code == 302 and r["Location"].startswith("/login/?next=") and table.invite_code in r["Location"]
    assert Seat.objects.filter(table=table).count() == 1


def test_the_log_in_page_keeps_next_on_its_sign_up_link() -> None:
    html = Client().get("/login/?next=/invite/abc/").content.decode()
    assert 'href="/signup/?next=/invite/abc/"' in html or 'href="/signup/?next=%2Finvite%2Fabc%2F"' in html


def test_an_invitation_to_a_running_table_says_you_will_watch() -> None:
    table, host = _table()
    table_add_bot(table_id=table.pk, by=host)
    table_add_bot(table_id=table.pk, by=host)
    table_start(table_id=table.pk, by=host)
    anonymous = Client().get(f"/invite/{table.invite_code}/").content.decode()
    assert "spectator" in anonymous and 'data-testid="invite-signup"' not in anonymous
    c = Client()
    c.force_login(user("late"))
    html = c.get(f"/invite/{table.invite_code}/").content.decode()
    assert "already playing" in html and 'data-testid="invite-join"' not in html


def test_an_unknown_invitation_is_404() -> None:
    assert Client().get("/invite/nope/").status_code == 404


def test_the_error_pages_are_the_sites_own(rf) -> None:
    """DEBUG off: a 404 in the site's layout, and a 500 that needs neither the database nor a session."""
    from django.views import defaults

    missing = Client().get("/no/such/page/")
    assert missing.status_code == 404 and b'data-testid="error-404"' in missing.content and b"favicon.svg" in missing.content
    broken = defaults.server_error(rf.get("/"))
    assert broken.status_code == 500 and b'data-testid="error-500"' in broken.content and b"Back to the lobby" in broken.content


def test_the_favicon_is_served() -> None:
    r = Client().get("/favicon.ico")
    assert r.status_code == 301 and r["Location"].endswith("platform/favicon.svg")
