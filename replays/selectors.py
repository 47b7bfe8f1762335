"""The read side of matches: lists, summaries, timelines and the state at any seq.

A replay is a fold: the state at `seq` is the nearest stored snapshot at or
before it, folded forward over the events in between.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from accounts.models import User
from games import errors
from games.engine import fold_all
from games.models import Match, MatchEvent, Snapshot
from games.registry import get_rules
from games.selectors import events_between, match_get, match_seat_of, redact_for

MAX_LIMIT = 1000
DEFAULT_LIMIT = 500


def match_list(*, game: str | None = None, player: str | None = None, status: str | None = None) -> QuerySet[Match]:
    qs = Match.objects.prefetch_related("players__user")
    if game:
        qs = qs.filter(game=game)
    if player:
        qs = qs.filter(players__user__username=player).distinct()
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("-id")


def match_summary(match: Match) -> dict[str, Any]:
    return {
        "id": match.pk,
        "game": match.game,
        "table": match.table_id,
        "status": match.status,
        "seats": [
            {"seat": p.seat, "username": p.user.username, "bot": bool(p.bot_level), "place": p.place}
            for p in match.players.all()
        ],
        "options": match.options,
        "ranked": match.ranked,
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "ended_at": match.ended_at.isoformat() if match.ended_at else None,
        "outcome": match.outcome,
        "event_count": match.seq,
    }


def parse_perspective(value: str | None) -> tuple[str, int | None]:
    """`spectator`, `all` or `seat:N`; raises a 400 saying which part is wrong."""
    value = value or "spectator"
    if value in ("spectator", "all"):
        return value, None
    if value.startswith("seat:"):
        number = value[5:]
        if number.isdigit() and len(number) < 3:
            return "seat", int(number)
    raise errors.bad_request("perspective must be spectator, all or seat:N", "bad_perspective")


def check_perspective(*, match: Match, perspective: str, seat: int | None, user: User | None) -> None:
    if perspective == "seat" and (seat is None or not 0 <= seat < match.seats):
        raise errors.bad_request(f"seat must be from 0 to {match.seats - 1}", "bad_perspective")
    if match.status != Match.Status.LIVE or perspective == "spectator":
        return
    if perspective == "all":
        raise errors.forbidden("the whole match is open only once it is over", "forbidden_perspective")
    if match_seat_of(match_id=match.pk, user=user) != seat:
        raise errors.forbidden("while the match is live you may only see your own seat", "forbidden_perspective")


def _redact(rules: Any, events: list[dict[str, Any]], perspective: str, seat: int | None) -> list[dict[str, Any]]:
    if perspective == "all":
        return events
    return redact_for(rules, events, seat)


def timeline(*, match: Match, perspective: str, seat: int | None, after: int, limit: int) -> dict[str, Any]:
    rules = get_rules(match.game)
    limit = max(1, min(limit, MAX_LIMIT))
    events = events_between(match_id=match.pk, after=after, limit=limit)
    last = events[-1]["seq"] if events else after
    more = last < match.seq
    label = f"seat:{seat}" if perspective == "seat" else perspective
    return {
        "match": match.pk,
        "perspective": label,
        "events": _redact(rules, events, perspective, seat),
        "next": last if more else None,
    }


def state_at(*, match: Match, at: int) -> Any:
    """The folded state after event `at`, from the nearest snapshot."""
    rules = get_rules(match.game)
    if at == match.seq:
        return match.state
    snap = Snapshot.objects.filter(match=match, seq__lte=at).order_by("-seq").values_list("seq", "state").first()
    start, state = snap if snap else (0, None)
    events = events_between(match_id=match.pk, after=start, upto=at)
    return fold_all(rules, [{"kind": e["kind"], "seat": e["seat"], "data": e["data"]} for e in events], state)


def view_at(*, match: Match, at: int, perspective: str, seat: int | None) -> dict[str, Any]:
    rules = get_rules(match.game)
    state = state_at(match=match, at=at)
    if perspective == "all":
        # Games may offer `view_all(state)`: the table with every hidden card face up.
        view_all = getattr(rules, "view_all", None)
        return {"seq": at, "view": view_all(state) if view_all else rules.view(state, None), "state": state}
    return {"seq": at, "view": rules.view(state, seat)}


def export(*, match: Match) -> dict[str, Any]:
    events = list(MatchEvent.objects.filter(match=match).order_by("seq").values("seq", "t_ms", "kind", "seat", "data"))
    summary = match_summary(match)
    return {
        "format": "cardtables-match/1",
        "game": match.game,
        "options": match.options,
        "seats": summary["seats"],
        "ranked": match.ranked,
        "status": match.status,
        "started_at": summary["started_at"],
        "ended_at": summary["ended_at"],
        "outcome": match.outcome,
        "events": events,
    }


__all__ = ["match_get", "match_list", "match_summary", "timeline", "view_at", "export"]
