"""A timer the rules would answer with nothing is marked fired without the match row's lock; a live one fires as before."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import errors
from games.models import ActionRecord, Match, MatchEvent, PendingTimer
from games.services.actions import action_submit
from games.services.timers import timer_fire
from tests.conftest import Clock
from tests.games.factories import started_table

pytestmark = pytest.mark.django_db


def _smackit_after_one_flip() -> tuple[Match, str, str]:
    """A Smack It! match whose first idle timer was superseded by the flip that re-armed it."""
    _, match, _ = started_table(players=3, game="smackit")
    first = PendingTimer.objects.filter(match=match, timer_id__startswith="flip:").get().timer_id
    match.refresh_from_db()
    turn = match.state["turn"]
    action_submit(match_id=match.pk, seat=turn, action={"kind": "flip"}, action_id="f1")
    live = PendingTimer.objects.filter(match=match, timer_id__startswith="flip:").exclude(timer_id=first).get().timer_id
    return match, first, live


def test_a_superseded_timer_is_marked_fired_without_a_locking_transaction(clock: Clock) -> None:
    match, stale, _ = _smackit_after_one_flip()
    seq = Match.objects.get(pk=match.pk).seq
    clock.advance(60)
    with CaptureQueriesContext(connection) as queries:
        assert timer_fire(match_id=match.pk, timer_id=stale) is None
    assert not any("FOR UPDATE" in q["sql"] for q in queries.captured_queries)
    assert PendingTimer.objects.get(match=match, timer_id=stale).fired
    assert Match.objects.get(pk=match.pk).seq == seq
    assert not ActionRecord.objects.filter(match=match, client_id=f"timer:{stale}").exists()


def test_a_live_timer_still_fires_through_the_locked_path(clock: Clock) -> None:
    match, _, live = _smackit_after_one_flip()
    seq = Match.objects.get(pk=match.pk).seq
    clock.advance(60)  # past the idle timer: the idle player's top card is flipped for them
    result = timer_fire(match_id=match.pk, timer_id=live)
    assert result is not None and result.seq > seq and result.events
    assert MatchEvent.objects.filter(match=match, seq__gt=seq).exists()
    assert PendingTimer.objects.get(match=match, timer_id=live).fired
    assert ActionRecord.objects.filter(match=match, client_id=f"timer:{live}").exists()


def test_a_timer_of_a_finished_match_goes_the_ordinary_way_and_is_refused(clock: Clock) -> None:
    match, stale, _ = _smackit_after_one_flip()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    with pytest.raises(errors.PlatformError) as e:
        timer_fire(match_id=match.pk, timer_id=stale)
    assert e.value.code == "match_over"
