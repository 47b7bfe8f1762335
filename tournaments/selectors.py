"""Reads for tournaments: the PROTOCOL.md payload, standings from stored places, ratings."""

from __future__ import annotations

import logging
import random
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Prefetch, QuerySet

from games import errors
from games.deals import secret_deals
from games.engine import RuleError, resolve_options
from games.kit.registry import get_rules
from games.models import Match, Seat
from tournaments import formats, standings
from tournaments.models import Entry, Round, Tournament, TournamentSeat, TournamentTable
from tournaments.seating import meetings

log = logging.getLogger(__name__)


def player_ratings(*, game: str, user_ids: list[int]) -> dict[int, float]:
    """The rating used as the last tie-break: the ratings' conservative `display` figure, else 0.

    The one place that knows where ratings live (stats.models.Rating), so the
    tie-break is 0 for a player without a rating and for an installation
    without ratings.
    """
    try:
        from stats.models import Rating
    except ImportError:
        return {}
    try:
        with transaction.atomic():  # a savepoint: a missing table must not spoil the caller's transaction
            rows = list(Rating.objects.filter(game=game, user_id__in=user_ids).values_list("user_id", "display"))
        return {u: float(d) for u, d in rows}
    except DatabaseError as e:  # ratings not migrated yet: a tie-break of 0, not an error
        log.warning("ratings unavailable for tie-breaks: %s", e)
        return {}


def allowed_sizes(rules: Any, options: dict[str, Any], table_size: int) -> list[int]:
    """Table sizes from the game's minimum up to `table_size` that its rules accept (ZIGZAG: 4, 6)."""
    out = []
    for n in range(rules.min_seats, min(table_size, rules.max_seats) + 1):
        try:
            resolve_options(rules.options, options, n)
            rules.setup(n, options, random.Random(0))
        except RuleError:
            continue
        out.append(n)
    return out


def tournament_get(*, tournament_id: int) -> Tournament:
    t = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    if t is None:
        raise errors.not_found("no such tournament")
    return t


def tournament_list(*, status: str | None = None, game: str | None = None) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("organiser")
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    return qs


def teams_of(game: str) -> bool:
    return bool(getattr(get_rules(game), "teams", False))


def active_entries(t: Tournament) -> list[Entry]:
    return list(t.entries.filter(withdrawn=False, eliminated_in__isnull=True).select_related("user"))


def _tables(t: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(round__tournament=t)
        .select_related("round", "match", "table")
        .prefetch_related(Prefetch("seats", queryset=TournamentSeat.objects.select_related("user")))
        .order_by("round__number", "id")
    )


def results_of(t: Tournament, tables: list[TournamentTable] | None = None) -> tuple[list[standings.TableResult], list[standings.Bye]]:
    """The finished tables and byes as the pure standings see them."""
    teams = teams_of(t.game)
    tables = _tables(t) if tables is None else tables
    results = [
        standings.TableResult(
            round=tt.round.number,
            players=tuple(s.user_id for s in tt.seats.all()),
            places=tuple(s.place for s in tt.seats.all()),
            teams=teams,
            forfeits=frozenset(s.user_id for s in tt.seats.all() if s.forfeit),
        )
        for tt in tables
        if tt.done
    ]
    byes = [standings.Bye(round=r.number, player=p) for r in t.round_set.all() for p in r.byes]
    return results, byes


def standings_rows(t: Tournament, tables: list[TournamentTable] | None = None) -> list[standings.Row]:
    entries = list(t.entries.all())
    results, byes = results_of(t, tables)
    ids = [e.user_id for e in entries]
    stages = standings.knockout_stages(results, byes) if t.format == Tournament.Format.KNOCKOUT else None
    return standings.compute(
        ids,
        results,
        table_size=t.table_size,
        teams=teams_of(t.game),
        byes=byes,
        ratings=player_ratings(game=t.game, user_ids=ids),
        withdrawn=[e.user_id for e in entries if e.withdrawn],
        stages=stages,
    )


def meetings_of(t: Tournament) -> dict[int, dict[int, int]]:
    tables = TournamentSeat.objects.filter(tournament_table__round__tournament=t).values_list("tournament_table_id", "user_id")
    by_table: dict[int, list[int]] = {}
    for tt, user in tables:
        by_table.setdefault(tt, []).append(user)
    return meetings(by_table.values(), {})


def planned_rounds(t: Tournament, players: int | None = None) -> int | None:
    if t.format == Tournament.Format.SWISS:
        return t.rounds
    if t.format == Tournament.Format.ROUND_ROBIN:
        if t.rounds:
            return t.rounds
        n = players if players is not None else t.entries.filter(withdrawn=False).count()
        rules = get_rules(t.game)
        return formats.round_robin_rounds(n, t.table_size, allowed_sizes(rules, t.options, t.table_size))
    return None


def tournament_payload(t: Tournament) -> dict[str, Any]:
    """The tournament of PROTOCOL.md, extended (see docs/games.md "Tournaments")."""
    rules = get_rules(t.game)
    entries = list(t.entries.select_related("user"))
    names = {e.user_id: e.user.username for e in entries}
    bots = {e.user_id for e in entries if e.bot_level}
    tables = _tables(t)
    rows = standings_rows(t, tables) if t.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTERING) else []
    points: dict[int, dict[int, float]] = {}
    full_units = formats.units_at(t.table_size, teams_of(t.game))
    live_seats = _live_seats([tt.table_id for tt in tables if not tt.done])
    by_round: dict[int, list[dict[str, Any]]] = {}
    for tt in tables:
        seats = list(tt.seats.all())
        if tt.done:
            pts = formats.place_points([s.place for s in seats], teams=teams_of(t.game), full_units=full_units)
            points[tt.pk] = {s.user_id: (0.0 if s.forfeit else pts[i]) for i, s in enumerate(seats)}
        match: Match | None = tt.match
        by_round.setdefault(tt.round_id, []).append(
            {
                "table": tt.table_id,
                "match": tt.match_id,
                "status": "finished" if tt.done else "playing",
                "match_status": match.status if match is not None else None,
                "players": [
                    {
                        "seat": s.seat,
                        "username": s.user.username,
                        "bot": s.user_id in bots,
                        "place": s.place,
                        "points": points.get(tt.pk, {}).get(s.user_id),
                        "replaced": s.replaced,
                        "bot_playing": (tt.table_id, s.seat) in live_seats,
                        "forfeit": s.forfeit,
                    }
                    for s in seats
                ],
                "outcome": match.outcome if match is not None else None,
            }
        )
    secret = secret_deals(seeds=[tt.match.seed for tt in tables if tt.match is not None])
    deals: dict[int, set[str]] = {}
    for tt in tables:
        deals.setdefault(tt.round_id, set()).add(tt.match.seed if tt.match is not None else "")
    rounds = [
        {
            "number": r.number,
            "status": r.status,
            "seed": r.seed if _round_seed_public(t, r, deals.get(r.pk, set()), secret) else None,
            "byes": [names.get(p, str(p)) for p in r.byes],
            "tables": by_round.get(r.pk, []),
        }
        for r in t.round_set.all()
    ]
    return {
        "id": t.pk,
        "name": t.name,
        "game": t.game,
        "game_name": rules.name,
        "format": t.format,
        "status": t.status,
        "organiser": t.organiser.username,
        "table_size": t.table_size,
        "round_count": planned_rounds(t, len([e for e in entries if not e.withdrawn])),
        "duration_minutes": t.duration_minutes,
        "options": t.options,
        "ranked": t.ranked,
        "duplicate": t.duplicate,
        "no_show_seconds": t.no_show_seconds,
        "min_players": formats.min_players(t.table_size),
        "starts_at": _iso(t.starts_at),
        "started_at": _iso(t.started_at),
        "ends_at": _iso(t.ends_at),
        "ended_at": _iso(t.ended_at),
        "note": t.note,
        "players": [
            {
                "username": e.user.username,
                "bot": bool(e.bot_level),
                "level": e.bot_level or None,
                "withdrawn": e.withdrawn,
                "eliminated_in": e.eliminated_in,
            }
            for e in entries
        ],
        "rounds": rounds,
        "standings": [
            {
                "rank": row.rank,
                "username": names.get(row.player, str(row.player)),
                "points": row.points,
                "tiebreaks": {"opponents": row.opponents, "wins": row.wins, "rating": row.rating},
                "played": row.played,
                "byes": row.byes,
                "by_round": {str(k): v for k, v in sorted(row.by_round.items())},
                "withdrawn": row.withdrawn,
            }
            for row in rows
        ],
    }


def _round_seed_public(t: Tournament, r: Round, deals: set[str], secret: set[str]) -> bool:
    """A duplicate round's seed is shown once the round is over and none of its deals is live anywhere.

    Then it lets anyone check that the tables shared one deal; before, it
    would deal every face-down card of the tables still playing. A round
    seeded before seeds were derived one-way (`<master>-r<n>`) is never shown:
    it would give away the master seed and so every later round.
    """
    return bool(r.seed) and r.status == Round.Status.FINISHED and not (deals & secret) and not r.seed.startswith(f"{t.seed}-")


def _live_seats(table_ids: list[int]) -> set[tuple[int, int]]:
    """Seats a bot plays right now (no-shows, or players away too long)."""
    if not table_ids:
        return set()
    return set(Seat.objects.filter(table_id__in=table_ids, zombie=True).values_list("table_id", "seat"))


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def tournament_payload_or_none(tournament_id: int) -> dict[str, Any] | None:
    t = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    return None if t is None else tournament_payload(t)


def standings_csv_rows(t: Tournament) -> list[list[Any]]:
    """Header and one line per player, best first (the CSV export)."""
    rows = standings_rows(t)
    names = dict(t.entries.values_list("user_id", "user__username"))
    numbers = list(Round.objects.filter(tournament=t).values_list("number", flat=True))
    out: list[list[Any]] = [
        ["rank", "username", "points", "opponents_points", "wins", "rating", "played", "byes", "withdrawn", *[f"round_{n}" for n in numbers]]
    ]
    for row in rows:
        out.append(
            [row.rank, names.get(row.player, row.player), row.points, row.opponents, row.wins, row.rating, row.played, row.byes,
             "yes" if row.withdrawn else "", *[row.by_round.get(n, "") for n in numbers]]
        )
    return out


def tournament_summary(t: Tournament) -> dict[str, Any]:
    """A list line: no rounds, no standings."""
    return {
        "id": t.pk,
        "name": t.name,
        "game": t.game,
        "format": t.format,
        "status": t.status,
        "organiser": t.organiser.username,
        "table_size": t.table_size,
        "players": t.entries.count(),
        "starts_at": _iso(t.starts_at),
        "created_at": _iso(t.created_at),
    }
