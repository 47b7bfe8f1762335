"""The custom user, present from the first migration so it can grow later."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player. Bots are users too (`is_bot`), so seats, ratings and history treat them alike."""

    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=10, blank=True, default="")
    language = models.CharField(max_length=5, blank=True, default="")

    def __str__(self) -> str:
        return self.username
