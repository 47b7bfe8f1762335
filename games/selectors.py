"""Reads for tables and matches; the payloads of PROTOCOL.md are built here only."""

from __future__ import annotations

import datetime as dt
import functools
import json
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.utils import timezone

from accounts.models import User
from games import errors
from games.kit.registry import get_rules, public_slugs
from games.models import Match, MatchEvent, MatchPlayer, Seat, Table, TableConnection, WebProcess


def game_list() -> list[dict[str, Any]]:
    out = []
    for slug in public_slugs():
        rules = get_rules(slug)
        out.append(
            {
                "slug": slug,
                "name": rules.name,
                "min_seats": rules.min_seats,
                "max_seats": rules.max_seats,
                "teams": rules.teams,
                "options": {name: opt.describe() for name, opt in rules.options.items()},
            }
        )
    return out


def table_payload(table: Table) -> dict[str, Any]:
    seats = list(table.seat_set.select_related("user").all()) if not hasattr(table, "_seats") else table._seats
    if hasattr(table, "alive_connections"):  # prefetched by table_list
        links = [(c.user_id, c.rtt_ms) for c in table.alive_connections]
    else:
        links = list(alive_connections().filter(table_id=table.pk).values_list("user_id", "rtt_ms"))
    present = {u for u, _ in links}
    rtts = _round_trips_by_user(links)
    players = [
        _player(s.seat, s.user.username, s.bot_level, s.zombie, s.user_id in present, rtts.get(s.user_id), s.withdrawn) for s in seats
    ]
    row = (
        table.pk, table.game, table.seats, table.options, table.ranked, table.status, table.host.username,
        table.current_match_id, table.dealer, table.zombie_seconds, table.lag_cap_ms, table.min_reaction_ms,
    )
    return _table_dict(row, players, series_status(table) if table.options.get("series") else None)


def _player(
    seat: int, username: str, bot_level: str, zombie: bool, present: bool, rtt_ms: int | None, left: bool = False,
) -> dict[str, Any]:
    return {
        "seat": seat, "username": username, "bot": bool(bot_level), "level": bot_level or None, "zombie": zombie,
        # resigned or withdrawn: out for good, a bot plays the seat to the end (an extension)
        "left": bool(left),
        "connected": bool(bot_level) or present,
        # Fair races: the round trip the server measured (ms); 0 for a bot, null before a first pong.
        "rtt_ms": 0 if bot_level else rtt_ms,
    }


def _table_dict(row: tuple[Any, ...], players: list[dict[str, Any]], series: dict[str, Any] | None) -> dict[str, Any]:
    """The table payload of PROTOCOL.md, from the table's values in _TABLE_PAYLOAD's column order
    (the ORM's path and the one-query path share it)."""
    table_id, game, seats, options, ranked, status, host, match_id, dealer, zombie_seconds, lag_cap_ms, min_reaction_ms = row
    return {
        "id": table_id,
        "game": game,
        "seats": seats,
        "options": options,
        "ranked": ranked,
        "status": status,
        "host": host,
        "players": players,
        "match": match_id,
        "dealer": dealer,
        "zombie_seconds": zombie_seconds,  # an extension (PROTOCOL.md: extending is fine)
        "lag_cap_ms": lag_cap_ms,  # Fair races: how much of a round trip a race compensates
        "min_reaction_ms": min_reaction_ms,  # Fair play: a claim judged sooner after its card is an anticipation
        "series": series,
    }


def _round_trips_by_user(links: list[tuple[int, int | None]]) -> dict[int, int]:
    """Per user, the longest measured round trip of their live sockets (a second, slower tab counts)."""
    out: dict[int, int] = {}
    for user_id, rtt in links:
        if rtt is not None:
            out[user_id] = max(rtt, out.get(user_id, 0))
    return out


# alive_connections() per seat: the longest round trip of the seat's player's sockets whose process beats.
_SEAT_ROUND_TRIPS = """
SELECT t.lag_cap_ms, s.seat, s.bot_level, s.zombie, t.min_reaction_ms,
       (SELECT max(c.rtt_ms) FROM games_tableconnection c JOIN games_webprocess p ON p.id = c.process_id
         WHERE c.table_id = s.table_id AND c.user_id = s.user_id AND p.seen_at >= %s) AS rtt
  FROM games_seat s JOIN games_table t ON t.id = s.table_id
 WHERE s.table_id = %s
"""


def seat_round_trips(*, table_id: int) -> tuple[int, dict[int, int], int]:
    """The table's `lag_cap_ms`, the round trip of each seat a race must wait for, and its `min_reaction_ms`, in one query.

    A human seat counts with the longest round trip of its player's live
    sockets (a claim from the slower one could still arrive); a bot seat, a
    zombie seat (its bot acts) and a seat without a live socket or without a
    measured round trip do not appear (0).
    """
    with connection.cursor() as cursor:  # by hand: the ORM built the same query in ~1 ms, once per race claim
        cursor.execute(_SEAT_ROUND_TRIPS, [connection.ops.adapt_datetimefield_value(lease_cutoff()), table_id])
        rows = cursor.fetchall()
    return _seat_round_trips(rows)


async def seat_round_trips_async(*, conn: Any, table_id: int) -> tuple[int, dict[int, int], int]:
    """`seat_round_trips` on the event loop's connection (live/async_db.py; the async fast path's race claims)."""
    async with conn.cursor() as cursor:
        await cursor.execute(_SEAT_ROUND_TRIPS, [lease_cutoff(), table_id])
        rows = await cursor.fetchall()
    return _seat_round_trips(rows)


def _seat_round_trips(rows: list[tuple[Any, ...]]) -> tuple[int, dict[int, int], int]:
    cap, out, floor = 0, {}, 0
    for lag_cap, seat, bot, zombie, min_reaction, rtt in rows:
        cap, floor = lag_cap, min_reaction
        if seat is not None and not bot and not zombie and rtt is not None:
            out[seat] = rtt
    return cap, out, floor


def overdue_timers(*, grace_ms: int) -> list[tuple[int, str]]:
    """(match, timer) of every unfired timer of a live match more than `grace_ms` past due, by match time.

    In SQL: the sweeper used to load every unfired timer with its match row (state and all)
    every 5 s and compare in Python; at scale that is every timer armed in the last seconds.
    Match time is `services.now_ms`'s: the wall clock since the start, never below `last_t_ms`.
    """
    if connection.vendor == "postgresql":
        elapsed, latest = "EXTRACT(EPOCH FROM (%s::timestamptz - m.started_at)) * 1000", "GREATEST"
    else:
        elapsed, latest = "(julianday(%s) - julianday(m.started_at)) * 86400000.0", "MAX"
    sql = f"""
SELECT t.match_id, t.timer_id FROM games_pendingtimer t JOIN games_match m ON m.id = t.match_id
 WHERE NOT t.fired AND m.status = %s AND t.due_ms + %s <= {latest}(m.last_t_ms, {elapsed})
 ORDER BY t.due_ms"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [Match.Status.LIVE, grace_ms, connection.ops.adapt_datetimefield_value(timezone.now())])
        return [(match_id, timer_id) for match_id, timer_id in cursor.fetchall()]


SERIES_WINS = 2


def series_status(table: Table) -> dict[str, Any]:
    """The seed's series (ZACK!) at this table, from its finished matches in order."""
    outcomes = Match.objects.filter(table=table, status=Match.Status.FINISHED).order_by("id").values_list("outcome", flat=True)
    return series_from_outcomes(list(outcomes))


def series_from_outcomes(outcomes: list[dict[str, Any] | None]) -> dict[str, Any]:
    """First to two match wins; once someone has two, the next match starts a new series."""
    wins: dict[int, int] = {}
    winner: int | None = None
    played = 0
    for outcome in outcomes:
        if winner is not None:
            wins, winner, played = {}, None, 0
        played += 1
        for seat in (outcome or {}).get("winners", []):
            wins[seat] = wins.get(seat, 0) + 1
            if wins[seat] >= SERIES_WINS and winner is None:
                winner = seat
    return {"wins": {str(k): v for k, v in sorted(wins.items())}, "winner": winner, "matches": played, "target": SERIES_WINS}


# The table with its host, every seat with its player, and per seat whether the player has a live
# socket (held by a web process that beats) and the longest round trip among them. The two subqueries
# are alive_connections() per seat; one query stands for table_payload's three or four.
_TABLE_PAYLOAD = """
SELECT t.id, t.game, t.seats, t.options, t.ranked, t.status, h.username, t.current_match_id, t.dealer,
       t.zombie_seconds, t.lag_cap_ms, t.min_reaction_ms, s.seat, u.username, s.bot_level, s.zombie, s.withdrawn,
       (SELECT count(*) FROM {conn} c JOIN {proc} p ON p.id = c.process_id
         WHERE c.table_id = t.id AND c.user_id = s.user_id AND p.seen_at >= %s),
       (SELECT max(c.rtt_ms) FROM {conn} c JOIN {proc} p ON p.id = c.process_id
         WHERE c.table_id = t.id AND c.user_id = s.user_id AND p.seen_at >= %s)
  FROM {table} t JOIN {user} h ON h.id = t.host_id
  LEFT JOIN {seat} s ON s.table_id = t.id LEFT JOIN {user} u ON u.id = s.user_id
 WHERE t.id = %s
 ORDER BY s.seat
"""


@functools.cache
def _table_payload_sql() -> str:
    """_TABLE_PAYLOAD with the models' table names, formatted once per process (it is on every table message)."""
    return _TABLE_PAYLOAD.format(
        conn=TableConnection._meta.db_table, proc=WebProcess._meta.db_table, table=Table._meta.db_table,
        user=User._meta.db_table, seat=Seat._meta.db_table,
    )


def table_payload_or_none(table_id: int) -> dict[str, Any] | None:
    """The table payload by id in one hand-written query (None: no such table).

    Every table message (a seat taken, a player back, the round trips moving) is built
    here, in a database thread of the web process: through the ORM it was three or four
    queries and most of the time of a busy daphne's table messages (docs/performance.md).
    """
    sql = _table_payload_sql()
    cutoff = connection.ops.adapt_datetimefield_value(lease_cutoff())
    with connection.cursor() as cursor:
        cursor.execute(sql, [cutoff, cutoff, table_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    first = rows[0]
    options = first[3] if isinstance(first[3], dict) else json.loads(first[3])
    players = [
        _player(seat, username, bot_level, bool(zombie), bool(live), rtt, bool(left))
        for *_, seat, username, bot_level, zombie, left, live, rtt in rows
        if seat is not None
    ]
    series = series_status(Table.objects.get(pk=table_id)) if options.get("series") else None
    return _table_dict((*first[:3], options, bool(first[4]), *first[5:12]), players, series)


def table_by_invite(*, code: str) -> Table:
    """The table an invitation code opens (404 `not_found` for a code that is no invitation)."""
    table = Table.objects.select_related("host").filter(invite_code=code).first()
    if table is None:
        raise errors.not_found("this invitation is not valid")
    return table


def invitation(*, table: Table, user: User) -> dict[str, Any]:
    """What the invitation page tells before anyone joins: whose table, which game, ranked or not,
    seats free, and whether `user` can sit (open, a seat free, not seated yet) or will watch."""
    taken = table.seat_set.count()
    seated = user.is_authenticated and table.seat_set.filter(user=user).exists()
    free = max(table.seats - taken, 0)
    return {
        "table": table,
        "game_name": get_rules(table.game).name,
        "host": table.host.username,
        "ranked": table.ranked,
        "seats": table.seats,
        "free": free,
        "seated": seated,
        "can_join": table.status == Table.Status.OPEN and free > 0 and not seated,
        "started": table.status != Table.Status.OPEN,
        "players": [s.user.username for s in table.seat_set.select_related("user").order_by("seat")],
    }


def table_get(*, table_id: int) -> Table:
    table = Table.objects.select_related("host").filter(pk=table_id).first()
    if table is None:
        raise errors.not_found("no such table")
    return table


def table_list(*, status: str | None = None, game: str | None = None) -> QuerySet[Table]:
    qs = Table.objects.select_related("host").prefetch_related(
        "seat_set__user", Prefetch("connections", queryset=alive_connections().only("table_id", "user_id", "rtt_ms"), to_attr="alive_connections")
    )
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    return qs


IN_PROGRESS_LIMIT = 20


def tables_in_progress(*, user: User | None) -> list[Table]:
    """The live tables `user` still plays at in person (the lobby's "Your games in progress"), newest first.

    A resigned or withdrawn seat is no longer the player's; tables the player only watches are not
    listed. Play now opens a new table every time, so this list is the way back to an older one.
    """
    if user is None or not user.is_authenticated:
        return []
    qs = (
        Table.objects.filter(status=Table.Status.PLAYING, seat_set__user=user, seat_set__bot_level="", seat_set__withdrawn=False)
        .select_related("host")
        .prefetch_related("seat_set__user")
        .order_by("-pk")
    )
    return list(qs[:IN_PROGRESS_LIMIT])


def seat_of(*, table: Table, user: User | None) -> int | None:
    """The seat a user holds at a table (None for spectators and anonymous users)."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(table=table, user=user, bot_level="").values_list("seat", flat=True).first()


# --- presence ---------------------------------------------------------------------------


def lease_cutoff() -> dt.datetime:
    """A web process whose last heartbeat is older than this is taken for dead."""
    return timezone.now() - dt.timedelta(seconds=settings.PRESENCE_LEASE_SECONDS)


def alive_connections() -> QuerySet[TableConnection]:
    """Open sockets held by a web process whose heartbeat is fresh; the others count for nothing."""
    fresh = WebProcess.objects.filter(seen_at__gte=lease_cutoff()).values("pk")
    return TableConnection.objects.filter(process_id__in=fresh)


def present_user_ids(*, table_id: int) -> set[int]:
    """Users with a live socket on this table now (whatever seat, if any, they hold)."""
    return set(alive_connections().filter(table_id=table_id).values_list("user_id", flat=True))


def away_seats(*, table_id: int | None = None) -> QuerySet[Seat]:
    """Human seats of playing tables whose player came once, is not a zombie yet and has no live socket.

    Candidates for a zombie: the caller checks each against its table's
    `zombie_seconds` (away time from `seen_at`), under the seat's lock.
    """
    qs = Seat.objects.filter(table__status=Table.Status.PLAYING, bot_level="", zombie=False, seen_at__isnull=False)
    if table_id is not None:
        qs = qs.filter(table_id=table_id)
    here = alive_connections().filter(table_id=OuterRef("table_id"), user_id=OuterRef("user_id"))
    return qs.exclude(Exists(here))


def match_seat_of(*, match_id: int, user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return (
        MatchPlayer.objects.filter(match_id=match_id, user=user, bot_level="").values_list("seat", flat=True).first()
    )


def events_between(*, match_id: int, after: int, upto: int | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    qs = MatchEvent.objects.filter(match_id=match_id, seq__gt=after)
    if upto is not None:
        qs = qs.filter(seq__lte=upto)
    qs = qs.order_by("seq").values_list("seq", "t_ms", "kind", "seat", "data")
    if limit is not None:
        qs = qs[:limit]
    return [{"seq": s, "t_ms": t, "kind": k, "seat": st, "data": d} for s, t, k, st, d in qs]


def redact_for(rules: Any, events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Each event as `seat` may see it; a hidden one keeps only its seq and time."""
    out = []
    for e in events:
        plain = {"kind": e["kind"], "seat": e["seat"], "data": e["data"]}
        r = rules.redact(plain, seat)
        if r is None:
            out.append({"seq": e["seq"], "t_ms": e["t_ms"]})
        else:
            out.append({"seq": e["seq"], "t_ms": e["t_ms"], "seat": r.get("seat"), "kind": r["kind"], "data": r.get("data", {})})
    return out


def wins_count(*, user: User, game: str) -> int:
    return MatchPlayer.objects.filter(user=user, match__game=game, match__status=Match.Status.FINISHED, place=1).count()


def match_get(*, match_id: int) -> Match:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise errors.not_found("no such match")
    return match


def bot_seats(*, match: Match) -> list[tuple[int, str]]:
    """Seats a bot plays now: bot seats, and zombie seats (a normal bot) of the current match."""
    out = [(p.seat, p.bot_level) for p in match.players.all() if p.bot_level]
    if match.table_id:
        for s in Seat.objects.filter(table_id=match.table_id, zombie=True, bot_level=""):
            if match.table.current_match_id == match.pk:
                out.append((s.seat, "normal"))
    return out
