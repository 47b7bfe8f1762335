"""`manage.py recompute_ratings [--game SLUG]` — every rating again from the match records.

Ranked finished matches are rated in the order they ended (then by id), the
order the live task uses, so the result equals the live figures.
"""

from __future__ import annotations

from stats.management.recompute import RecomputeCommand
from stats.rating_services import ratings_recompute


class Command(RecomputeCommand):
    help = "Recompute every rating and its history from the ranked match records, in order."
    counted = "ranked matches rated"

    def recompute(self, game: str | None) -> dict[str, int]:
        return ratings_recompute(game=game)
