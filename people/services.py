"""Writes of people: follow, block, challenge. Validate, do, then tell (after the commit).

A challenge makes a table through games' public services (`table_create`, `table_join`): the challenger
hosts it and sits at seat 0; accepting seats the challenged player there. The challenged player hears of
it live on the lobby socket (group `user-<id>`, `{"type": "challenge", ...}`), in the notifications list,
and by mail if their settings ask for it.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.mail import mail_send
from accounts.models import User
from games import errors
from live import bus
from people import selectors
from people.groups import CHALLENGE_NOTICE, user_group
from people.models import Block, Challenge, Follow


def _person(username: str, me: User) -> User:
    """The other player by name: a 404 for nobody, a deleted account or a bot, a 400 for oneself."""
    other = User.objects.filter(username=username, is_active=True, is_bot=False, deleted_at__isnull=True).first()
    if other is None:
        raise errors.not_found("no such player", "no_player")
    if other.pk == me.pk:
        raise errors.bad_request("that is you", "self")
    return other


# --- follows ----------------------------------------------------------------------------------------


def follow_add(*, user: User, username: str) -> bool:
    """Follow a player; True when new. A player who blocks you (or whom you block) cannot be followed."""
    other = _person(username, user)
    if selectors.blocked_between(user.pk, other.pk):
        raise errors.conflict("one of you blocks the other", "blocked")
    try:
        with transaction.atomic():
            Follow.objects.create(follower=user, followee=other)
    except IntegrityError:
        return False
    return True


def follow_remove(*, user: User, username: str) -> None:
    other = User.objects.filter(username=username).first()
    if other is None or not Follow.objects.filter(follower=user, followee=other).delete()[0]:
        raise errors.not_found("you do not follow this player", "not_following")


# --- blocks -----------------------------------------------------------------------------------------


def block_add(*, user: User, username: str) -> bool:
    """Block a player; True when new. Follows both ways end (neither sees where the other plays) and
    pending challenges between the two are declined."""
    other = _person(username, user)
    with transaction.atomic():
        try:
            with transaction.atomic():
                Block.objects.create(blocker=user, blocked=other)
        except IntegrityError:
            return False
        Follow.objects.filter(follower=user, followee=other).delete()
        Follow.objects.filter(follower=other, followee=user).delete()
        pending = Challenge.objects.select_for_update().filter(status=Challenge.Status.PENDING).filter(
            challenger__in=[user, other], challenged__in=[user, other]
        )
        for challenge in pending.select_related("challenger", "challenged"):
            _answer(challenge, Challenge.Status.DECLINED)
    return True


def block_remove(*, user: User, username: str) -> None:
    other = User.objects.filter(username=username).first()
    if other is None or not Block.objects.filter(blocker=user, blocked=other).delete()[0]:
        raise errors.not_found("you do not block this player", "not_blocking")


# --- challenges -------------------------------------------------------------------------------------


def challenge_create(
    *, challenger: User, username: str, game: str, seats: int | None = None, ranked: bool = False,
    options: dict[str, Any] | None = None, base_url: str = "",
) -> Challenge:
    """A table of `game` hosted by the challenger (seat 0), and the challenge to `username` to sit there.

    `seats` defaults to the game's smallest table. Refused with 409 `blocked` when either blocks the other."""
    from games.kit.registry import get_rules
    from games.services.tables import table_create
    other = _person(username, challenger)
    if selectors.blocked_between(challenger.pk, other.pk):
        raise errors.conflict("you cannot challenge this player", "blocked")
    try:
        rules = get_rules(game)  # the games a table can be made of (table_create checks the same)
    except KeyError:
        raise errors.bad_request(f"unknown game {game!r}", "unknown_game") from None
    if seats is None:
        seats = max(2, rules.min_seats)
    with transaction.atomic():
        table = table_create(host=challenger, game=game, seats=seats, options=options, ranked=ranked)
        challenge = Challenge.objects.create(challenger=challenger, challenged=other, table=table, game=game)
        _tell(other.pk, challenge)
        if other.notifications:
            link = f"{base_url.rstrip('/')}/friends/" if base_url else "/friends/"
            mail_send(user=other, template="challenge", context={"challenger": challenger.username, "game": _game_name(game), "link": link})
    return challenge


def _game_name(slug: str) -> str:
    from games.kit.registry import get_rules

    return str(getattr(get_rules(slug), "name", slug))


def _locked_challenge(challenge_id: int, user: User) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None or user.pk not in (challenge.challenged_id, challenge.challenger_id):
        raise errors.not_found("no such challenge", "no_challenge")
    if challenge.challenged_id != user.pk:
        raise errors.forbidden("only the challenged player answers a challenge", "not_challenged")
    if challenge.status != Challenge.Status.PENDING:
        raise errors.conflict(f"this challenge is already {challenge.status}", "answered")
    return challenge


def challenge_accept(*, challenge_id: int, user: User) -> Challenge:
    """Sit the challenged player at the challenge's table. A table that started or went meanwhile
    cancels the challenge (409)."""
    from games.services.tables import table_join
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        if challenge.table_id is None:
            _answer(challenge, Challenge.Status.CANCELLED)
            cancelled = True
        else:
            cancelled = False
    if cancelled:
        raise errors.conflict("the table of this challenge is gone", "challenge_gone")
    try:
        with transaction.atomic():
            challenge = _locked_challenge(challenge_id, user)
            table_join(table_id=challenge.table_id, user=user)
            _answer(challenge, Challenge.Status.ACCEPTED)
    except errors.PlatformError as e:
        if e.status == 404 or e.code in ("started", "full"):
            with transaction.atomic():
                challenge = _locked_challenge(challenge_id, user)
                _answer(challenge, Challenge.Status.CANCELLED)
            raise errors.conflict("the table of this challenge has started or is full", "challenge_gone") from None
        raise
    return challenge


def challenge_decline(*, challenge_id: int, user: User) -> Challenge:
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        _answer(challenge, Challenge.Status.DECLINED)
    return challenge


def _answer(challenge: Challenge, status: str) -> None:
    """Record the answer and tell the challenger after the commit."""
    challenge.status = status
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "answered_at"])
    _tell(challenge.challenger_id, challenge)


def _tell(user_id: int, challenge: Challenge) -> None:
    """`{"type": "challenge", "challenge": {...}}` to the player's lobby sockets, after the commit."""
    challenge = Challenge.objects.select_related("challenger", "challenged").get(pk=challenge.pk)
    bus.publish_on_commit(user_group(user_id), {"type": CHALLENGE_NOTICE, "challenge": selectors.challenge_payload(challenge)})
