"""Writes for statistics: counted once per match, rebuilt on demand.

The Celery task `stats.match_finished` (scheduled by the match-end hook) calls
`match_finished_process`; the command `recompute_stats` calls `stats_recompute`.
Statistics are sums and need no order; they are counted once per match under the
game's `GameStats` row. Ratings are stats/rating_services.py.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.db.models import F

from games.models import Match, MatchEvent
from stats.figures import MatchFigures, match_figures, tally_add_match, tally_add_seat, tally_empty
from stats.models import GameStats, MatchStats, PlayerGameStats
from stats.rating_services import BATCH, match_rating_apply, players_by_seat, recompute_per_game


def match_finished_process(*, match_id: int) -> None:
    """Everything that follows a match's end here: its ratings, then its statistics."""
    match_rating_apply(match_id=match_id)
    match_stats_record(match_id=match_id)


def _game_stats_lock(game: str) -> GameStats:
    if not GameStats.objects.filter(game=game).update(game=F("game")):
        GameStats.objects.get_or_create(game=game, defaults={"tally": tally_empty()})
    return GameStats.objects.select_for_update().get(game=game)


def _events_of(match_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = MatchEvent.objects.filter(match_id__in=match_ids).order_by("match_id", "seq")
    for row in rows.values("match_id", "seq", "t_ms", "kind", "seat", "data").iterator(chunk_size=5000):
        out[row.pop("match_id")].append(row)
    return out


def _figures(match: Match, events: list[dict[str, Any]]) -> MatchFigures:
    return match_figures(match.game, events, match.seats, match.outcome, match.options)


def match_stats_record(*, match_id: int) -> bool:
    """Count one finished match into its players' and its game's statistics, once."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None:
        return False
    with transaction.atomic():
        game_row = _game_stats_lock(match.game)
        if MatchStats.objects.filter(match_id=match_id).exists():
            return False
        figures = _figures(match, _events_of([match.pk])[match.pk])
        MatchStats.objects.create(match=match, game=match.game, figures=figures.as_json())
        game_row.tally = tally_add_match(game_row.tally, figures)
        game_row.save(update_fields=["tally"])
        seats = players_by_seat([match.pk])[match.pk]
        for user_id in sorted(set(seats.values())):
            row, _ = PlayerGameStats.objects.get_or_create(user_id=user_id, game=match.game, defaults={"tally": tally_empty()})
            for f in figures.per_seat:
                if seats.get(f.seat) == user_id:
                    tally_add_seat(row.tally, figures, f)
            row.save(update_fields=["tally"])
    return True


def stats_recompute(*, game: str | None = None) -> dict[str, int]:
    """Every statistic again from the event logs: returns matches counted per game."""
    found = [*Match.objects.filter(status=Match.Status.FINISHED).values_list("game", flat=True).distinct(), *GameStats.objects.values_list("game", flat=True)]
    return recompute_per_game(game=game, found=found, one=_stats_recompute_game)


def _stats_recompute_game(g: str) -> int:
    game_row = _game_stats_lock(g)
    MatchStats.objects.filter(game=g).delete()
    PlayerGameStats.objects.filter(game=g).delete()
    game_tally = tally_empty()
    player_tallies: dict[int, dict[str, Any]] = {}
    ids = list(Match.objects.filter(game=g, status=Match.Status.FINISHED).order_by("id").values_list("id", flat=True))
    for i in range(0, len(ids), BATCH // 5):
        chunk = ids[i : i + BATCH // 5]
        events = _events_of(chunk)
        players = players_by_seat(chunk)
        rows = []
        for match in Match.objects.filter(pk__in=chunk).order_by("id"):
            figures = _figures(match, events[match.pk])
            rows.append(MatchStats(match=match, game=g, figures=figures.as_json()))
            tally_add_match(game_tally, figures)
            for f in figures.per_seat:
                user_id = players[match.pk].get(f.seat)
                if user_id is not None:
                    tally_add_seat(player_tallies.setdefault(user_id, tally_empty()), figures, f)
        MatchStats.objects.bulk_create(rows)
    PlayerGameStats.objects.bulk_create(
        [PlayerGameStats(user_id=u, game=g, tally=t) for u, t in player_tallies.items()], batch_size=BATCH
    )
    game_row.tally = game_tally
    game_row.save(update_fields=["tally"])
    return len(ids)
