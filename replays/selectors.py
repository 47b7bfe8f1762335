"""The read side of matches: lists, summaries, timelines and the state at any seq.

A replay is a fold: the state at `seq` is the nearest stored snapshot at or
before it, folded forward over the events in between. Snapshots only make
seeking fast; without any the fold starts from the first event and gives the
same state (a match imported or played before snapshots existed still seeks
correctly, only more slowly until `replays.services.snapshots_write` ran).
"""

from __future__ import annotations

import re
from typing import Any

from django.db.models import QuerySet

from accounts.models import User
from games import errors
from games.deals import deal_is_secret, deal_played_elsewhere
from games.engine import fold_all
from games.kit.registry import get_rules
from games.models import Match, MatchEvent, MatchPlayer, Snapshot
from games.selectors import events_between, match_seat_of, redact_for
from stats import ratings as rating_scale

MAX_LIMIT = 1000
DEFAULT_LIMIT = 500
EXPORT_FORMAT = "cardtables-match/1"

_SEAT = re.compile(r"seat:(\d{1,2})", re.ASCII)


def match_list(*, game: str | None = None, player: str | None = None, status: str | None = None) -> QuerySet[Match]:
    qs = Match.objects.prefetch_related("players__user")
    if game:
        qs = qs.filter(game=game)
    if player:
        # A subquery, not a join with DISTINCT: fast for a player with thousands of matches.
        qs = qs.filter(pk__in=MatchPlayer.objects.filter(user__username=player).values("match_id"))
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("-id")


def match_get(*, match_id: int) -> Match:
    """The match with its players (one query for the seats, not one per seat)."""
    match = Match.objects.prefetch_related("players__user").filter(pk=match_id).first()
    if match is None:
        raise errors.not_found(f"no match {match_id}")
    return match


def match_for_replay(*, match_id: int) -> Match:
    """The match row without its players and with `state` deferred: what timeline and state requests need.

    `state` is read only when asked for the last seq; every other seq folds
    from a snapshot, so most requests never load it.
    """
    match = Match.objects.defer("state").filter(pk=match_id).first()
    if match is None:
        raise errors.not_found(f"no match {match_id}")
    return match


def _seat_rows(match: Match, ratings: bool = False) -> list[dict[str, Any]]:
    rows = [
        {"seat": p.seat, "username": p.user.username, "bot": bool(p.bot_level), "level": p.bot_level or None, "place": p.place}
        for p in match.players.all()
    ]
    if ratings:
        changes = _rating_changes(match)
        seat_user = dict(match.players.values_list("seat", "user_id"))
        for row in rows:
            row["rating"] = changes.get(seat_user.get(row["seat"]))
    return rows


def _rating_changes(match: Match) -> dict[int, dict[str, int]]:
    """Each rated account's figure before and after this match, on the friendly scale people read (the results view)."""
    rows = match.rating_changes.values_list("user_id", "mu_before", "sigma_before", "display")
    return {
        u: {"before": rating_scale.friendly_of(rating_scale.display_of(mu, sg)), "after": rating_scale.friendly_of(d)}
        for u, mu, sg, d in rows
    }


def match_summary(match: Match, ratings: bool = False) -> dict[str, Any]:
    """PROTOCOL.md's summary; `ranked`, and per seat `level` and `place`, are extensions (`ratings`: and each
    seat's rating change, one match's detail only)."""
    return {
        "id": match.pk,
        "game": match.game,
        "table": match.table_id,
        "status": match.status,
        "seats": _seat_rows(match, ratings),
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
    found = _SEAT.fullmatch(value)
    if found:
        return "seat", int(found.group(1))
    raise errors.bad_request("perspective must be spectator, all or seat:N", "bad_perspective")


def perspective_label(perspective: str, seat: int | None) -> str:
    return f"seat:{seat}" if perspective == "seat" else perspective


def _deal_secret() -> errors.PlatformError:
    """403, not 404: the match exists and is listed; what is refused is reading its cards now."""
    return errors.forbidden(
        "this deal is still being played at another table of its round; it opens when every table has finished",
        "deal_secret",
    )


def check_deal_open(*, match: Match) -> None:
    """403 `deal_secret` while another match still plays this match's deal (the export of a finished twin)."""
    if deal_is_secret(match=match):
        raise _deal_secret()


def check_perspective(*, match: Match, perspective: str, seat: int | None, user: User | None) -> None:
    """PROTOCOL.md: live, anyone gets `spectator` and a seated player its own seat; over, everything is open.

    "Over" is the deal's end, not the match's (games.deals). While another
    table still plays the same cards (a duplicate round), this match is open
    only to its own players, each as they saw it (spectator or their seat):
    even its public record shows the other table's hidden cards.
    """
    if perspective == "seat" and (seat is None or not 0 <= seat < match.seats):
        raise errors.bad_request(f"perspective seat:N needs N from 0 to {match.seats - 1}", "bad_perspective")
    if not deal_is_secret(match=match):
        return
    if deal_played_elsewhere(match=match):
        own = match_seat_of(match_id=match.pk, user=user)
        if own is None or (perspective != "spectator" and seat != own):
            raise _deal_secret()
        return
    if perspective == "spectator":
        return
    if perspective == "all":
        raise errors.forbidden("perspective all is open only once the match is over", "forbidden_perspective")
    if match_seat_of(match_id=match.pk, user=user) != seat:
        raise errors.forbidden(
            f"while the match is live only the player of seat {seat} may see seat:{seat}", "forbidden_perspective"
        )


def _redact(rules: Any, events: list[dict[str, Any]], perspective: str, seat: int | None) -> list[dict[str, Any]]:
    if perspective == "all":
        return events
    return redact_for(rules, events, seat)


def timeline(*, match: Match, perspective: str, seat: int | None, after: int, limit: int) -> dict[str, Any]:
    """Events with seq > `after`, at most `limit` (capped), redacted for the perspective.

    Bounded by the `seq` read with the match, so `next` and the events agree
    even while a live match appends meanwhile.
    """
    rules = get_rules(match.game)
    limit = max(1, min(limit, MAX_LIMIT))
    events = events_between(match_id=match.pk, after=after, upto=match.seq, limit=limit)
    last = events[-1]["seq"] if events else after
    return {
        "match": match.pk,
        "perspective": perspective_label(perspective, seat),
        "events": _redact(rules, events, perspective, seat),
        "next": last if last < match.seq else None,
    }


def _plain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"kind": e["kind"], "seat": e["seat"], "data": e["data"]} for e in events]


def state_at(*, match: Match, at: int) -> Any:
    """The folded state after event `at` (1 ≤ at ≤ match.seq), from the nearest snapshot at or before it."""
    if at == match.seq:
        return match.state
    rules = get_rules(match.game)
    snap = Snapshot.objects.filter(match=match, seq__lte=at).order_by("-seq").values_list("seq", "state").first()
    start, state = snap if snap else (0, None)
    return fold_all(rules, _plain(events_between(match_id=match.pk, after=start, upto=at)), state)


def view_at(*, match: Match, at: int, perspective: str, seat: int | None) -> dict[str, Any]:
    rules = get_rules(match.game)
    state = state_at(match=match, at=at)
    if perspective == "all":
        # `view_all(state)` (the Rules protocol): the table with every hidden card face up.
        return {"seq": at, "view": rules.view_all(state), "state": state}
    return {"seq": at, "view": rules.view(state, seat)}


def export_document(
    *,
    game: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    events: list[dict[str, Any]],
    outcome: dict[str, Any] | None,
    status: str = "finished",
    ranked: bool = False,
    started_at: str | None = None,
    ended_at: str | None = None,
    seed: str = "",
) -> dict[str, Any]:
    """The one shape of an exported match (`match_import` reads it back).

    Pure, so a log played without a database (games.testing) becomes a
    document the same way a stored match does.
    """
    return {
        "format": EXPORT_FORMAT,
        "game": game,
        "options": options,
        "seats": [
            {"seat": s["seat"], "username": s["username"], "bot": bool(s.get("bot")), "level": s.get("level") or None}
            for s in seats
        ],
        "ranked": ranked,
        "status": status,
        "seed": seed,
        "started_at": started_at,
        "ended_at": ended_at,
        "outcome": outcome,
        "event_count": len(events),
        "events": [
            {"seq": e["seq"], "t_ms": e["t_ms"], "kind": e["kind"], "seat": e.get("seat"), "data": e.get("data", {})}
            for e in events
        ],
    }


def export(*, match: Match) -> dict[str, Any]:
    events = list(MatchEvent.objects.filter(match=match).order_by("seq").values("seq", "t_ms", "kind", "seat", "data"))
    summary = match_summary(match)
    return export_document(
        game=match.game,
        options=match.options,
        seats=summary["seats"],
        events=events,
        outcome=match.outcome,
        status=match.status,
        ranked=match.ranked,
        started_at=summary["started_at"],
        ended_at=summary["ended_at"],
        seed=match.seed,
    )


__all__ = [
    "match_get",
    "match_list",
    "match_summary",
    "parse_perspective",
    "check_perspective",
    "check_deal_open",
    "timeline",
    "state_at",
    "view_at",
    "export",
    "export_document",
]
