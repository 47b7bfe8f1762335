"""`manage.py recompute_stats [--game SLUG]` — every statistic again from the event logs."""

from __future__ import annotations

from stats.management.recompute import RecomputeCommand
from stats.services import stats_recompute


class Command(RecomputeCommand):
    help = "Recompute every player's and game's statistics from the finished matches' event logs."
    counted = "finished matches counted"

    def recompute(self, game: str | None) -> dict[str, int]:
        return stats_recompute(game=game)
