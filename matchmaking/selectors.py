"""Reads of matchmaking: my entry, who waits for what, and the rating a player is matched by."""

from __future__ import annotations

from typing import Any

from matchmaking.models import QueueEntry


def entry_payload(entry: QueueEntry) -> dict[str, Any]:
    return {"game": entry.game, "seats": entry.seats, "status": "waiting", "since": entry.since.isoformat()}


def my_entry(*, user_id: int) -> QueueEntry | None:
    return QueueEntry.objects.filter(user_id=user_id).first()


def waiting_kinds() -> list[tuple[str, int]]:
    """Every (game, seats) someone waits for."""
    return sorted(set(QueueEntry.objects.values_list("game", "seats")))


def friendly_ratings(*, game: str, user_ids: list[int]) -> dict[int, float]:
    """The friendly figure (1500 at the start) of each player's rating of the game; a newcomer's is 1500.

    The one place matchmaking reads ratings (stats.models.Rating).
    """
    from stats import ratings
    from stats.models import Rating

    known = dict(Rating.objects.filter(game=game, user_id__in=user_ids).values_list("user_id", "display"))
    return {u: float(ratings.friendly_of(known.get(u, ratings.initial().display))) for u in user_ids}
