"""Tournaments: entries, rounds and the game tables each round seats.

Results are not copied into points here: a seat keeps its place, and the
standings are computed by the pure `tournaments.standings` from places, so a
change of the points rule never needs a data migration.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings
from django.db import models


def new_seed() -> str:
    """A tournament's master seed: 128 random bits, never shown (it decides every round's deal and seating)."""
    return secrets.token_hex(16)


def derived_seed(parent: str, label: str) -> str:
    """A child seed that reveals neither its parent nor its siblings (HMAC-SHA256, 128 bits in hex).

    A round's seed is published once the round is over, so people can check
    that its tables shared one deal; were it `parent + label`, reading it would
    give the master seed and with it every later round's cards before they are
    dealt. The same holds one level down for the tables of one round.
    """
    return hmac.new(parent.encode(), label.encode(), hashlib.sha256).hexdigest()[:32]


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss"
        ROUND_ROBIN = "round_robin"
        KNOCKOUT = "knockout"
        ARENA = "arena"

    class Status(models.TextChoices):
        DRAFT = "draft"  # created, registration not open yet
        REGISTERING = "registering"
        RUNNING = "running"
        PAUSED = "paused"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=20, db_index=True)
    format = models.CharField(max_length=12, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)  # swiss, round robin (None: the format decides)
    duration_minutes = models.PositiveIntegerField(null=True, blank=True)  # arena
    options = models.JSONField(default=dict, blank=True)  # game options of every table
    ranked = models.BooleanField(default=False)
    duplicate = models.BooleanField(default=False)  # every table of a round plays the same deal
    no_show_seconds = models.PositiveIntegerField(default=120)  # 0: never replace no-shows
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_tournaments")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING, db_index=True)
    starts_at = models.DateTimeField(null=True, blank=True)  # None: the organiser starts it
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)  # arena: no table starts after this
    ended_at = models.DateTimeField(null=True, blank=True)
    seed = models.CharField(max_length=32, default=new_seed)
    note = models.CharField(max_length=200, blank=True, default="")  # why a scheduled start did not happen
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A registered player (a person or a named bot account)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    bot_level = models.CharField(max_length=10, blank=True, default="")
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn = models.BooleanField(default=False)  # removed by the organiser while running
    eliminated_in = models.PositiveSmallIntegerField(null=True, blank=True)  # knockout
    waiting_since = models.DateTimeField(null=True, blank=True)  # arena: in the pool since

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]
        ordering = ["id"]


class Round(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running"
        FINISHED = "finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    seed = models.CharField(max_length=64, blank=True, default="")  # duplicate: the deal of this round
    byes = models.JSONField(default=list, blank=True)  # user ids who sit out this round
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number")]
        ordering = ["number"]


class TournamentTable(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="tournament_table")
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    done = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]


class TournamentSeat(models.Model):
    tournament_table = models.ForeignKey(TournamentTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    replaced = models.BooleanField(default=False)  # handed to a bot as a no-show
    forfeit = models.BooleanField(default=False)  # replaced and never connected: scores 0

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament_table", "seat"], name="one_player_per_tournament_seat")]
        ordering = ["seat"]
