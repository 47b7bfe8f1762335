"""Bot tables under failure: a lost plan must not stall a table, and a stale plan must not act for a person.

Written as the failures and the abuse: (1) the worker dies (or Redis is
flushed) holding a bot's plan: before the sweeper nothing ever planned again
and the table waited for ever; (2) a move planned for a zombie seat (its
player away) fired after the player was back: the bot played their card in
their name. The sweeper's own re-plans make (2) likelier, so both are here.
"""

from __future__ import annotations

import pytest
from django.conf import settings

from games import tasks
from games.models import Match, MatchEvent, Seat
from games.services.actions import action_submit
from tests.conftest import Clock, run_jobs
from tests.games.factories import started_table
from tests.support.manual_queue import MANUAL

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.core]


def _run_beat_once(clock: Clock) -> None:
    """Every task of beat's schedule once, by name, and whatever they schedule that is due now."""
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        MANUAL.push(entry["task"], tuple(entry.get("args", ())), 0)
    run_jobs(clock, until_s=MANUAL.clock_s + 1)


@pytest.mark.parametrize("lost", ["worker killed", "broker flushed"])
def test_a_bot_table_whose_plan_was_lost_goes_on_within_seconds(clock: Clock, lost: str) -> None:
    _, match, _ = started_table(players=1, bots=2, options={"turn_seconds": 600})
    card = match.state["hands"][0][0]["id"]
    action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="mine")
    match.refresh_from_db()
    seq = match.seq
    MANUAL.clear()  # the bot's plan (and the turn timer's countdown) went with the worker or the queue

    clock.advance(15)  # silent for longer than any bot thinks; the turn timer is far off
    MANUAL.clock_s = 15
    _run_beat_once(clock)

    match.refresh_from_db()
    assert match.seq > seq, f"{lost}: the bots never played again"
    assert MatchEvent.objects.filter(match=match, seq=seq + 1, kind="played", seat=1).exists()


def test_a_move_planned_for_a_zombie_seat_is_not_made_once_its_player_is_back(clock: Clock) -> None:
    table, match, humans = started_table(players=2, options={"turn_seconds": 600})
    assert match.state["turn"] == 0
    mine = [c["id"] for c in match.state["hands"][0]]
    Seat.objects.filter(table=table, seat=0).update(zombie=True)  # away long enough: a bot plays for them
    MANUAL.clear()
    tasks.plan_bots(match.pk, match.seq)
    planned = [job for job in MANUAL.jobs if job.name == "games.bot_act"]
    assert [job.args[1] for job in planned] == [0], "the bot planned a move for the away player's seat"

    Seat.objects.filter(table=table, seat=0).update(zombie=False)  # the player is back before it fires
    run_jobs(clock)

    match.refresh_from_db()
    assert not MatchEvent.objects.filter(match=match, kind="played", seat=0).exists(), "the bot played in their name"
    # Their turn is still theirs to play, with the card they choose.
    action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": mine[-1]}, action_id="back")
    played = MatchEvent.objects.get(match=match, kind="played", seat=0)
    assert played.data["card"]["id"] == mine[-1]
    assert Match.objects.get(pk=match.pk).status == Match.Status.LIVE
