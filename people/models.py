"""Who follows whom, who blocks whom, and challenges to a match.

Each row names its actor first (follower, blocker, challenger): accounts.export exports a row for the
user in its first user column, so nobody learns from their export who blocked them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Follow(models.Model):
    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following_links")
    followee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followee"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followee")), name="follow_not_self"),
        ]
        ordering = ["id"]


class Block(models.Model):
    """The blocked player's chat never reaches the blocker, neither joins a table the other hosts, and
    neither can challenge the other (people.selectors.blocked_between)."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking_links")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_reverse")]
        ordering = ["id"]


class Challenge(models.Model):
    """An invitation of one player to a table its challenger hosts (made with the challenge)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"  # the table started, closed or went away before an answer

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received")
    table = models.ForeignKey("games.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    game = models.CharField(max_length=20)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["challenged", "status"], name="challenge_inbox")]
