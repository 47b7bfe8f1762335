"""`manage.py recompute_stats [--game SLUG]` — every statistic again from the event logs."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from stats.services import stats_recompute


class Command(BaseCommand):
    help = "Recompute every player's and game's statistics from the finished matches' event logs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", help="only this game (slug)")

    def handle(self, *args: Any, **opts: Any) -> None:
        start = time.perf_counter()
        done = stats_recompute(game=opts["game"])
        for game, count in done.items():
            self.stdout.write(f"{game}: {count} finished matches counted")
        self.stdout.write(f"done in {time.perf_counter() - start:.1f} s")
