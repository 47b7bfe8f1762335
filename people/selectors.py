"""Reads of people: blocks (the rule other apps ask), follows with presence, challenges, notifications.

`blocked_between` and `blocked_by` are what games asks before seating a player or delivering chat; they
import nothing but people's own models, so games may import them without a cycle.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts.models import User
from people.models import Block, Challenge, Follow


def blocked_between(a_id: int, b_id: int) -> bool:
    """Whether either of the two players blocks the other (a block keeps both apart)."""
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def blocked_by(user_id: int) -> set[int]:
    """Ids of the players `user_id` blocks."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocked_pairs(*, user_ids: list[int]) -> set[frozenset[int]]:
    """The pairs among `user_ids` in which one blocks the other (the matchmaking queue seats them apart)."""
    rows = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids).values_list("blocker_id", "blocked_id")
    return {frozenset(r) for r in rows}


def blocked_usernames_by(user_id: int) -> frozenset[str]:
    """Names of the players `user_id` blocks: chat lines name their sender, so the table socket filters by name."""
    return frozenset(Block.objects.filter(blocker_id=user_id).values_list("blocked__username", flat=True))


def _presence(user_ids: list[int]) -> tuple[set[int], dict[int, int]]:
    """(who has a live table socket, {user: the live table they sit at}).

    Online means a table socket held by a web process whose heartbeat is fresh (games' presence rows,
    TableConnection); the table is the playing table where the player holds a seat not handed over for
    good, the one they are connected to first."""
    from games.models import Seat, Table
    from games.selectors import alive_connections

    connected = list(alive_connections().filter(user_id__in=user_ids).values_list("user_id", "table_id"))
    online = {u for u, _t in connected}
    here = {(u, t) for u, t in connected}
    seats = Seat.objects.filter(user_id__in=user_ids, table__status=Table.Status.PLAYING, withdrawn=False, bot_level="")
    tables: dict[int, int] = {}
    for user_id, table_id in seats.order_by("-table_id").values_list("user_id", "table_id"):
        if user_id not in tables or (user_id, table_id) in here:
            tables[user_id] = table_id
    return online, tables


def following(*, user: User) -> list[dict[str, Any]]:
    """`[{username, online, table}]` of the players `user` follows, in the order followed."""
    rows = list(Follow.objects.filter(follower=user).values_list("followee_id", "followee__username"))
    online, tables = _presence([uid for uid, _ in rows])
    return [{"username": name, "online": uid in online, "table": tables.get(uid)} for uid, name in rows]


def is_following(*, user: User, other: User) -> bool:
    return Follow.objects.filter(follower=user, followee=other).exists()


def blocks(*, user: User) -> list[dict[str, Any]]:
    return [
        {"username": name, "since": since.isoformat()}
        for name, since in Block.objects.filter(blocker=user).values_list("blocked__username", "created_at")
    ]


def is_blocking(*, user: User, other: User) -> bool:
    return Block.objects.filter(blocker=user, blocked=other).exists()


def challenge_payload(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "table": challenge.table_id,
        "status": challenge.status,
        "game": challenge.game,
        "challenger": challenge.challenger.username,
        "challenged": challenge.challenged.username,
        "created_at": challenge.created_at.isoformat(),
    }


def challenge_get(*, challenge_id: int) -> Challenge | None:
    return Challenge.objects.select_related("challenger", "challenged").filter(pk=challenge_id).first()


def notifications(*, user: User, limit: int = 20) -> list[dict[str, Any]]:
    """The small list a player's pages show: challenges waiting for their answer, then the answers to
    their own challenges, newest first."""
    waiting = Challenge.objects.filter(challenged=user, status=Challenge.Status.PENDING)
    answered = Challenge.objects.filter(challenger=user, status__in=[Challenge.Status.ACCEPTED, Challenge.Status.DECLINED])
    rows = list(waiting.select_related("challenger", "challenged")[:limit])
    rows += list(answered.select_related("challenger", "challenged").order_by("-answered_at")[: max(0, limit - len(rows))])
    return [{"kind": "challenge", "challenge": challenge_payload(c)} for c in rows]


def pending_count(*, user: User) -> int:
    return Challenge.objects.filter(challenged=user, status=Challenge.Status.PENDING).count()


def challenges_of(*, user: User, limit: int = 20) -> dict[str, list[dict[str, Any]]]:
    base = Challenge.objects.select_related("challenger", "challenged")
    return {
        "received": [challenge_payload(c) for c in base.filter(challenged=user)[:limit]],
        "sent": [challenge_payload(c) for c in base.filter(challenger=user)[:limit]],
    }
