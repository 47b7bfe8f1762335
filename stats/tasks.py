"""Celery task of the statistics: ratings and figures at the end of a match."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="stats.match_finished")
def match_finished(match_id: int) -> None:
    """Rate a finished match (ranked only) and count its statistics; a repeat does nothing."""
    from stats.services import match_finished_process

    match_finished_process(match_id=match_id)
