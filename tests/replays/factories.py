"""Finished matches built straight into the database, for rating and statistics tests."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from accounts.models import User
from games.models import Match, MatchEvent, MatchPlayer

BASE = timezone.now().replace(microsecond=0) - dt.timedelta(days=30)


def outcome_of(places: list[int]) -> dict[str, Any]:
    return {
        "placements": [{"seat": s, "place": p} for s, p in enumerate(places)],
        "winners": [s for s, p in enumerate(places) if p == 1],
    }


def finished_match(
    game: str,
    players: list[User],
    places: list[int],
    *,
    ranked: bool = True,
    minute: float = 0,
    events: list[dict[str, Any]] | None = None,
    status: str = Match.Status.FINISHED,
) -> Match:
    """A match of `players` (seat order) that ended `minute` minutes after BASE with `places`."""
    ended = BASE + dt.timedelta(minutes=minute)
    events = events or [{"t_ms": 0, "kind": "dealt", "seat": None, "data": {"first": 0}}]
    match = Match.objects.create(
        game=game,
        seats=len(players),
        options={},
        ranked=ranked,
        state=None,
        seq=len(events),
        status=status,
        outcome=outcome_of(places) if status == Match.Status.FINISHED else None,
        started_at=ended - dt.timedelta(minutes=5),
        ended_at=ended,
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, seat=s, user=u, bot_level=u.bot_level, place=places[s]) for s, u in enumerate(players)
    )
    MatchEvent.objects.bulk_create(
        MatchEvent(match=match, seq=i + 1, t_ms=e.get("t_ms", 0), kind=e["kind"], seat=e.get("seat"), data=e.get("data", {}))
        for i, e in enumerate(events)
    )
    return match
