"""Reads of moderation: fair-play records, standing (muted, marked), the moderators' queue, notices."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q

from accounts.models import User
from games.models import MatchEvent, MatchPlayer
from moderation import fair_play
from moderation.models import FairPlayRecord, ModerationAction, Report, Standing

RECENT_MATCHES = 300  # a record is assessed on the player's races in their last this many matches
QUEUE_LIMIT = 200


def user_is_muted(user_id: int) -> bool:
    """May this account not chat? (a `mute` not lifted by a `clear`)"""
    return Standing.objects.filter(user_id=user_id, muted=True).exists()


def marked_user_ids() -> set[int]:
    """Accounts marked as cheaters: their results are not rated (stats.rating_services asks this)."""
    return set(Standing.objects.filter(marked=True).values_list("user_id", flat=True))


def claims_of_user(*, user_id: int, matches: int = RECENT_MATCHES) -> list[fair_play.Claim]:
    """The player's race claims in their last `matches` matches, read from the event logs."""
    seats = list(MatchPlayer.objects.filter(user_id=user_id).order_by("-match_id").values_list("match_id", "seat")[:matches])
    if not seats:
        return []
    seat_of = dict(seats)
    rows = MatchEvent.objects.filter(match_id__in=list(seat_of), kind="race_claimed").order_by("match_id", "seq")
    claims: list[fair_play.Claim] = []
    for match_id, seat, data in rows.values_list("match_id", "seat", "data").iterator(chunk_size=2000):
        if seat == seat_of[match_id]:
            claims.extend(fair_play.claims_of_events(match_id, seat, [{"kind": "race_claimed", "seat": seat, "data": data}]))
    return claims


def rtt_inflated_of(user_id: int) -> int:
    return FairPlayRecord.objects.filter(user_id=user_id).values_list("rtt_inflated", flat=True).first() or 0


def fair_play_assess(*, user_id: int) -> fair_play.Record:
    """The record as the logs say now (what the staff's profile shows and the review stores)."""
    return fair_play.assess(claims_of_user(user_id=user_id), rtt_inflated_of(user_id))


def fair_play_of(*, user: User) -> dict[str, Any]:
    """PROTOCOL.md's `fair_play` object of one player (staff only: the caller checks)."""
    return fair_play_assess(user_id=user.pk).public()


def _queue_flagged() -> Q:
    return Q(flagged=True) & (Q(cleared_races__isnull=True) | Q(races__gt=F("cleared_races")))


def moderation_queue(*, limit: int = QUEUE_LIMIT) -> list[dict[str, Any]]:
    """Who needs a moderator: open reports or a standing flag, most reported first."""
    open_reports = dict(
        Report.objects.filter(resolved_at__isnull=True).values("reported_id").annotate(n=Count("id")).values_list("reported_id", "n")
    )
    flagged = {r.user_id: r for r in FairPlayRecord.objects.filter(_queue_flagged())}
    ids = set(open_reports) | set(flagged)
    records = {r.user_id: r for r in FairPlayRecord.objects.filter(user_id__in=ids)}
    users = {u.pk: u for u in User.objects.filter(pk__in=ids)}
    reasons_by_user: dict[int, list[dict[str, Any]]] = {}
    for r in Report.objects.filter(reported_id__in=ids, resolved_at__isnull=True).select_related("reporter").order_by("id"):
        reasons_by_user.setdefault(r.reported_id, []).append(
            {"by": r.reporter.username, "reason": r.reason, "match": r.match_id, "text": r.text, "at": r.created_at.isoformat()}
        )
    out = []
    for uid in ids:
        if uid not in users:
            continue
        rec = records.get(uid)
        out.append(
            {
                "username": users[uid].username,
                "reports": open_reports.get(uid, 0),
                "flagged": uid in flagged,
                "reasons": list(rec.reasons) if rec and uid in flagged else [],
                "evidence": {
                    "fair_play": None if rec is None else {
                        "races": rec.races, "judged_median_ms": rec.judged_median_ms, "anticipations": rec.anticipations,
                        "rtt_inflated": rec.rtt_inflated, **rec.evidence,
                    },
                    "reports": reasons_by_user.get(uid, []),
                },
                "active": users[uid].is_active,
            }
        )
    out.sort(key=lambda e: (-e["reports"], not e["flagged"], e["username"]))
    return out[:limit]


def actions_on(*, user_id: int, limit: int = 50) -> list[dict[str, Any]]:
    """Every action taken on the account, newest first: what the player is shown (never who took it)."""
    return [
        {"action": a.action, "note": a.note, "at": a.created_at.isoformat()}
        for a in ModerationAction.objects.filter(user_id=user_id).order_by("-id")[:limit]
    ]


def my_moderation(*, user: User) -> dict[str, Any]:
    """`GET /api/me/moderation/`: the account's standing and the actions taken on it."""
    standing = Standing.objects.filter(user=user).first()
    return {
        "muted": bool(standing and standing.muted),
        "marked": bool(standing and standing.marked),
        "actions": actions_on(user_id=user.pk),
    }


def actions_log(*, limit: int = 50) -> list[ModerationAction]:
    return list(ModerationAction.objects.select_related("user", "by").order_by("-id")[:limit])
