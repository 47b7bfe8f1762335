"""Ratings and statistics, stored so that reading them never re-reads event logs.

Ratings: `Rating` is the current figure per account and game; every change is
a `RatingChange` (the history), unique per match and account, so a match is
applied once. `RatingLedger` is one row per game: its lock orders the rating
updates of that game, and it remembers the last match applied.

Statistics: `MatchStats` holds what one finished match's log says (unique per
match: counted once); `PlayerGameStats` and `GameStats` hold the running
tallies (see stats/figures.py). All of it can be rebuilt from the matches by
`recompute_ratings` and `recompute_stats`.

The models were born in the `replays` app and moved here with their tables:
`db_table` keeps each table's name (and the constraints and indexes keep theirs),
and the migrations `stats.0001` / `replays.0002` moved only Django's state.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.FloatField()  # openskill's ordinal (mu - 3 sigma): the ranking figure
    rated_matches = models.PositiveIntegerField(default=0)
    provisional = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "replays_rating"
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["game", "provisional", "-display", "user"], name="leaderboard_order")]


class RatingChange(models.Model):
    """One account's rating change in one ranked match (the rating history)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=20)
    ended_at = models.DateTimeField()  # the match's end: with the match id, the order ratings are applied in
    place = models.PositiveSmallIntegerField(null=True)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.FloatField()

    class Meta:
        db_table = "replays_ratingchange"
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_rating_change_per_match")]
        indexes = [
            models.Index(fields=["user", "game", "ended_at", "match"], name="rating_history"),
            models.Index(fields=["game", "ended_at", "match"], name="rating_change_order"),
        ]
        ordering = ["ended_at", "match_id"]


class RatingLedger(models.Model):
    """Per game: the lock that orders rating updates, and the last match applied."""

    game = models.CharField(max_length=20, unique=True)
    last_ended_at = models.DateTimeField(null=True)
    last_match_id = models.BigIntegerField(null=True)
    updates = models.PositiveBigIntegerField(default=0)

    class Meta:
        db_table = "replays_ratingledger"



class MatchStats(models.Model):
    """What one finished match's log says (stats.figures.MatchFigures as JSON); its row marks it counted."""

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="stats")
    game = models.CharField(max_length=20, db_index=True)
    figures = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "replays_matchstats"



class PlayerGameStats(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_stats")
    game = models.CharField(max_length=20)
    tally = models.JSONField()

    class Meta:
        db_table = "replays_playergamestats"
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_stats_row_per_game")]


class GameStats(models.Model):
    """A game's tally over all its matches; its row is also the lock statistics updates take."""

    game = models.CharField(max_length=20, unique=True)
    tally = models.JSONField()

    class Meta:
        db_table = "replays_gamestats"
