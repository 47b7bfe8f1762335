"""`manage.py import_match FILE` — recreate an exported match here, after re-verifying its log.

FILE is a document from `GET /api/matches/<id>/export/` (or `export_match`);
`-` reads it from standard input. Exits non-zero, saying why, when the
document is malformed or its log does not fold to its stored outcome.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import PlatformError
from replays.services import match_import


class Command(BaseCommand):
    help = "Import an exported match (new ids); refuses one whose log does not reproduce its outcome."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the export document (JSON); - for standard input")
        parser.add_argument(
            "--keep-ranked", action="store_true", help="keep the match ranked (imported matches are casual by default)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                document = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as f:
                    document = json.load(f)
        except OSError as e:
            raise CommandError(f"cannot read {path}: {e.strerror}") from None
        except json.JSONDecodeError as e:
            raise CommandError(f"{path} is not JSON: {e}") from None
        try:
            match = match_import(document=document, keep_ranked=options["keep_ranked"])
        except PlatformError as e:
            raise CommandError(f"refused: {e.message}") from None
        self.stdout.write(f"imported match {match.pk} ({match.game}, {match.seq} events, {match.status})")
