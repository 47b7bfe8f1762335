"""The game kit's data migration: every cached state is the fold of its log again."""

from __future__ import annotations

import importlib
import json

import pytest
from django.apps import apps

from games.engine import fold_all
from games.kit.registry import get_bot, get_rules
from games.models import Match, MatchEvent, Snapshot
from tests.games.factories import started_table
from tools.sim import play_bots

refold = importlib.import_module("games.migrations.0004_refold_states_game_kit").refold

pytestmark = pytest.mark.django_db


def _log(match: Match) -> list[dict]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values("seq", "kind", "seat", "data"))


@pytest.mark.parametrize("slug", ["zack", "zwicker", "smackit"])
def test_a_state_cached_by_the_old_rules_is_folded_again_from_the_log(slug: str) -> None:
    _, match, _ = started_table(players=1, bots=2, game=slug)
    rules = get_rules(slug)
    # Play a few seats' moves straight into the log (a bot match of the pure rules), then cache
    # states in the old vocabulary, as the rules before the game kit wrote them.
    report = play_bots(rules, get_bot(slug), ["normal"] * 3, 7)
    events = report.log[:40]
    MatchEvent.objects.filter(match=match).delete()
    MatchEvent.objects.bulk_create(
        MatchEvent(match=match, seq=i + 1, t_ms=0, kind=e["kind"], seat=e["seat"], data=e["data"]) for i, e in enumerate(events)
    )
    old = {"n": 3, "phase": "over", "stale": True}
    Match.objects.filter(pk=match.pk).update(state=old, seq=len(events))
    Snapshot.objects.filter(match=match).delete()
    Snapshot.objects.create(match=match, seq=20, state=old)

    refold(apps, None)

    match.refresh_from_db()
    log = _log(match)
    assert match.state == _json(fold_all(rules, log))
    assert Snapshot.objects.get(match=match, seq=20).state == _json(fold_all(rules, log[:20]))
    assert "n" not in match.state and match.state["seats"] == 3


def test_matches_without_a_state_or_of_an_unknown_game_are_left_alone() -> None:
    _, match, _ = started_table(players=1, bots=2, game="zack")
    Match.objects.filter(pk=match.pk).update(state=None)
    other = Match.objects.create(game="retired", seats=2, state={"x": 1}, started_at=match.started_at)
    refold(apps, None)
    assert Match.objects.get(pk=match.pk).state is None
    assert Match.objects.get(pk=other.pk).state == {"x": 1}


def _json(value: object) -> object:
    return json.loads(json.dumps(value))
