"""Writes of moderation: reports, the moderators' actions and their effects, fair-play records.

Actions (PROTOCOL.md "Fair play"): `warn` (a notice), `mute` (no chat), `mark` (a cheater: every rated
result annulled, every rating it touched recomputed, off the leaderboards), `ban` (deactivated), `clear`
(reports and flags resolved, and whatever mute, mark or ban stood lifted). Every action resolves the
account's open reports and its current flag: a moderator has looked at them. Each is kept
(`ModerationAction`: who, when, note) and shown to the player (`selectors.my_moderation`).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import errors
from games.models import Match, MatchPlayer
from moderation import selectors
from moderation.models import FairPlayRecord, ModerationAction, Report, Standing
from moderation.signals import user_banned

REASONS = tuple(Report.Reason.values)
ACTIONS = tuple(ModerationAction.Kind.values)
TEXT_MAX = 1000


def _person(username: str) -> User:
    user = User.objects.filter(username=username, is_bot=False).first() if isinstance(username, str) else None
    if user is None:
        raise errors.not_found(f"no player {username!r}", "unknown_player")
    return user


def report_create(*, reporter: User, username: str, reason: str, match_id: int | None = None, text: str = "") -> Report:
    """One open report per reporter and reported player: a second one is a 409 `report_open`."""
    reported = _person(username)
    if reported.pk == reporter.pk:
        raise errors.bad_request("you cannot report yourself", "bad_report")
    if reason not in REASONS:
        raise errors.bad_request(f"reason is one of {', '.join(REASONS)}", "bad_reason")
    if match_id is not None and not Match.objects.filter(pk=match_id).exists():
        raise errors.not_found("no such match", "unknown_match")
    text = (text or "").strip()[:TEXT_MAX]
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=reporter, reported=reported, reason=reason, match_id=match_id, text=text)
    except IntegrityError:
        raise errors.conflict("you already have an open report about this player", "report_open") from None


def fair_play_rtt_inflated_record(*, user_id: int, by: int = 1) -> None:
    """Count `by` sockets of the player whose pongs ran late (PROTOCOL.md "Round trips a client cannot inflate").

    For the live side: call it once per socket found inflating its round trip. One UPDATE (the row is made
    on first use); the flag (`rtt_inflated` in the reasons) is reassessed at the player's next finished match
    or when staff look at the record.
    """
    if not FairPlayRecord.objects.filter(user_id=user_id).update(rtt_inflated=F("rtt_inflated") + by):
        try:
            with transaction.atomic():
                FairPlayRecord.objects.create(user_id=user_id, rtt_inflated=by)
        except IntegrityError:
            FairPlayRecord.objects.filter(user_id=user_id).update(rtt_inflated=F("rtt_inflated") + by)


def fair_play_review(*, user_id: int) -> FairPlayRecord:
    """Assess the player's record again from the logs and store it (the queue reads the stored flag)."""
    record = selectors.fair_play_assess(user_id=user_id)
    row, _ = FairPlayRecord.objects.get_or_create(user_id=user_id)
    FairPlayRecord.objects.filter(pk=row.pk).update(
        races=record.races,
        judged_median_ms=record.judged_median_ms,
        anticipations=record.anticipations,
        flagged=record.flagged,
        reasons=record.reasons,
        evidence=record.evidence,
        updated_at=timezone.now(),
    )
    row.refresh_from_db()
    return row


def fair_play_match_review(*, match_id: int) -> int:
    """After a match: review every person who sat in it (bots have no fair-play record). Returns how many."""
    people = list(
        MatchPlayer.objects.filter(match_id=match_id, user__is_bot=False).values_list("user_id", flat=True).distinct()
    )
    for uid in people:
        fair_play_review(user_id=uid)
    return len(people)


def _ratings_touched(user_id: int) -> list[str]:
    return sorted(set(Match.objects.filter(players__user_id=user_id, ranked=True).values_list("game", flat=True)))


def _recompute_ratings(games: list[str]) -> None:
    from stats.rating_services import ratings_recompute

    for g in games:
        ratings_recompute(game=g)


def _resolve(user: User, by: User) -> None:
    now = timezone.now()
    Report.objects.filter(reported=user, resolved_at__isnull=True).update(resolved_at=now, resolved_by=by)
    FairPlayRecord.objects.filter(user=user).update(cleared_races=F("races"))


def moderation_action_take(*, by: User, username: str, action: str, note: str = "") -> ModerationAction:
    """Take one action on a player (staff only: 403 otherwise) and apply its effect."""
    if not by.is_staff:
        raise errors.forbidden("moderation is for staff", "not_staff")
    if action not in ACTIONS:
        raise errors.bad_request(f"action is one of {', '.join(ACTIONS)}", "bad_action")
    user = _person(username)
    if user.pk == by.pk and action in ("mute", "mark", "ban"):
        raise errors.bad_request("a moderator does not act on their own account", "bad_action")
    note = (note or "").strip()[:TEXT_MAX]
    rerate = False
    with transaction.atomic():
        standing, _ = Standing.objects.select_for_update().get_or_create(user=user)
        taken = ModerationAction.objects.create(user=user, action=action, note=note, by=by)
        if action == "mute":
            standing.muted = True
        elif action == "mark":
            rerate = not standing.marked
            standing.marked = True
        elif action == "ban":
            User.objects.filter(pk=user.pk).update(is_active=False)
        elif action == "clear":
            rerate = standing.marked
            standing.muted = standing.marked = False
            if not user.is_active and ModerationAction.objects.filter(user=user, action="ban").exists():
                User.objects.filter(pk=user.pk).update(is_active=True)
        standing.save()
        _resolve(user, by)
        if rerate:
            _recompute_ratings(_ratings_touched(user.pk))
        if action == "ban":
            transaction.on_commit(lambda: _banned(user.pk, taken))
    return taken


def _banned(user_id: int, taken: ModerationAction) -> None:
    user = User.objects.get(pk=user_id)
    user_banned.send(sender=ModerationAction, user=user)
    try:
        from accounts.signals import credentials_changed  # where the accounts app has it
    except ImportError:
        return
    credentials_changed.send(sender=User, user=user)
