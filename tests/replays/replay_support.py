"""Builders for the replay tests: matches played through the real services, and API clients."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import token_for
from games.models import Match, MatchEvent
from games.services.actions import action_submit
from tests.games.factories import started_table


def client(user: User | None = None) -> APIClient:
    """An API client; with a user it sends that user's token, as API clients do."""
    c = APIClient()
    if user is not None:
        c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=user)}")
    return c


def play_tiny_to_the_end(match: Match) -> Match:
    """Each seat in turn plays its first card through `action_submit` until the tiny game ends."""
    for i in range(200):
        match.refresh_from_db()
        if match.status != Match.Status.LIVE:
            return match
        seat = match.state["turn"]
        card = match.state["hands"][seat][0]["id"]
        action_submit(match_id=match.pk, seat=seat, action={"kind": "play", "card": card}, action_id=f"end-{i}")
    raise AssertionError("the tiny game did not end")


def tiny_match(*, players: int = 2, bots: int = 0, hand: int = 3, finish: bool = False) -> tuple[Match, list[User]]:
    _, match, humans = started_table(players=players, bots=bots, game="tiny", options={"hand": hand})
    if finish:
        match = play_tiny_to_the_end(match)
    return match, humans


def stored_log(match: Match) -> list[dict[str, Any]]:
    return [e.as_event() for e in MatchEvent.objects.filter(match=match).order_by("seq")]


def plain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"kind": e["kind"], "seat": e["seat"], "data": e["data"]} for e in events]
