"""Celery tasks of tournaments. Each re-reads and re-checks, so a late or repeated task is harmless.

Every task is one service call on one id, scheduled by name (`tournaments.<name>`, positional id); `_task`
makes each from its service, so a task says only when it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import shared_task

from tournaments import services


def _task(service: Callable[..., Any], when: str, key: str = "tournament_id") -> Any:
    """The task `tournaments.<name>` (the service's name less `tournament_`): `service(<key>=id)`;
    `when`, its docstring, says what schedules it."""
    name = service.__name__.removeprefix("tournament_")

    def run(object_id: int) -> None:
        service(**{key: object_id})

    run.__name__ = run.__qualname__ = name
    run.__doc__ = when
    return shared_task(name=f"tournaments.{name}")(run)


start_due = _task(services.tournament_start_due, "At `starts_at`: start, or leave a note saying why not (too few players).")
table_finished = _task(services.tournament_table_finished, "A match of a tournament table ended: record its places and move the tournament on.", key="match_id")
next_round = _task(services.tournament_next_round, "Seat the next round once the previous one is over (or end the tournament).")
table_deal = _task(services.tournament_table_deal, "A tournament table's grace is over, or its last person came: deal its match.", key="tournament_table_id")
no_show_check = _task(services.tournament_no_show_check, "Hand the seats of players who never connected to their table to bots.", key="tournament_table_id")
arena_end = _task(services.tournament_arena_end, "The arena's end time: no new table; it is over when the last one ends.")
watch = _task(services.tournament_watch, "Every minute while running: repair what a lost task or an aborted match left behind.")

# For the manual scheduler of the tests (tests.conftest.run_jobs).
TASKS: dict[str, Callable[..., Any]] = {
    task.name: task for task in (start_due, table_finished, next_round, table_deal, no_show_check, arena_end, watch)
}
