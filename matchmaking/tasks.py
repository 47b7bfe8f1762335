"""Celery task of matchmaking: the periodic sweep that seats players as their bands widen."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="matchmaking.sweep")
def sweep() -> int:
    from matchmaking.services import queue_sweep

    return queue_sweep()
