"""The shape both `recompute_*` commands share: `--game`, one line per game, the time taken."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser


class RecomputeCommand(BaseCommand):
    """A command that rebuilds stored figures from the match records; subclasses say what and how."""

    counted = ""  # what the count per game is, e.g. "ranked matches rated"

    def recompute(self, game: str | None) -> dict[str, int]:
        raise NotImplementedError

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", help="only this game (slug)")

    def handle(self, *args: Any, **opts: Any) -> None:
        start = time.perf_counter()
        for game, count in self.recompute(opts["game"]).items():
            self.stdout.write(f"{game}: {count} {self.counted}")
        self.stdout.write(f"done in {time.perf_counter() - start:.1f} s")
