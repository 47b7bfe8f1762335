"""Writes of matchmaking: join and leave the queue, seat the waiting players at ranked tables.

Matching runs after each join (for that game and size) and every few seconds from Celery beat
(`matchmaking.sweep`: the bands widen with the wait). A group is seated at a new **ranked** table
made through games' public service `table_create_for` (the first player hosts; every seat a person,
never a bot) that starts at once, since every seat is filled; each player hears
`{"type": "matched", "table": <id>}` on their lobby socket (group `user-<id>`), after the commit.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import errors
from games.kit.registry import get_rules, public_slugs
from games.services.tables import table_create_for
from live import bus
from matchmaking import pairing, selectors
from matchmaking.models import QueueEntry
from people import selectors as people_selectors
from people.groups import user_group


def queue_join(*, user: User, game: str, seats: int) -> QueueEntry:
    """Wait for a ranked table; 409 `queued` when already waiting (leave first to change game or size)."""
    if game not in public_slugs():
        raise errors.bad_request(f"unknown game {game!r}", "unknown_game")
    rules = get_rules(game)
    if isinstance(seats, bool) or not isinstance(seats, int) or not rules.min_seats <= seats <= rules.max_seats:
        raise errors.bad_request(f"{rules.name} is played by {rules.min_seats} to {rules.max_seats} players", "bad_seats")
    with transaction.atomic():
        entry, made = QueueEntry.objects.get_or_create(user=user, defaults={"game": game, "seats": seats, "since": timezone.now()})
    if not made:
        raise errors.conflict("you are already waiting for a table", "queued")
    queue_match(game=game, seats=seats)
    return entry


def queue_leave(*, user: User) -> None:
    if not QueueEntry.objects.filter(user=user).delete()[0]:
        raise errors.not_found("you are not waiting for a table", "not_queued")


def queue_match(*, game: str, seats: int) -> list[int]:
    """Seat whoever can be seated now for this game and size; returns the new tables' ids."""
    made: list[int] = []
    with transaction.atomic():
        QueueEntry.objects.filter(game=game, seats=seats, user__is_active=False).delete()  # banned while waiting
        entries = list(QueueEntry.objects.select_for_update().filter(game=game, seats=seats).select_related("user"))
        if len(entries) < seats:
            return made
        now = timezone.now()
        rating = selectors.friendly_ratings(game=game, user_ids=[e.user_id for e in entries])
        by_user = {e.user_id: e for e in entries}
        waiting = [pairing.Waiting(e.user_id, rating[e.user_id], (now - e.since).total_seconds()) for e in entries]
        apart = people_selectors.blocked_pairs(user_ids=list(by_user))
        for group in pairing.groups(waiting, seats, apart):
            people = [by_user[w.user_id].user for w in group]
            QueueEntry.objects.filter(pk__in=[by_user[w.user_id].pk for w in group]).delete()
            table = table_create_for(
                organiser=people[0], game=game, players=[(p, "") for p in people], ranked=True, start=True
            )
            made.append(table.pk)
            for p in people:
                bus.publish_on_commit(user_group(p.pk), {"type": "matchmaking.matched", "table": table.pk})
    return made


def queue_sweep() -> int:
    """Match every (game, size) someone waits for (beat, every few seconds); returns the tables made."""
    return sum(len(queue_match(game=g, seats=s)) for g, s in selectors.waiting_kinds())
