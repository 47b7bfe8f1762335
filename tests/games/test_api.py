"""REST for games and tables: the answers and refusals of PROTOCOL.md, JSON bodies saying why."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services import token_for
from games.models import Match
from tests.games.factories import user

pytestmark = [pytest.mark.django_db, pytest.mark.core]


def client_for(name: str) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=user(name))}")
    return c


def test_games_list_has_every_game_with_its_options() -> None:
    games = APIClient().get("/api/games/").json()
    slugs = [g["slug"] for g in games]
    assert slugs == ["zack", "zwicker", "zigzag", "smackit"]
    for g in games:
        assert set(g) == {"slug", "name", "min_seats", "max_seats", "teams", "options"}
        for spec in g["options"].values():
            assert {"type", "default", "help"} <= set(spec)
    assert next(g for g in games if g["slug"] == "zigzag")["teams"] is True


def test_table_lifecycle_over_rest() -> None:
    host, guest = client_for("host"), client_for("guest")
    r = host.post("/api/tables/", {"game": "smackit", "seats": 3, "options": {"max_minutes": 5}}, format="json")
    assert r.status_code == 201
    table = r.json()
    assert table["players"] == [{"seat": 0, "username": "host", "bot": False, "level": None, "zombie": False, "left": False, "connected": False, "rtt_ms": None}]
    assert table["status"] == "open" and table["match"] is None and table["options"] == {"max_minutes": 5}
    tid = table["id"]
    assert guest.post(f"/api/tables/{tid}/join/", {"seat": 0}, format="json").status_code == 409
    assert guest.post(f"/api/tables/{tid}/join/", {"seat": 2}, format="json").json()["players"][1]["seat"] == 2
    r = guest.post(f"/api/tables/{tid}/bots/", {}, format="json")
    assert r.status_code == 403 and r.json()["detail"]
    r = host.post(f"/api/tables/{tid}/start/")
    assert r.status_code == 409 and "2 of 3" in r.json()["detail"]
    assert host.post(f"/api/tables/{tid}/bots/", {"level": "hard"}, format="json").status_code == 200
    r = host.post(f"/api/tables/{tid}/start/")
    assert r.status_code == 200 and r.json()["status"] == "playing" and Match.objects.filter(pk=r.json()["match"]).exists()
    assert guest.post(f"/api/tables/{tid}/leave/").status_code == 409
    listed = APIClient().get("/api/tables/?status=playing&game=smackit").json()
    assert [t["id"] for t in listed] == [tid]
    assert APIClient().get("/api/tables/?status=open").json() == []


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "chess", "seats": 2}, 400),
        ({"game": "zack", "seats": 2}, 400),
        ({"game": "zack", "seats": "three"}, 400),
        ({"game": "zack", "seats": 4, "options": {"stop_cards": "yes"}}, 400),
        ({"game": "zack", "seats": 4, "options": {"warp": True}}, 400),
        ({"seats": 4}, 400),
    ],
)
def test_bad_table_requests_say_why(body: dict, status: int) -> None:
    r = client_for("x").post("/api/tables/", body, format="json")
    assert r.status_code == status and r.json()


def test_unknown_table_is_404_and_anonymous_writes_are_refused() -> None:
    assert APIClient().get("/api/tables/999999/").status_code == 404
    assert client_for("y").post("/api/tables/999999/join/", {}, format="json").status_code == 404
    assert APIClient().post("/api/tables/", {"game": "zack", "seats": 4}, format="json").status_code in (401, 403)


def test_openapi_schema_and_docs_are_served() -> None:
    schema = APIClient().get("/api/schema/")
    assert schema.status_code == 200 and b"/api/tables/{table_id}/start/" in schema.content
    docs = APIClient().get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower() and b"cdn." not in docs.content


def test_health_endpoint() -> None:
    r = APIClient().get("/health/")
    assert r.status_code == 200 and r.json() == {"status": "ok", "database": "ok"}


def test_admin_lists_tables_for_staff(client) -> None:
    from accounts.models import User

    staff = User.objects.create_superuser("root", password="correct horse 42")
    client.force_login(staff)
    assert client.get("/admin/games/table/").status_code == 200
    assert client.get("/admin/games/match/").status_code == 200


@pytest.mark.parametrize(
    ("given", "status", "kept"),
    [(None, 201, 45), (10, 201, 10), (600, 201, 600), (9, 400, None), (601, 400, None), ("x", 400, None), (True, 400, None)],
)
def test_zombie_seconds_is_a_table_option_with_bounds(given: object, status: int, kept: int | None) -> None:
    body = {"game": "zack", "seats": 3} | ({} if given is None else {"zombie_seconds": given})
    r = client_for("host").post("/api/tables/", body, format="json")
    assert r.status_code == status, r.json()
    if kept is None:
        return
    table = r.json()
    assert table["zombie_seconds"] == kept and "zombie_seconds" not in table["options"]
    assert APIClient().get(f"/api/tables/{table['id']}/").json()["zombie_seconds"] == kept


def test_zombie_seconds_out_of_bounds_says_the_bounds_and_why() -> None:
    r = client_for("host").post("/api/tables/", {"game": "zack", "seats": 3, "zombie_seconds": 5}, format="json")
    assert r.status_code == 400
    assert r.json()["code"] == "bad_option"
    assert "zombie_seconds" in r.json()["detail"] and "10 to 600" in r.json()["detail"] and "bot" in r.json()["detail"]


def test_organised_tables_take_zombie_seconds_too() -> None:
    from games import errors
    from games.services.tables import table_create_for
    organiser = user("organiser")
    table = table_create_for(organiser=organiser, game="zack", players=[(None, "easy")] * 3, start=False, zombie_seconds=120)
    assert table.zombie_seconds == 120
    with pytest.raises(errors.PlatformError) as e:
        table_create_for(organiser=organiser, game="zack", players=[(None, "easy")] * 3, start=False, zombie_seconds=0)
    assert e.value.status == 400 and e.value.code == "bad_option"
