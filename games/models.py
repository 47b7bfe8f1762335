"""Tables, matches and the event log. A match *is* its event log; `state` is a cache of its fold."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    """The lobby object: seats, options and a host; each start makes a Match."""

    class Status(models.TextChoices):
        OPEN = "open"
        PLAYING = "playing"
        FINISHED = "finished"

    game = models.CharField(max_length=20, db_index=True)
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    ranked = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables")
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    dealer = models.SmallIntegerField(default=-1)  # -1: the last seat; moves one seat left per rematch
    zombie_seconds = models.PositiveIntegerField(default=45)
    # Fair races: a race claim is judged at arrival minus the sender's round trip, counted up to this
    # (games/table_options.py; 0 judges on arrival).
    lag_cap_ms = models.PositiveIntegerField(default=200)
    # A human floor (PROTOCOL "Fair play"): a race claim judged sooner than this after its card was shown is
    # an anticipation and never wins (games/kit/races.py; 0 off, unranked tables only).
    min_reaction_ms = models.PositiveIntegerField(default=100)
    current_match = models.ForeignKey("Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.game} table {self.pk}"


class Seat(models.Model):
    """A filled seat: a user, or a bot (a bot user with a level).

    A row is one occupancy: leaving deletes it, sitting down makes a new one, so
    what is stored here about the player (`seen_at`, `zombie`, `withdrawn`)
    never carries over to whoever takes the seat next. Whether the player is
    connected is not stored here: it is derived from `TableConnection` rows of
    (table, user) whose web process's heartbeat is fresh (selectors.present_user_ids).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats")
    bot_level = models.CharField(max_length=10, blank=True, default="")
    # When the player was last known at the table: a socket opened or closed, or the last heartbeat of
    # the web process that held its socket when that process died. Away time counts from here. None: the
    # player never came (a tournament's no-show).
    seen_at = models.DateTimeField(null=True, blank=True)
    zombie = models.BooleanField(default=False)  # a normal bot plays it until its player is back
    # Removed from its tournament: the bot keeps the seat for good; a reconnect does not undo it and the
    # player's own actions are refused (`withdrawn`).
    withdrawn = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="one_player_per_seat")]
        ordering = ["seat"]

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)


class Match(models.Model):
    """One deal-to-end game at a table. `state`/`seq` cache the fold of `events`."""

    class Status(models.TextChoices):
        LIVE = "live"
        FINISHED = "finished"
        ABORTED = "aborted"

    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches")
    game = models.CharField(max_length=20, db_index=True)
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    ranked = models.BooleanField(default=False)
    state = models.JSONField(null=True)
    seq = models.PositiveIntegerField(default=0)
    last_t_ms = models.BigIntegerField(default=0)  # match time never runs backwards
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LIVE, db_index=True)
    outcome = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    seed = models.CharField(max_length=64, blank=True, default="")  # tournaments' duplicate deals share one

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.game} match {self.pk}"


class MatchPlayer(models.Model):
    """Who sat where in a match (history, statistics, permissions); fixed for the match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_seats")
    bot_level = models.CharField(max_length=10, blank=True, default="")
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_player_per_match_seat")]
        ordering = ["seat"]


class MatchEvent(models.Model):
    """One fact of the log; `(match, seq)` is unique and seqs are consecutive from 1."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    t_ms = models.BigIntegerField()
    kind = models.CharField(max_length=40)
    seat = models.SmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="unique_match_seq")]
        ordering = ["match", "seq"]

    def as_event(self) -> dict:
        return {"seq": self.seq, "t_ms": self.t_ms, "kind": self.kind, "seat": self.seat, "data": self.data}


class ActionRecord(models.Model):
    """A committed client action id: a repeated id is answered as the first time."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="action_records")
    seat = models.SmallIntegerField(null=True)
    client_id = models.CharField(max_length=64)
    seq = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat", "client_id"], name="unique_action_id")]


class PendingTimer(models.Model):
    """A timer a rule asked for; the sweeper fires overdue ones a lost worker dropped."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="timers")
    timer_id = models.CharField(max_length=80)
    due_ms = models.BigIntegerField()
    fired = models.BooleanField(default=False, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "timer_id"], name="unique_timer")]


class Snapshot(models.Model):
    """The folded state after `seq`, so a replay seeks without folding from the start."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="unique_snapshot")]


class ChatMessage(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class WebProcess(models.Model):
    """A running web (daphne) process, alive while its heartbeat is fresh: a lease.

    Each process refreshes its one row every PRESENCE_HEARTBEAT_SECONDS (live/heartbeat.py), one
    write per process and interval however many sockets it holds. A process that dies stops
    refreshing; after PRESENCE_LEASE_SECONDS its connections no longer count and the presence
    sweeper removes them, counting its players' away time from `seen_at`, its last beat.
    """

    id = models.UUIDField(primary_key=True)
    seen_at = models.DateTimeField(db_index=True)
    name = models.CharField(max_length=100, blank=True, default="")  # host:pid, for people reading the table

    def __str__(self) -> str:
        return f"web process {self.name or self.id}"


class TableConnection(models.Model):
    """One open table socket of a signed-in user (players and spectators alike).

    Keyed by user, not by seat number: the seat a connection stands for is
    `Seat(table, user)` at the time it is asked, so a player who left a seat and
    closes an old socket says nothing about whoever sits there now, and a
    spectator who sits down counts as connected at once. It counts while the
    process `process_id` beats (no foreign key: a process row may be swept and
    made again while its sockets stay open; its heartbeat writes back what is missing).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=255, unique=True)
    process_id = models.UUIDField(db_index=True)
    opened_at = models.DateTimeField()
    # The socket's round trip as the server measures it (games/kit/latency.py), written only when it moves
    # noticeably: what the table payload shows and what a race waits for a seat that has not claimed yet.
    rtt_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["table", "user"], name="connection_table_user")]
