"""`manage.py export_match ID [-o FILE]` — the export document of a finished match, for `import_match`."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.deals import deal_is_secret
from games.models import Match
from replays.selectors import export


class Command(BaseCommand):
    help = "Write the export document of a finished or aborted match (the same JSON as the export API)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        match = Match.objects.filter(pk=options["match_id"]).first()
        if match is None:
            raise CommandError(f"no match {options['match_id']}")
        if match.status == Match.Status.LIVE:
            raise CommandError("a live match is exported once it is over")
        if deal_is_secret(match=match):
            raise CommandError("another table of its round still plays this deal: export it once the round is over")
        text = json.dumps(export(match=match), ensure_ascii=False)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as f:
                f.write(text)
            self.stdout.write(f"wrote match {match.pk} to {options['output']}")
        else:
            self.stdout.write(text)
