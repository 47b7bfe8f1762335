"""Every write of the REST API tried as anonymous and as another user; every live-match read as another seat.

The operation list comes from the OpenAPI schema, so an endpoint added later without a decision here
fails `test_every_write_is_classified` until its author says who may call it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts.services import token_for
from games.models import Match
from tests.games.factories import started_table, user
from tests.tournaments.factories import bot_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.core]

# Writes anyone may call without an account: they are how one gets an account.
ANONYMOUS_WRITES = {"/api/auth/register/", "/api/auth/token/"}
# ... and how one gets back in: they answer alike whoever asks (a reset link's token is the credential).
ANONYMOUS_WRITES |= {"/api/auth/password-reset/", "/api/auth/password-reset/confirm/", "/api/auth/email/verify/"}
# Writes of the host of a table or the organiser of a tournament only.
HOST_ONLY = {
    "/api/tables/{table_id}/bots/",
    "/api/tables/{table_id}/start/",
    "/api/tables/{table_id}/rematch/",
    "/api/tournaments/{tournament_id}/bots/",
    "/api/tournaments/{tournament_id}/cancel/",
    "/api/tournaments/{tournament_id}/open/",
    "/api/tournaments/{tournament_id}/pause/",
    "/api/tournaments/{tournament_id}/remove/",
    "/api/tournaments/{tournament_id}/replace/",
    "/api/tournaments/{tournament_id}/resume/",
    "/api/tournaments/{tournament_id}/start/",
}
# Writes any logged-in user may make for themselves.
SELF_SERVICE = {
    "/api/auth/logout/",
    "/api/tables/",
    "/api/tables/play-now/",  # a started table of the caller's own, against bots
    "/api/tables/{table_id}/join/",
    "/api/tables/{table_id}/leave/",
    "/api/tournaments/",
    "/api/tournaments/{tournament_id}/register/",
    "/api/tournaments/{tournament_id}/unregister/",
    # people: the caller's own account, follows, blocks and challenges (the path names the other player)
    "/api/me/",
    "/api/me/password/",
    "/api/me/email/verify/",
    "/api/me/following/{username}/",
    "/api/me/blocks/{username}/",
    "/api/challenges/",
}
# Writes of a player seated at the table's live match only (PROTOCOL.md "Leaving a match").
SEATED_ONLY = {"/api/tables/{table_id}/resign/"}
# Writes of the challenged player of a challenge only.
CHALLENGED_ONLY = {"/api/challenges/{challenge_id}/accept/", "/api/challenges/{challenge_id}/decline/"}
# Fair play and matchmaking: a report and the queue are the caller's own; the moderators' actions are staff's.
SELF_SERVICE |= {"/api/reports/", "/api/queue/"}
STAFF_ONLY = {"/api/moderation/actions/"}
UNSAFE = {"post", "put", "patch", "delete"}


def _writes() -> set[str]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {path for path, ops in schema["paths"].items() if UNSAFE & set(ops)}


def _client(name: str | None) -> APIClient:
    c = APIClient()
    if name is not None:
        c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=user(name))}")
    return c


def _row_counts() -> dict[str, int]:
    labels = ("games", "tournaments", "accounts", "replays", "people", "moderation", "matchmaking")
    return {m._meta.label: m.objects.count() for m in apps.get_models() if m._meta.app_label in labels}


def _world() -> dict[str, int]:
    """An open table (with a free seat), a finished-able started table, and an open tournament."""
    host = user("host")
    from games.services.tables import table_create
    open_table = table_create(host=host, game="tiny", seats=3)
    table, match, _ = started_table(players=2)
    tournament = bot_tournament("swiss", bots=3, by=host)
    from people.services import challenge_create

    challenge = challenge_create(challenger=host, username=user("target").username, game="tiny")
    return {"open_table": open_table.pk, "table": table.pk, "match": match.pk, "tournament": tournament.pk, "challenge": challenge.pk}


def _url(path: str, world: dict[str, int]) -> str:
    path = path.replace("{username}", "host").replace("{challenge_id}", str(world["challenge"]))
    return path.replace("{table_id}", str(world["open_table"])).replace("{tournament_id}", str(world["tournament"]))


BODIES: dict[str, dict[str, Any]] = {
    "/api/tables/": {"game": "tiny", "seats": 2},
    "/api/tables/play-now/": {"game": "zack"},
    "/api/tournaments/": {"name": "x", "game": "tiny", "format": "swiss", "table_size": 3},
    "/api/tournaments/{tournament_id}/remove/": {"username": "host"},
    "/api/tournaments/{tournament_id}/replace/": {"username": "host"},
    "/api/tournaments/{tournament_id}/bots/": {"count": 2},
    "/api/tables/{table_id}/bots/": {"level": "easy"},
}


def test_every_write_is_classified() -> None:
    assert _writes() == ANONYMOUS_WRITES | HOST_ONLY | SELF_SERVICE | CHALLENGED_ONLY | STAFF_ONLY | SEATED_ONLY


@pytest.mark.parametrize("path", sorted(HOST_ONLY | SELF_SERVICE | CHALLENGED_ONLY | STAFF_ONLY | SEATED_ONLY))
def test_anonymous_writes_are_refused_and_change_nothing(path: str) -> None:
    world = _world()
    before = _row_counts()
    r = _client(None).post(_url(path, world), BODIES.get(path, {}), format="json")
    assert r.status_code in (401, 403), (path, r.status_code, r.content[:200])
    assert "detail" in r.json()
    assert _row_counts() == before


@pytest.mark.parametrize("path", sorted(HOST_ONLY))
def test_another_users_host_writes_are_refused_and_change_nothing(path: str) -> None:
    world = _world()
    intruder = _client("intruder")
    before = _row_counts()
    r = intruder.post(_url(path, world), BODIES.get(path, {}), format="json")
    assert r.status_code == 403, (path, r.status_code, r.content[:200])
    assert _row_counts() == before


@pytest.mark.parametrize("path", sorted(SEATED_ONLY))
def test_another_user_cannot_resign_for_a_seated_player(path: str) -> None:
    """At the started table (its match live): 403 for a user not seated, and no seat left, no event logged."""
    world = _world()
    from games.models import MatchEvent, Seat

    intruder = _client("intruder")
    before = (_row_counts(), MatchEvent.objects.filter(match_id=world["match"]).count())
    r = intruder.post(path.replace("{table_id}", str(world["table"])), {}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_seated", r.content[:200]
    assert (_row_counts(), MatchEvent.objects.filter(match_id=world["match"]).count()) == before
    assert not Seat.objects.filter(table_id=world["table"], withdrawn=True).exists()


@pytest.mark.parametrize("path", sorted(STAFF_ONLY))
def test_a_non_staff_users_moderation_is_refused_and_changes_nothing(path: str) -> None:
    world = _world()
    intruder = _client("intruder")
    before = _row_counts()
    r = intruder.post(_url(path, world), {"username": "host", "action": "ban"}, format="json")
    assert r.status_code == 403, (path, r.status_code, r.content[:200])
    assert _row_counts() == before


@pytest.mark.parametrize("who", ["anonymous", "intruder"])
def test_fair_play_reads_are_staff_only(who: str) -> None:
    """The moderators' queue is refused; a player's statistics carry no fair-play record; my notices are mine."""
    _world()
    client = _client(None if who == "anonymous" else who)
    assert client.get("/api/moderation/queue/").status_code == (401 if who == "anonymous" else 403)
    stats = client.get("/api/stats/players/host/")
    assert stats.status_code == 200 and "fair_play" not in stats.json()
    mine = client.get("/api/me/moderation/")
    assert mine.status_code == (401 if who == "anonymous" else 200)


def test_another_users_queue_calls_act_on_their_own_entry_alone() -> None:
    _world()
    from accounts.models import User
    from matchmaking.models import QueueEntry

    host = User.objects.get(username="host")
    QueueEntry.objects.create(user=host, game="zwicker", seats=3, since=host.date_joined)
    intruder = _client("intruder")
    assert intruder.get("/api/queue/").status_code == 404
    assert intruder.delete("/api/queue/").status_code == 404
    assert QueueEntry.objects.filter(user=host).exists()


@pytest.mark.parametrize("path", sorted(CHALLENGED_ONLY))
@pytest.mark.parametrize("who", ["intruder", "host"])
def test_only_the_challenged_player_answers_a_challenge(path: str, who: str) -> None:
    """A stranger is told there is no such challenge (404); its challenger may not answer for the other (403)."""
    world = _world()
    from accounts.models import User

    if who == "intruder":
        client = _client("intruder")
    else:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=User.objects.get(username='host'))}")
    before = _row_counts()
    r = client.post(_url(path, world), {}, format="json")
    assert r.status_code == (404 if who == "intruder" else 403), (path, r.status_code, r.content[:200])
    assert _row_counts() == before


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_the_account_calls_act_on_the_caller_alone(method: str) -> None:
    """`/api/me/...` names no account: another user's call reads or changes only their own (a wrong
    password deletes nothing; the export holds none of the host's rows)."""
    world = _world()
    from accounts.models import User

    host = User.objects.get(username="host")
    intruder = _client("intruder")
    before = _row_counts()
    body = {"password": "not the host's"} if method == "delete" else {"email": "x@example.org"} if method == "patch" else None
    r = getattr(intruder, method)("/api/me/", body, format="json")
    assert r.status_code == {"get": 200, "patch": 200, "delete": 400}[method]
    if method != "delete":
        assert r.json()["username"] == "intruder"
    host.refresh_from_db()
    assert host.is_active and host.email == ""
    assert _row_counts() == before
    export = intruder.get("/api/me/export/").json()
    assert export["account"]["username"] == "intruder" and "games.table" not in export["records"]
    assert world["challenge"] not in [row["id"] for row in export["records"].get("people.challenge", [])]


def _seat_client(match: Match, seat: int) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=match.players.get(seat=seat).user)}")
    return c


READS: list[tuple[str, Callable[[int], str]]] = [
    ("timeline seat:0", lambda m: f"/api/matches/{m}/timeline/?perspective=seat:0"),
    ("timeline all", lambda m: f"/api/matches/{m}/timeline/?perspective=all"),
    ("state seat:0", lambda m: f"/api/matches/{m}/state/?perspective=seat:0"),
    ("state all", lambda m: f"/api/matches/{m}/state/?perspective=all"),
    ("export", lambda m: f"/api/matches/{m}/export/"),
]


@pytest.mark.parametrize(("name", "url"), READS, ids=[n for n, _ in READS])
@pytest.mark.parametrize("who", ["anonymous", "stranger", "other seat"])
def test_live_match_hidden_views_are_refused(name: str, url: Callable[[int], str], who: str) -> None:
    """While a match is live only seat 0's player gets seat 0's view; nobody gets `all` or the export."""
    _, match, _ = started_table(players=2)
    client = {"anonymous": lambda: _client(None), "stranger": lambda: _client("stranger"), "other seat": lambda: _seat_client(match, 1)}[who]()
    r = client.get(url(match.pk))
    assert r.status_code == (409 if name == "export" else 403), (name, who, r.status_code, r.content[:200])
    assert set(r.json()) <= {"detail", "code"}  # a refusal, no view or event in it
    if name != "export" and who == "other seat" and not name.endswith("all"):
        assert _seat_client(match, 0).get(url(match.pk)).status_code == 200  # the owner of the seat does see it


def test_revoking_a_token_is_the_callers_own() -> None:
    """`DELETE /api/auth/token/` (the path's POST is an anonymous write): anonymous 401; another user's call
    revokes only their own token, the host's keeps working."""
    _world()
    from accounts.models import User

    host_token = token_for(user=User.objects.get(username="host"))
    assert APIClient().delete("/api/auth/token/").status_code == 401
    intruder = _client("intruder")
    assert intruder.delete("/api/auth/token/").status_code == 204
    assert intruder.get("/api/me/").status_code == 401
    host = APIClient()
    host.credentials(HTTP_AUTHORIZATION=f"Token {host_token}")
    assert host.get("/api/me/").json()["username"] == "host"
