"""Reports, moderators' actions, each account's standing and its fair-play record.

An action is a fact kept for ever (`ModerationAction`: who took it, when, on whom);
`Standing` is what the actions add up to now (muted, marked, the last warning),
so a chat message or a rating asks one row, not the history.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Report(models.Model):
    class Reason(models.TextChoices):
        CHEATING = "cheating"
        ABUSE = "abuse"
        OTHER = "other"

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_against")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    text = models.CharField(max_length=1000, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "reported"], condition=Q(resolved_at__isnull=True), name="one_open_report_per_pair"
            ),
        ]


class ModerationAction(models.Model):
    class Kind(models.TextChoices):
        WARN = "warn"
        MUTE = "mute"
        MARK = "mark"
        BAN = "ban"
        CLEAR = "clear"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_actions")
    action = models.CharField(max_length=10, choices=Kind.choices)
    note = models.CharField(max_length=1000, blank=True, default="")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "-id"], name="moderation_action_of_user")]


class Standing(models.Model):
    """What the actions on an account add up to now (absent: in good standing)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standing")
    muted = models.BooleanField(default=False)
    marked = models.BooleanField(default=False)


class FairPlayRecord(models.Model):
    """A player's fair-play record as last assessed (moderation/fair_play.py), and its `rtt_inflated` counter.

    `rtt_inflated` is counted by the live side (`services.fair_play_rtt_inflated_record`); the rest is
    written after each finished match of the player. `cleared_races`: the `races` at the last `clear`;
    a flag stands in the queue again only once more races were counted after it.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fair_play")
    races = models.PositiveIntegerField(default=0)
    judged_median_ms = models.FloatField(null=True)
    anticipations = models.PositiveIntegerField(default=0)
    rtt_inflated = models.PositiveIntegerField(default=0)
    flagged = models.BooleanField(default=False, db_index=True)
    reasons = models.JSONField(default=list)
    evidence = models.JSONField(default=dict)
    cleared_races = models.PositiveIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
