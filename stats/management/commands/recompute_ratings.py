"""`manage.py recompute_ratings [--game SLUG]` — every rating again from the match records.

Ranked finished matches are rated in the order they ended (then by id), the
order the live task uses, so the result equals the live figures.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from stats.rating_services import ratings_recompute


class Command(BaseCommand):
    help = "Recompute every rating and its history from the ranked match records, in order."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", help="only this game (slug)")

    def handle(self, *args: Any, **opts: Any) -> None:
        start = time.perf_counter()
        done = ratings_recompute(game=opts["game"])
        for game, count in done.items():
            self.stdout.write(f"{game}: {count} ranked matches rated")
        self.stdout.write(f"done in {time.perf_counter() - start:.1f} s")
