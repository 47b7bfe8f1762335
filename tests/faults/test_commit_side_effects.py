"""What follows a commit cannot undo it: a dead channel layer or broker, and no needless bot plans.

An action is committed before anything is sent (`transaction.on_commit`).
If Redis is gone at that moment the group send and the Celery publish fail:
the player must still get the `ack` of what was applied (sockets catch up by
seq), and the timers the action asked for must still be scheduled when only
the layer failed. A table of people sends no `plan_bots` task per action; a
bot seat or a zombie seat does.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import MatchEvent, Seat
from games.services.actions import SubmitResult, action_submit
from live import broadcast, bus
from tests.games.factories import started_table
from tests.support.manual_queue import MANUAL

pytestmark = [pytest.mark.django_db(transaction=True)]


class DeadLayer:
    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        raise ConnectionError("Redis is down")


def play_first_card(match: Any, action_id: str) -> SubmitResult:
    match.refresh_from_db()
    seat = match.state["turn"]
    card = match.state["hands"][seat][0]["id"]
    return action_submit(match_id=match.pk, seat=seat, action={"kind": "play", "card": card}, action_id=action_id)


def test_a_dead_channel_layer_still_acknowledges_and_schedules(monkeypatch: pytest.MonkeyPatch) -> None:
    _, match, _ = started_table(players=2)
    MANUAL.clear()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: DeadLayer())
    result = play_first_card(match, "a")
    assert result.events and result.seq == MatchEvent.objects.filter(match=match).count()
    assert "games.fire_timer" in {j.name for j in MANUAL.jobs}, "the next turn's timer is scheduled all the same"


def test_a_dead_broker_still_acknowledges_the_committed_action(monkeypatch: pytest.MonkeyPatch) -> None:
    _, match, _ = started_table(players=2)

    def down(name: str, args: tuple[Any, ...], delay_s: float = 0.0) -> None:
        raise ConnectionError("broker is down")

    monkeypatch.setattr(bus, "schedule", down)
    result = play_first_card(match, "a")
    assert result.events, "the action is applied and answered"
    match.refresh_from_db()
    assert match.seq == result.seq


def test_a_table_of_people_sends_no_bot_plans() -> None:
    _, match, _ = started_table(players=2)
    MANUAL.clear()
    play_first_card(match, "a")
    assert "games.plan_bots" not in {j.name for j in MANUAL.jobs}


def test_a_bot_seat_or_a_zombie_seat_gets_a_plan_after_every_action() -> None:
    _, with_bot, _ = started_table(players=1, bots=1)
    MANUAL.clear()
    play_first_card(with_bot, "a")
    assert "games.plan_bots" in {j.name for j in MANUAL.jobs}

    table, people, _ = started_table(players=2)
    Seat.objects.filter(table=table, seat=1).update(zombie=True)
    MANUAL.clear()
    play_first_card(people, "b")
    assert "games.plan_bots" in {j.name for j in MANUAL.jobs}
