"""PROTOCOL.md "People": following (with presence), blocks, challenges and the notifications list, over REST."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import token_for
from games.models import Table
from people import selectors
from people.models import Challenge, Follow
from tests.conftest import run_jobs
from tests.games.factories import started_table, user
from tests.support.presence import socket_open

pytestmark = pytest.mark.django_db(transaction=True)  # notices and mail leave after the commit


def api_as(who: User) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=who)}")
    return c


# --- following ---------------------------------------------------------------------------------------


def test_follow_shows_who_is_online_and_the_live_table_they_sit_at() -> None:
    ana, bob = user("ana"), user("bob")
    user("cem")
    c = api_as(ana)
    assert c.get("/api/me/following/").json() == []
    r = c.post("/api/me/following/bob/")
    assert r.status_code == 201 and r.json() == [{"username": "bob", "online": False, "table": None}]
    assert c.post("/api/me/following/bob/").status_code == 200  # again: nothing new
    c.post("/api/me/following/cem/")
    table, _match, (p0, _p1) = started_table(players=2)
    table.seat_set.filter(user=p0).update(user=bob)  # bob plays there now
    socket_open(table.pk, bob.pk, "chan-bob")
    listed = {row["username"]: row for row in c.get("/api/me/following/").json()}
    assert listed["bob"] == {"username": "bob", "online": True, "table": table.pk}
    assert listed["cem"] == {"username": "cem", "online": False, "table": None}
    r = c.delete("/api/me/following/cem/")
    assert r.status_code == 200 and [row["username"] for row in r.json()] == ["bob"]
    assert c.delete("/api/me/following/cem/").status_code == 404
    assert c.post("/api/me/following/nobody/").status_code == 404
    assert c.post("/api/me/following/ana/").json()["code"] == "self"
    assert not Follow.objects.filter(follower=bob).exists()  # another user's list untouched
    assert APIClient().get("/api/me/following/").status_code in (401, 403)


def test_the_friends_page_lists_follows_with_a_watch_link() -> None:
    ana, bob = user("ana"), user("bob")
    table, _match, (p0, _p1) = started_table(players=2)
    table.seat_set.filter(user=p0).update(user=bob)
    Follow.objects.create(follower=ana, followee=bob)
    browser = Client()
    browser.force_login(ana)
    page = browser.get("/friends/").content.decode()
    assert f'href="/tables/{table.pk}/" data-testid="watch-bob"' in page
    assert Client().get("/friends/").status_code == 302  # log in first


# --- blocks ------------------------------------------------------------------------------------------


def test_blocking_ends_follows_both_ways_and_refuses_follows_and_challenges() -> None:
    ana, bob = user("ana"), user("bob")
    Follow.objects.create(follower=ana, followee=bob)
    Follow.objects.create(follower=bob, followee=ana)
    c = api_as(ana)
    r = c.post("/api/me/blocks/bob/")
    assert r.status_code == 201 and [row["username"] for row in r.json()] == ["bob"]
    assert c.get("/api/me/blocks/").json()[0]["username"] == "bob"
    assert not Follow.objects.exists()
    assert selectors.blocked_between(ana.pk, bob.pk) and selectors.blocked_between(bob.pk, ana.pk)
    assert selectors.blocked_by(ana.pk) == {bob.pk} and selectors.blocked_by(bob.pk) == set()
    bob_c = api_as(bob)
    assert bob_c.post("/api/me/following/ana/").json()["code"] == "blocked"
    refused = bob_c.post("/api/challenges/", {"username": "ana", "game": "zack"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "blocked"
    assert c.post("/api/challenges/", {"username": "bob", "game": "zack"}, format="json").status_code == 409
    assert not Table.objects.exists()  # no table made for a refused challenge
    r = c.delete("/api/me/blocks/bob/")
    assert r.status_code == 200 and r.json() == []
    assert c.delete("/api/me/blocks/bob/").status_code == 404
    assert not selectors.blocked_between(ana.pk, bob.pk)


def test_a_block_declines_the_pending_challenges_between_the_two() -> None:
    ana, bob = user("ana"), user("bob")
    made = api_as(ana).post("/api/challenges/", {"username": "bob", "game": "zack"}, format="json").json()
    api_as(bob).post("/api/me/blocks/ana/")
    assert Challenge.objects.get(pk=made["id"]).status == "declined"


# --- challenges --------------------------------------------------------------------------------------


def test_a_challenge_makes_a_table_and_accepting_seats_the_challenged_player() -> None:
    ana, bob = user("ana"), user("bob")
    r = api_as(ana).post("/api/challenges/", {"username": "bob", "game": "zack", "seats": 3}, format="json")
    assert r.status_code == 201
    made = r.json()
    assert made["status"] == "pending" and made["challenger"] == "ana" and made["challenged"] == "bob"
    table = Table.objects.get(pk=made["table"])
    assert (table.game, table.seats, table.host_id, table.status) == ("zack", 3, ana.pk, "open")
    assert list(table.seat_set.values_list("user__username", flat=True)) == ["ana"]
    notes = api_as(bob).get("/api/me/notifications/").json()
    assert [n["challenge"]["id"] for n in notes] == [made["id"]]
    assert api_as(ana).post(f"/api/challenges/{made['id']}/accept/").status_code == 403  # not ana's to answer
    assert api_as(user("cem")).post(f"/api/challenges/{made['id']}/accept/").status_code == 404
    accepted = api_as(bob).post(f"/api/challenges/{made['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted" and accepted.json()["table"] == table.pk
    assert sorted(table.seat_set.values_list("user__username", flat=True)) == ["ana", "bob"]
    again = api_as(bob).post(f"/api/challenges/{made['id']}/decline/")
    assert again.status_code == 409 and again.json()["code"] == "answered"
    assert api_as(bob).get("/api/me/notifications/").json() == []
    assert [n["challenge"]["status"] for n in api_as(ana).get("/api/me/notifications/").json()] == ["accepted"]


def test_declining_leaves_the_challenged_player_out() -> None:
    ana, bob = user("ana"), user("bob")
    made = api_as(ana).post("/api/challenges/", {"username": "bob", "game": "zwicker"}, format="json").json()
    r = api_as(bob).post(f"/api/challenges/{made['id']}/decline/")
    assert r.status_code == 200 and r.json()["status"] == "declined"
    assert list(Table.objects.get(pk=made["table"]).seat_set.values_list("user__username", flat=True)) == ["ana"]


def test_bad_challenges_are_refused() -> None:
    ana = user("ana")
    user("bob")
    c = api_as(ana)
    assert c.post("/api/challenges/", {"username": "nobody", "game": "zack"}, format="json").status_code == 404
    assert c.post("/api/challenges/", {"username": "ana", "game": "zack"}, format="json").status_code == 400
    assert c.post("/api/challenges/", {"username": "bob", "game": "chess"}, format="json").status_code == 400
    assert c.post("/api/challenges/", {"username": "bob", "game": "zack", "seats": 9}, format="json").status_code == 400
    assert c.post("/api/challenges/", {"game": "zack"}, format="json").status_code == 400
    assert APIClient().post("/api/challenges/", {"username": "bob", "game": "zack"}, format="json").status_code in (401, 403)
    assert not Table.objects.exists()


def test_accepting_after_the_table_started_cancels_the_challenge() -> None:
    ana, bob = user("ana"), user("bob")
    made = api_as(ana).post("/api/challenges/", {"username": "bob", "game": "zwicker", "seats": 2}, format="json").json()
    from games.services.tables import table_add_bot, table_start
    table_add_bot(table_id=made["table"], by=ana)
    table_start(table_id=made["table"], by=ana)
    r = api_as(bob).post(f"/api/challenges/{made['id']}/accept/")
    assert r.status_code == 409 and r.json()["code"] == "challenge_gone"
    assert Challenge.objects.get(pk=made["id"]).status == "cancelled"


def test_a_challenge_is_mailed_through_smtp_when_the_player_asks_for_it(smtp_inbox: Any) -> None:
    ana, bob, cem = user("ana"), user("bob"), user("cem")
    User.objects.filter(pk=bob.pk).update(email="bob@example.org", language="de")
    User.objects.filter(pk=cem.pk).update(email="cem@example.org", notifications=False)
    api_as(ana).post("/api/challenges/", {"username": "bob", "game": "zack"}, format="json")
    api_as(ana).post("/api/challenges/", {"username": "cem", "game": "zack"}, format="json")
    run_jobs()
    assert [str(m["To"]) for m in smtp_inbox.messages] == ["bob@example.org"]
    mail = smtp_inbox.messages[0]
    assert mail["Subject"] == "ana fordert dich heraus" and "/friends/" in mail.get_content()


def test_the_profile_shows_follow_challenge_block_and_report_buttons() -> None:
    ana, bob = user("ana"), user("bob")
    browser = Client()
    browser.force_login(ana)
    page = browser.get("/u/bob/").content.decode()
    for testid in ("follow-button", "challenge-link", "block-button", "report-form"):
        assert f'data-testid="{testid}"' in page
    assert 'data-action="follow"' in page
    Follow.objects.create(follower=ana, followee=bob)
    assert 'data-action="unfollow"' in browser.get("/u/bob/").content.decode()
    assert 'data-testid="profile-actions"' not in browser.get("/u/ana/").content.decode()  # not on one's own
    assert 'data-testid="profile-actions"' not in Client().get("/u/bob/").content.decode()
