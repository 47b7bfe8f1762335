"""Celery tasks that repair what a lost worker or broker dropped."""

from __future__ import annotations

import pytest

from games import services, tasks
from games.models import Match, MatchEvent
from games.scheduling import MANUAL
from tests.conftest import run_jobs
from tests.games.factories import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.core]


def test_a_bot_whose_plan_was_lost_is_planned_again_once_the_table_stalls(clock) -> None:
    _, match, _ = started_table(players=1, bots=2, options={"turn_seconds": 60})
    card = match.state["hands"][0][0]["id"]
    services.action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="p")
    match.refresh_from_db()
    seq = match.seq
    assert any(job.name == "games.plan_bots" for job in MANUAL.jobs)
    MANUAL.clear()  # the worker died holding the bot's plan (and the turn timer)

    assert tasks.sweep_bots() == 0  # not stalled yet: a bot may still be thinking
    clock.advance(tasks.BOT_STALL_MS / 1000 - 1)
    assert tasks.sweep_bots() == 0
    assert not MANUAL.jobs
    clock.advance(2)
    assert tasks.sweep_bots() == 1
    assert [job.name for job in MANUAL.jobs] == ["games.bot_act"]

    run_jobs(clock, max_jobs=1)
    match.refresh_from_db()
    assert match.seq > seq
    assert MatchEvent.objects.filter(match=match, seq=seq + 1, kind="played", seat=1).exists()


def test_a_move_planned_twice_applies_once(clock) -> None:
    """What makes the sweeper harmless when the first plan was not lost after all."""
    _, match, _ = started_table(players=1, bots=2, options={"turn_seconds": 60})
    card = match.state["hands"][0][0]["id"]
    services.action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="p")
    match.refresh_from_db()
    seq = match.seq
    MANUAL.clear()
    tasks.plan_bots(match.pk, seq)
    clock.advance(tasks.BOT_STALL_MS / 1000 + 1)
    tasks.sweep_bots()
    moves = [job.args for job in MANUAL.jobs if job.name == "games.bot_act"]
    assert len(moves) == 2 and moves[0] == moves[1]
    for args in moves:
        tasks.bot_act(*args)
    match.refresh_from_db()
    assert MatchEvent.objects.filter(match=match, kind="played", seat=1).count() == 1
    assert list(MatchEvent.objects.filter(match=match, seq__gt=seq).values_list("kind", "seat"))[0] == ("played", 1)


def test_tables_of_people_and_finished_matches_are_not_swept(clock) -> None:
    _, people, _ = started_table(players=2, options={"turn_seconds": 60})
    _, bots, _ = started_table(players=1, bots=1, options={"turn_seconds": 60})
    Match.objects.filter(pk=bots.pk).update(status=Match.Status.FINISHED)
    queued = list(MANUAL.jobs)
    clock.advance(60)
    assert tasks.sweep_bots() == 0
    assert MANUAL.jobs == queued
    assert Match.objects.get(pk=people.pk).status == Match.Status.LIVE  # stalled, but nobody's bot to plan
