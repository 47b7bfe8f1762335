"""The matchmaking queue: one waiting entry per player (PROTOCOL.md "Matchmaking")."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class QueueEntry(models.Model):
    """A player waiting for a ranked table of `game` with `seats` seats, since `since`."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry")
    game = models.CharField(max_length=20)
    seats = models.PositiveSmallIntegerField()
    since = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "seats", "since"], name="queue_by_game_and_size")]
