"""Refold every stored state from its log: the game kit renamed state fields.

Why: `Match.state` and `Snapshot.state` cache a fold of the match's events,
and the game kit gave the four games one state vocabulary
(`seats` instead of `n`, `finished` instead of Zwicker's `phase == "over"`,
`legal` computed per view). A state cached by the old rules would not load in
the new ones. The log is the truth, so each cached state is folded again
from it with the rules as they are now: nothing is guessed, and the result
is exactly what a replay computes. Reversing is a no-op (the old rules would
refold their own states the same way if this migration were ever undone).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations


def refold(apps: Any, schema_editor: Any) -> None:
    from games.kit.registry import get_rules

    Match = apps.get_model("games", "Match")
    MatchEvent = apps.get_model("games", "MatchEvent")
    Snapshot = apps.get_model("games", "Snapshot")
    for match in Match.objects.exclude(state=None).only("id", "game", "seq").iterator(chunk_size=200):
        try:
            rules = get_rules(match.game)
        except KeyError:
            continue  # a game no longer installed: its states cannot be read anyway
        wanted = set(Snapshot.objects.filter(match_id=match.pk).values_list("seq", flat=True))
        state: Any = None
        events = MatchEvent.objects.filter(match_id=match.pk).order_by("seq").values("seq", "kind", "seat", "data")
        for e in events.iterator(chunk_size=2000):
            state = rules.fold(state, e)
            if e["seq"] in wanted:
                Snapshot.objects.filter(match_id=match.pk, seq=e["seq"]).update(state=state)
        Match.objects.filter(pk=match.pk).update(state=state)


class Migration(migrations.Migration):
    dependencies = [("games", "0003_fair_races")]

    operations = [migrations.RunPython(refold, migrations.RunPython.noop)]
