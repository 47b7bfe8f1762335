"""Builders for tournament tests."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from tournaments import services
from tournaments.models import Tournament


def organiser(name: str = "org") -> User:
    return User.objects.create_user(name, password="correct horse 42")


def bot_tournament(
    fmt: str, bots: int, *, game: str = "tiny", table_size: int = 3, by: User | None = None, **kwargs: Any
) -> Tournament:
    """A tournament with `bots` named normal bots registered (not started)."""
    by = by or organiser()
    kwargs.setdefault("options", {"hand": 2})
    t = services.tournament_create(organiser=by, name=f"{fmt} cup", game=game, format=fmt, table_size=table_size, **kwargs)
    services.tournament_add_bots(tournament_id=t.pk, by=by, level="normal", count=bots)
    return t
