"""Celery task of moderation: the fair-play review at the end of a match."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="moderation.fair_play_review")
def fair_play_review(match_id: int) -> None:
    """Assess again the records of the people who sat in the match (a repeat only writes the same)."""
    from moderation.services import fair_play_match_review

    fair_play_match_review(match_id=match_id)
