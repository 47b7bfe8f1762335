"""The human floor on table create, checked the same way for every race game (PROTOCOL.md "Fair play")."""

from __future__ import annotations

from rest_framework.test import APIClient

from accounts.services import token_for
from tests.games.factories import user


def check_floor_on_table_create(game: str, seats: int) -> None:
    """Ranked tables refuse `min_reaction_ms` 0 (400 `bad_option`); unranked ones take it; the default is 100."""
    host = user(f"floor-{game}")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=host)}")
    refused = api.post("/api/tables/", {"game": game, "seats": seats, "ranked": True, "min_reaction_ms": 0}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_option", refused.content
    assert "min_reaction_ms" in refused.json()["detail"]
    too_high = api.post("/api/tables/", {"game": game, "seats": seats, "min_reaction_ms": 151}, format="json")
    assert too_high.status_code == 400 and too_high.json()["code"] == "bad_option", too_high.content
    off = api.post("/api/tables/", {"game": game, "seats": seats, "min_reaction_ms": 0}, format="json")
    assert off.status_code == 201 and off.json()["min_reaction_ms"] == 0, off.content
    ranked = api.post("/api/tables/", {"game": game, "seats": seats, "ranked": True}, format="json")
    assert ranked.status_code == 201 and ranked.json()["min_reaction_ms"] == 100, ranked.content
