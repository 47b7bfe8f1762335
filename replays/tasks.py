"""Celery tasks of the read side: ratings and statistics at the end of a match."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="replays.match_finished")
def match_finished(match_id: int) -> None:
    """Rate a finished match (ranked only) and count its statistics; a repeat does nothing."""
    from replays.stats_services import match_finished_process

    match_finished_process(match_id=match_id)
