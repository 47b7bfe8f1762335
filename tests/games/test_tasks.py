"""Celery tasks that repair what a lost worker or broker dropped: the bot sweeper (`games.sweep_bots`)."""

from __future__ import annotations

from typing import Any

import pytest

from games import tasks
from games.models import Match, MatchEvent
from games.services.actions import action_submit, bots_plan
from games.services.timers import timer_fire
from tests.conftest import Clock, run_jobs
from tests.games.factories import started_table
from tests.support.manual_queue import MANUAL

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.core]


def _human_plays(match: Match) -> int:
    """Seat 0 (a person) plays its first card; returns the seq after it, when the bots are to move."""
    card = match.state["hands"][0][0]["id"]
    action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="p")
    match.refresh_from_db()
    return match.seq


def test_a_bot_whose_plan_was_lost_is_planned_again_once_the_table_is_silent(clock: Clock) -> None:
    _, match, _ = started_table(players=1, bots=2, options={"turn_seconds": 60})
    seq = _human_plays(match)
    assert any(job.name == "games.plan_bots" for job in MANUAL.jobs)
    MANUAL.clear()  # the worker died holding the bot's plan (and the turn timer)

    assert tasks.sweep_bots() == 0  # not silent yet: a bot may still be thinking
    clock.advance(tasks.BOT_STALL_MS / 1000 - 1)
    assert tasks.sweep_bots() == 0
    assert not MANUAL.jobs
    clock.advance(2)
    assert tasks.sweep_bots() == 1
    assert [(job.name, job.args) for job in MANUAL.jobs] == [("games.plan_bots", (match.pk, seq))]

    run_jobs(clock, max_jobs=2)  # the plan, then the move
    match.refresh_from_db()
    assert match.seq > seq
    assert MatchEvent.objects.filter(match=match, seq=seq + 1, kind="played", seat=1).exists()


def test_beat_runs_the_sweeper_by_its_name(clock: Clock) -> None:
    """The schedule names a task that exists (a typo would sweep nothing, silently)."""
    from django.conf import settings

    from config.celery import app

    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "games.sweep_bots" in names
    assert app.tasks["games.sweep_bots"].run is tasks.sweep_bots.run
    _, match, _ = started_table(players=1, bots=1, options={"turn_seconds": 60})
    _human_plays(match)
    MANUAL.clear()
    clock.advance(tasks.BOT_STALL_MS / 1000 + 1)
    MANUAL.push("games.sweep_bots", (), 0)
    run_jobs(clock, max_jobs=3)  # sweep, plan, move
    assert MatchEvent.objects.filter(match=match, kind="played", seat=1).exists()


def test_a_move_planned_twice_applies_once(clock: Clock) -> None:
    """What makes the sweeper harmless when the first plan was not lost after all."""
    _, match, _ = started_table(players=1, bots=2, options={"turn_seconds": 60})
    seq = _human_plays(match)
    MANUAL.clear()
    tasks.plan_bots(match.pk, seq)  # the first plan, still queued
    clock.advance(tasks.BOT_STALL_MS / 1000 + 1)
    tasks.sweep_bots()
    run_jobs(clock, max_jobs=1)  # the sweeper's plan_bots (due now) plans the same move again
    moves = [job.args for job in MANUAL.jobs if job.name == "games.bot_act"]
    assert len(moves) == 2 and moves[0] == moves[1]
    for args in moves:
        tasks.bot_act(*args)
    assert MatchEvent.objects.filter(match=match, kind="played", seat=1).count() == 1
    assert list(MatchEvent.objects.filter(match=match, seq__gt=seq).values_list("kind", "seat"))[0] == ("played", 1)


def test_two_different_moves_planned_for_one_seq_apply_once(clock: Clock) -> None:
    """A bot may plan differently at the same seq (some look at the clock): one action id, one move."""
    _, match, _ = started_table(players=1, bots=1, options={"turn_seconds": 60})
    seq = _human_plays(match)
    hand = match.state["hands"][1]
    tasks.bot_act(match.pk, 1, seq, {"kind": "play", "card": hand[0]["id"]})
    match.refresh_from_db()
    after = match.seq
    # A second plan of the same seq, delivered late (or racing the first past its seq check):
    action_submit(match_id=match.pk, seat=1, action={"kind": "play", "card": hand[1]["id"]}, action_id=f"bot:{seq}:1")
    match.refresh_from_db()
    assert match.seq == after
    assert [c["id"] for c in match.state["hands"][1]] == [c["id"] for c in hand[1:]]


def test_tables_of_people_and_finished_matches_are_not_swept(clock: Clock) -> None:
    _, people, _ = started_table(players=2, options={"turn_seconds": 60})
    _, bots, _ = started_table(players=1, bots=1, options={"turn_seconds": 60})
    Match.objects.filter(pk=bots.pk).update(status=Match.Status.FINISHED)
    queued = list(MANUAL.jobs)
    clock.advance(60)
    assert tasks.sweep_bots() == 0
    assert MANUAL.jobs == queued
    assert Match.objects.get(pk=people.pk).status == Match.Status.LIVE  # silent, but no bot of anyone's to plan


def test_a_zombie_seat_is_swept_like_a_bot_seat(clock: Clock) -> None:
    from games.models import Seat

    table, match, _ = started_table(players=2, options={"turn_seconds": 600})
    Seat.objects.filter(table=table, seat=0).update(zombie=True)  # its player is away; the plan was lost
    MANUAL.clear()
    clock.advance(tasks.BOT_STALL_MS / 1000 + 1)
    assert tasks.sweep_bots() == 1
    run_jobs(clock, max_jobs=2)
    assert MatchEvent.objects.filter(match=match, kind="played", seat=0).exists()


def test_a_replanned_move_for_a_seat_whose_turn_it_is_not_applies_nothing(clock: Clock) -> None:
    """The sweeper plans from the current seq, but whose turn it is stays the rules' call, as for a person."""
    _, match, _ = started_table(players=1, bots=2, options={"turn_seconds": 60})
    seq = _human_plays(match)  # seat 1's turn now
    assert match.state["turn"] == 1
    card = match.state["hands"][2][0]["id"]
    tasks.bot_act(match.pk, 2, seq, {"kind": "play", "card": card})  # seat 2 out of turn, at the current seq
    match.refresh_from_db()
    assert match.seq == seq and match.state["turn"] == 1
    assert not MatchEvent.objects.filter(match=match, seat=2).exists()


def test_plan_bots_is_the_bots_plan_service_and_drops_a_stale_seq() -> None:
    _, match, _ = started_table(players=1, bots=1)
    MANUAL.clear()
    assert bots_plan(match_id=match.pk, seq=match.seq - 1) == 0 and MANUAL.jobs == []
    planned = bots_plan(match_id=match.pk, seq=match.seq)
    assert planned == len([j for j in MANUAL.jobs if j.name == "games.bot_act"])
    MANUAL.clear()
    tasks.plan_bots(match.pk, match.seq)
    assert len([j for j in MANUAL.jobs if j.name == "games.bot_act"]) == planned


def test_in_a_web_process_the_broker_publish_leaves_the_actions_thread(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """`schedule` from a server thread returns at once; one publisher thread publishes, in order, countdowns kept."""
    import asyncio
    import threading

    from asgiref.sync import SyncToAsync

    from live import scheduling

    scheduling.schedule_with(None)  # Celery's path, not the tests' queue
    published: list[tuple[str, tuple[Any, ...], float, str]] = []
    gate = threading.Event()

    def publish(name: str, args: tuple[Any, ...], delay_s: float) -> None:
        gate.wait(5)
        published.append((name, args, delay_s, threading.current_thread().name))

    monkeypatch.setattr(scheduling, "_publish", publish)

    def in_a_server_thread() -> None:
        scheduling.schedule("games.fire_timer", (1, "a"), 10.0)
        scheduling.schedule("games.plan_bots", (1, 2), 0)

    async def serve() -> None:
        await SyncToAsync(in_a_server_thread, thread_sensitive=False)()
        assert published == [], "the action's thread did not wait for the broker"
        gate.set()
        for _ in range(100):
            if len(published) == 2:
                break
            await asyncio.sleep(0.02)

    asyncio.run(serve())
    assert [(n, a) for n, a, _, _ in published] == [("games.fire_timer", (1, "a")), ("games.plan_bots", (1, 2))]
    assert 9.0 < published[0][2] <= 10.0, "the countdown counts from when it was scheduled"
    assert published[0][3] == published[1][3] and published[0][3].startswith("celery-publish")


def test_outside_a_web_process_schedule_publishes_at_once(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """A worker or a command publishes in its own thread, so a failing broker reaches the caller."""
    from live import scheduling

    scheduling.schedule_with(None)  # Celery's path, not the tests' queue

    def down(name: str, args: tuple[Any, ...], delay_s: float) -> None:
        raise ConnectionError("broker is down")

    monkeypatch.setattr(scheduling, "_publish", down)
    with pytest.raises(ConnectionError):
        scheduling.schedule("games.plan_bots", (1, 2), 0)


def test_the_timer_sweeper_fires_only_what_is_past_due_and_grace(clock: Clock) -> None:
    """`games.sweep_timers` picks overdue rows in SQL: not before due + SWEEP_GRACE_MS, then once."""
    from games.models import PendingTimer

    _, match, _ = started_table(players=2, options={"turn_seconds": 5})
    _, finished, _ = started_table(players=2, options={"turn_seconds": 5})
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    MANUAL.clear()  # the worker died holding both turn timers
    due_s = PendingTimer.objects.get(match=match).due_ms / 1000
    clock.advance(due_s + tasks.SWEEP_GRACE_MS / 1000 - 0.2)
    assert tasks.sweep_timers() == 0, "due, but its holder may still fire it"
    clock.advance(0.4)
    assert tasks.sweep_timers() == 1, "overdue: fired, and only the live match's"
    match.refresh_from_db()
    assert MatchEvent.objects.filter(match=match, kind="played").count() == 1, "the turn timer played for the idle seat"
    assert PendingTimer.objects.get(match=match, timer_id="turn-1").fired
    assert not PendingTimer.objects.get(match=finished).fired
    assert tasks.sweep_timers() == 0, "nothing twice"


def test_the_timer_prune_drops_fired_rows_and_finished_matches_and_keeps_what_may_fire(clock: Clock) -> None:
    """`games.prune_timers`: a fired row and every row of a match that is over go; an unfired row of a live match stays."""
    from games.models import PendingTimer

    _, match, _ = started_table(players=2, options={"turn_seconds": 5})
    _, finished, _ = started_table(players=2, options={"turn_seconds": 5})
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    MANUAL.clear()
    first = PendingTimer.objects.get(match=match)
    clock.advance(first.due_ms / 1000 + tasks.SWEEP_GRACE_MS / 1000 + 0.2)
    assert tasks.sweep_timers() == 1  # fires turn-1, which arms the next turn's timer (unfired)
    rows = dict(PendingTimer.objects.filter(match=match).values_list("timer_id", "fired"))
    assert rows[first.timer_id] is True and False in rows.values(), rows
    seq = Match.objects.get(pk=match.pk).seq

    assert tasks.prune_timers() == 2, "the fired row and the finished match's"
    left = list(PendingTimer.objects.values_list("match_id", "timer_id", "fired"))
    assert left and all(m == match.pk and not fired for m, _, fired in left), left
    assert tasks.prune_timers() == 0

    # A late duplicate of the pruned timer (a Celery retry, the holder's own) applies nothing.
    assert timer_fire(match_id=match.pk, timer_id=first.timer_id) is None
    assert Match.objects.get(pk=match.pk).seq == seq
    assert tasks.sweep_timers() == 0, "the live match's unfired row is not overdue yet"
