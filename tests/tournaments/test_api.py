"""The tournament API: PROTOCOL.md's calls, bad input and permissions, each refusal with its reason."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import bot_user, token_for
from stats.models import Rating
from tests.games.factories import user
from tournaments import selectors
from tournaments.models import Entry, Tournament


def bn(level: str, number: int) -> str:
    """The name of a tournament's bot entrant (bots are found by identity; the name is its persona)."""
    return bot_user(slug="tiny", level=level, number=number).username


pytestmark = pytest.mark.django_db(transaction=True)

BASE = {"name": "Friday cup", "game": "tiny", "format": "swiss", "table_size": 2, "rounds": 2, "options": {"hand": 1}}


def client_for(name: str) -> tuple[APIClient, User]:
    u = user(name)
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=u)}")
    return c, u


def create(c: APIClient, **over: Any) -> dict[str, Any]:
    r = c.post("/api/tournaments/", {**BASE, **over}, format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def refused(response: Any, status: int, code: str | None = None, text: str | None = None) -> dict[str, Any]:
    body = response.json()
    assert response.status_code == status, body
    assert "detail" in body
    if code is not None:
        assert body["code"] == code, body
    if text is not None:
        assert text in body["detail"], body
    return body


def test_create_register_start_and_read_the_protocol_payload() -> None:
    org, _ = client_for("org")
    t = create(org)
    assert t["status"] == "registering" and t["organiser"] == "org" and t["format"] == "swiss" and t["game"] == "tiny"
    assert t["players"] == [] and t["rounds"] == [] and t["standings"] == []
    ana, _ = client_for("ana")
    t = ana.post(f"/api/tournaments/{t['id']}/register/").json()
    assert [p["username"] for p in t["players"]] == ["ana"]
    t = org.post(f"/api/tournaments/{t['id']}/bots/", {"level": "hard", "count": 3}, format="json").json()
    names = [p["username"] for p in t["players"]]
    assert names == ["ana", bn("hard", 1), bn("hard", 2), bn("hard", 3)]
    assert all(User.objects.get(username=n).is_bot for n in names[1:])
    t = org.post(f"/api/tournaments/{t['id']}/start/").json()
    assert t["status"] == "running"
    (round1,) = t["rounds"]
    assert round1["number"] == 1 and len(round1["tables"]) == 2
    for table in round1["tables"]:
        assert {"table", "match", "players", "outcome"} <= set(table)
        # a table of bots is dealt at once; ana's waits for her (TOURNAMENT_SEAT_GRACE_SECONDS)
        people = [p for p in table["players"] if not p["bot"]]
        assert (table["match"] is None) == bool(people)
    assert {row["username"] for row in t["standings"]} == set(names)
    assert set(t["standings"][0]) >= {"rank", "username", "points", "tiebreaks"}
    assert set(t["standings"][0]["tiebreaks"]) == {"opponents", "wins", "rating"}
    listed = APIClient().get("/api/tournaments/?status=running").json()
    assert [x["id"] for x in listed] == [t["id"]] and listed[0]["players"] == 4
    assert APIClient().get(f"/api/tournaments/{t['id']}/").json()["id"] == t["id"]  # anyone reads


def test_bad_input_on_create_answers_400_with_the_reason() -> None:
    org, _ = client_for("org")
    refused(org.post("/api/tournaments/", {**BASE, "game": "chess"}, format="json"), 400, "unknown_game", "chess")
    refused(org.post("/api/tournaments/", {**BASE, "format": "ladder"}, format="json"), 400, "bad_format")
    refused(org.post("/api/tournaments/", {**BASE, "table_size": 9}, format="json"), 400, "bad_table_size", "2 to 4")
    refused(org.post("/api/tournaments/", {**BASE, "options": {"colour": 1}}, format="json"), 400, "bad_option")
    refused(org.post("/api/tournaments/", {**BASE, "options": {"dealer": 1}}, format="json"), 400, "bad_option")
    refused(org.post("/api/tournaments/", {**BASE, "format": "arena"}, format="json"), 400, "bad_duration_minutes")
    refused(org.post("/api/tournaments/", {**BASE, "rounds": 0}, format="json"), 400, "bad_rounds")
    refused(org.post("/api/tournaments/", {**BASE, "name": ""}, format="json"), 400)
    refused(org.post("/api/tournaments/", {**BASE, "starts_at": "2001-01-01T00:00:00Z"}, format="json"), 400, "bad_starts_at")
    assert APIClient().post("/api/tournaments/", BASE, format="json").status_code in (401, 403)
    assert Tournament.objects.count() == 0


def test_zigzag_refuses_a_table_of_five() -> None:
    org, _ = client_for("org")
    refused(org.post("/api/tournaments/", {**BASE, "game": "zigzag", "table_size": 5, "options": {}}, format="json"), 400, "bad_table_size")
    assert create(org, game="zigzag", table_size=6, options={})["table_size"] == 6


def test_registering_twice_to_a_running_or_a_draft_tournament_is_409() -> None:
    org, _ = client_for("org")
    t = create(org)
    ana, _ = client_for("ana")
    assert ana.post(f"/api/tournaments/{t['id']}/register/").status_code == 200
    refused(ana.post(f"/api/tournaments/{t['id']}/register/"), 409, "already_registered")
    bob, _ = client_for("bob")
    refused(bob.post(f"/api/tournaments/{t['id']}/unregister/"), 409, "not_registered")
    org.post(f"/api/tournaments/{t['id']}/bots/", {"count": 1}, format="json")
    assert org.post(f"/api/tournaments/{t['id']}/start/").status_code == 200
    refused(bob.post(f"/api/tournaments/{t['id']}/register/"), 409, "registration_closed", "running")
    refused(ana.post(f"/api/tournaments/{t['id']}/unregister/"), 409, "registration_closed")
    draft = create(org, open=False)
    assert draft["status"] == "draft"
    refused(bob.post(f"/api/tournaments/{draft['id']}/register/"), 409, "not_open")
    assert org.post(f"/api/tournaments/{draft['id']}/open/").json()["status"] == "registering"
    assert bob.post(f"/api/tournaments/{draft['id']}/register/").status_code == 200
    refused(bob.post("/api/tournaments/999999/register/"), 404)


def test_only_the_organiser_starts_pauses_resumes_cancels_removes_and_adds_bots() -> None:
    org, _ = client_for("org")
    t = create(org)
    ana, _ = client_for("ana")
    ana.post(f"/api/tournaments/{t['id']}/register/")
    tid = t["id"]
    refused(ana.post(f"/api/tournaments/{tid}/bots/", {"count": 2}, format="json"), 403, "not_organiser")
    org.post(f"/api/tournaments/{tid}/bots/", {"count": 3}, format="json")
    refused(ana.post(f"/api/tournaments/{tid}/start/"), 403, "not_organiser")
    refused(ana.post(f"/api/tournaments/{tid}/remove/", {"username": bn("normal", 1)}, format="json"), 403, "not_organiser")
    assert org.post(f"/api/tournaments/{tid}/start/").status_code == 200
    for action in ("pause", "cancel"):
        refused(ana.post(f"/api/tournaments/{tid}/{action}/"), 403, "not_organiser")
    refused(ana.post(f"/api/tournaments/{tid}/replace/", {"username": "ana"}, format="json"), 403, "not_organiser")
    refused(org.post(f"/api/tournaments/{tid}/resume/"), 409, "not_paused")
    assert org.post(f"/api/tournaments/{tid}/pause/").json()["status"] == "paused"
    refused(ana.post(f"/api/tournaments/{tid}/resume/"), 403, "not_organiser")
    assert org.post(f"/api/tournaments/{tid}/resume/").json()["status"] == "running"
    refused(org.post(f"/api/tournaments/{tid}/start/"), 409, "already_started")
    t = org.post(f"/api/tournaments/{tid}/replace/", {"username": "ana"}, format="json").json()
    assert any(p["username"] == "ana" and p["replaced"] for r in t["rounds"] for tb in r["tables"] for p in tb["players"])
    refused(org.post(f"/api/tournaments/{tid}/replace/", {"username": "nobody"}, format="json"), 409, "not_seated")
    t = org.post(f"/api/tournaments/{tid}/remove/", {"username": "ana"}, format="json").json()
    assert next(p for p in t["players"] if p["username"] == "ana")["withdrawn"]
    refused(org.post(f"/api/tournaments/{tid}/remove/", {"username": "nobody"}, format="json"), 404)
    assert org.post(f"/api/tournaments/{tid}/cancel/").json()["status"] == "cancelled"
    refused(org.post(f"/api/tournaments/{tid}/cancel/"), 409, "over")
    refused(ana.post(f"/api/tournaments/{tid}/unregister/"), 409)


def test_too_few_players_at_start_is_refused_with_the_minimum() -> None:
    org, _ = client_for("org")
    t = create(org, table_size=4, options={})
    org.post(f"/api/tournaments/{t['id']}/bots/", {"count": 3}, format="json")
    body = refused(org.post(f"/api/tournaments/{t['id']}/start/"), 409, "too_few_players")
    assert "at least 4 players" in body["detail"] and "3 registered" in body["detail"]
    assert Tournament.objects.get(pk=t["id"]).status == "registering"


def test_round_robin_takes_a_small_field_only() -> None:
    org, _ = client_for("org")
    t = create(org, format="round_robin", rounds=None)
    org.post(f"/api/tournaments/{t['id']}/bots/", {"count": 41}, format="json")
    refused(org.post(f"/api/tournaments/{t['id']}/start/"), 409, "too_many_players", "at most 40")


def test_bots_get_distinct_accounts_reused_across_tournaments() -> None:
    org, _ = client_for("org")
    a, b = create(org), create(org)
    org.post(f"/api/tournaments/{a['id']}/bots/", {"count": 2}, format="json")
    org.post(f"/api/tournaments/{b['id']}/bots/", {"count": 2}, format="json")
    org.post(f"/api/tournaments/{a['id']}/bots/", {"count": 1}, format="json")
    assert list(Entry.objects.filter(tournament_id=a["id"]).values_list("user__username", flat=True)) == [
        bn("normal", 1), bn("normal", 2), bn("normal", 3)
    ]
    assert User.objects.filter(is_bot=True, bot_game="tiny", bot_level="normal").count() == 3
    refused(org.post(f"/api/tournaments/{a['id']}/bots/", {"level": "godlike"}, format="json"), 400)
    refused(org.post(f"/api/tournaments/{a['id']}/bots/", {"count": 500}, format="json"), 400, "bad_count")


def test_standings_export_as_csv_and_pages_render() -> None:
    org, org_user = client_for("org")
    t = create(org)
    org.post(f"/api/tournaments/{t['id']}/bots/", {"count": 4}, format="json")
    org.post(f"/api/tournaments/{t['id']}/start/")
    web = Client()
    r = web.get(f"/tournaments/{t['id']}/standings.csv")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert rows[0][:7] == ["rank", "username", "points", "opponents_points", "wins", "rating", "played"]
    assert rows[0][-1] == "round_1" and len(rows) == 5
    assert web.get("/tournaments/").status_code == 200
    assert "Friday cup" in web.get(f"/tournaments/{t['id']}/").content.decode()
    assert web.get("/tournaments/999999/").status_code == 404
    assert web.get("/tournaments/new/").status_code == 302  # log in first
    web.force_login(org_user)
    page = web.get("/tournaments/new/").content.decode()
    assert 'data-testid="t-submit"' in page
    assert 'data-testid="organiser-controls"' in web.get(f"/tournaments/{t['id']}/").content.decode()


def test_rating_is_the_last_tie_break_when_ratings_exist() -> None:
    org, _ = client_for("org")
    t = create(org, table_size=2)
    org.post(f"/api/tournaments/{t['id']}/bots/", {"count": 2}, format="json")
    strong = User.objects.get(username=bn("normal", 2))
    Rating.objects.create(user=strong, game="tiny", mu=30.0, sigma=2.0, display=24.0)
    assert selectors.player_ratings(game="tiny", user_ids=[strong.pk, strong.pk - 1]) == {strong.pk: 24.0}
    t = org.post(f"/api/tournaments/{t['id']}/start/").json()
    # Before any result everyone is level on points, opponents' points and wins: the rating orders them.
    assert [s["username"] for s in t["standings"]] == [bn("normal", 2), bn("normal", 1)]
    assert t["standings"][0]["tiebreaks"]["rating"] == 24.0 and t["standings"][1]["tiebreaks"]["rating"] == 0
