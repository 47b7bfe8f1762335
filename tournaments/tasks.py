"""Celery tasks of tournaments. Each re-reads and re-checks, so a late or repeated task is harmless."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.start_due")
def start_due(tournament_id: int) -> None:
    """At `starts_at`: start, or leave a note saying why not (too few players)."""
    services.tournament_start_due(tournament_id=tournament_id)


@shared_task(name="tournaments.table_finished")
def table_finished(match_id: int) -> None:
    """A match of a tournament table ended: record its places and move the tournament on."""
    services.tournament_table_finished(match_id=match_id)


@shared_task(name="tournaments.next_round")
def next_round(tournament_id: int) -> None:
    """Seat the next round once the previous one is over (or end the tournament)."""
    services.tournament_next_round(tournament_id=tournament_id)


@shared_task(name="tournaments.no_show_check")
def no_show_check(tournament_table_id: int) -> None:
    """Hand the seats of players who never connected to their table to bots."""
    services.tournament_no_show_check(tournament_table_id=tournament_table_id)


@shared_task(name="tournaments.arena_end")
def arena_end(tournament_id: int) -> None:
    """The arena's end time: no new table; it is over when the last one ends."""
    services.tournament_arena_end(tournament_id=tournament_id)


@shared_task(name="tournaments.watch")
def watch(tournament_id: int) -> None:
    """Every minute while running: repair what a lost task or an aborted match left behind."""
    services.tournament_watch(tournament_id=tournament_id)


# For the manual scheduler of the tests (tests.conftest.run_jobs).
TASKS: dict[str, Callable[..., Any]] = {
    "tournaments.start_due": start_due,
    "tournaments.table_finished": table_finished,
    "tournaments.next_round": next_round,
    "tournaments.no_show_check": no_show_check,
    "tournaments.arena_end": arena_end,
    "tournaments.watch": watch,
}
