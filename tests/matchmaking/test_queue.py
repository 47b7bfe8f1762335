"""The matchmaking queue over REST and the lobby socket (PROTOCOL.md "Matchmaking")."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games.models import Match, Table
from matchmaking.models import QueueEntry
from matchmaking.services import queue_sweep
from stats.models import Rating
from tests.conftest import Clock
from tests.games.factories import user
from tests.moderation.factories import client


def rated(u: User, display: float) -> None:
    Rating.objects.create(user=u, game="zwicker", mu=display + 3 * 3, sigma=3, display=display, rated_matches=20, provisional=False)


@pytest.mark.django_db
def test_join_look_leave() -> None:
    ada = user("ada")
    r = client(ada).post("/api/queue/", {"game": "zack", "seats": 3}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert (body["game"], body["seats"], body["status"]) == ("zack", 3, "waiting") and body["since"]
    assert client(ada).get("/api/queue/").json() == body
    again = client(ada).post("/api/queue/", {"game": "zack", "seats": 4}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "queued"
    assert client(ada).delete("/api/queue/").status_code == 204
    assert client(ada).get("/api/queue/").status_code == 404
    assert client(ada).delete("/api/queue/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{"game": "chess", "seats": 2}, {"game": "zack", "seats": 2}, {"game": "zack", "seats": 9}, {"game": "zack"}, {"seats": 2}])
def test_bad_requests_wait_for_nothing(body: dict[str, Any]) -> None:
    r = client(user("ada")).post("/api/queue/", body, format="json")
    assert r.status_code == 400
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_anonymous_has_no_queue() -> None:
    c = client(None)
    assert c.post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json").status_code == 401
    assert c.get("/api/queue/").status_code == 401 and c.delete("/api/queue/").status_code == 401


@pytest.mark.django_db(transaction=True)
def test_nearest_ratings_sit_together_at_a_ranked_table_of_people_that_starts(clock: Clock) -> None:
    people = {name: user(name) for name in ("a", "b", "c", "d")}
    for name, display in (("a", 0.0), ("b", 20.0), ("c", 1.0), ("d", 21.0)):
        rated(people[name], display)
    for name in ("a", "b"):
        assert client(people[name]).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json").status_code == 201
    assert not Table.objects.exists()  # 800 friendly points apart: each waits for someone nearer
    for name in ("c", "d"):
        client(people[name]).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json")
    tables = list(Table.objects.order_by("id"))
    assert len(tables) == 2 and not QueueEntry.objects.exists()
    seated = [sorted(s.user.username for s in t.seat_set.all()) for t in tables]
    assert seated == [["a", "c"], ["b", "d"]]
    for t in tables:
        assert t.ranked and t.status == Table.Status.PLAYING
        match = Match.objects.get(table=t)
        assert match.ranked and not match.players.filter(user__is_bot=True).exists()  # bots never sit at a queued table


@pytest.mark.django_db(transaction=True)
def test_the_band_widens_with_the_wait_and_the_sweep_seats_them(clock: Clock) -> None:
    far, near = user("far"), user("near")
    rated(far, 0.0)
    rated(near, 15.0)  # 600 friendly points apart
    client(far).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json")
    client(near).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json")
    assert queue_sweep() == 0
    clock.advance(30)
    assert queue_sweep() == 0  # 100 + 10 x 30 = 400: not yet
    clock.advance(25)
    assert queue_sweep() == 1  # 650 >= 600
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_player_banned_while_waiting_is_never_seated(clock: Clock) -> None:
    ada, bea, cy = user("ada"), user("bea"), user("cy")
    client(ada).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json")
    User.objects.filter(pk=ada.pk).update(is_active=False)
    client(bea).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json")
    assert not Table.objects.exists() and not QueueEntry.objects.filter(user=ada).exists()
    client(cy).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json")
    assert sorted(s.user.username for s in Table.objects.get().seat_set.all()) == ["bea", "cy"]


@pytest.mark.django_db(transaction=True)
def test_a_blocked_player_is_never_seated_with_the_blocker(clock: Clock) -> None:
    from people.models import Block

    ada, bob, cy = user("ada"), user("bob"), user("cy")
    for u, display in ((ada, 0.0), (bob, 0.5), (cy, 1.0)):
        rated(u, display)
    Block.objects.create(blocker=ada, blocked=bob)
    for u in (ada, bob):
        assert client(u).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json").status_code == 201
    assert not Table.objects.exists()  # nearest ratings, but ada blocks bob: both wait on
    client(cy).post("/api/queue/", {"game": "zwicker", "seats": 2}, format="json")
    table = Table.objects.get()
    seated = sorted(s.user.username for s in table.seat_set.all())
    assert "ada" not in seated or "bob" not in seated
    assert QueueEntry.objects.count() == 1
