"""Attacks on withdrawal: a player the organiser removed from a running tournament comes back.

Removal handed the seat to a bot the way a no-show's is, so reconnecting
cleared the zombie flag and the removed player played on. Withdrawal is now a
seat state of its own (`Seat.withdrawn`) that a reconnect leaves alone and
`action_submit` answers with `withdrawn`; the bot plays the seat to the end.
A no-show (`tournament_replace_player`, or the no-show timer) is not a
withdrawal: that player may still come and take the seat back.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from games import errors
from games.models import Match, MatchEvent, Seat
from games.services.actions import action_submit
from tests.conftest import Clock, run_jobs
from tests.games.factories import user
from tests.support import presence
from tests.tournaments.factories import bot_tournament
from tournaments import services
from tournaments.models import TournamentSeat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.core]


@pytest.fixture(autouse=True)
def _deal_at_once(settings: Any) -> None:
    """These attacks need the tournament's tables dealt: the grace before the deal is tested on its own
    (tests/tournaments/test_seat_grace.py)."""
    settings.TOURNAMENT_SEAT_GRACE_SECONDS = 0


def seated_player(name: str) -> tuple[Any, Seat, Match]:
    """A running tournament (two bots and `name` at one table of three), at the player's turn."""
    t = bot_tournament("swiss", 2, table_size=3, rounds=1, no_show_seconds=0)
    person = user(name)
    services.tournament_register(tournament_id=t.pk, user=person)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    seat = Seat.objects.select_related("table").get(user=person)
    match = Match.objects.get(pk=seat.table.current_match_id)
    return t, seat, match


def run_until_turn_of(clock: Clock, match: Match, seat: int) -> dict[str, Any]:
    """Run jobs one at a time (the bots of the other seats play) until it is `seat`'s turn."""
    for _ in range(1000):
        match.refresh_from_db()
        if match.state["turn"] == seat:
            return match.state
        assert run_jobs(clock, max_jobs=1), "the match stalled"
    raise AssertionError("never the seat's turn")


def played_by(match: Match, seat: int) -> int:
    return MatchEvent.objects.filter(match=match, kind="played", seat=seat).count()


def test_a_removed_player_who_comes_back_stays_withdrawn_and_cannot_act(clock: Clock) -> None:
    t, seat, match = seated_player("quitter")
    presence.socket_open(seat.table_id, seat.user_id, "before")
    services.tournament_remove_player(tournament_id=t.pk, by=t.organiser, username="quitter")
    seat.refresh_from_db()
    assert seat.zombie and seat.withdrawn
    presence.socket_open(seat.table_id, seat.user_id, "after")  # the attack: reconnect
    seat.refresh_from_db()
    assert seat.zombie and seat.withdrawn, "a reconnect does not undo a withdrawal"
    state = run_until_turn_of(clock, match, seat.seat)  # (its bot would move next: it is not run here)
    legal = state["hands"][seat.seat][0]["id"]
    before = Match.objects.get(pk=match.pk).seq
    with pytest.raises(errors.PlatformError) as refused:
        action_submit(match_id=match.pk, seat=seat.seat, action={"kind": "play", "card": legal}, action_id="mine")
    assert refused.value.code == "withdrawn"
    assert Match.objects.get(pk=match.pk).seq == before, "nothing applied"


def test_the_bot_plays_a_withdrawn_seat_to_the_end(clock: Clock) -> None:
    t, seat, match = seated_player("quitter2")
    presence.socket_open(seat.table_id, seat.user_id, "s")
    services.tournament_remove_player(tournament_id=t.pk, by=t.organiser, username="quitter2")
    presence.socket_open(seat.table_id, seat.user_id, "s2")
    run_jobs(clock, max_jobs=20_000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and played_by(match, seat.seat) > 0
    assert Seat.objects.get(pk=seat.pk).withdrawn


def test_a_no_show_who_comes_is_not_withdrawn_and_takes_the_seat_back(clock: Clock) -> None:
    t, seat, match = seated_player("late")
    services.tournament_replace_player(tournament_id=t.pk, by=t.organiser, username="late")
    seat.refresh_from_db()
    assert seat.zombie and not seat.withdrawn
    presence.socket_open(seat.table_id, seat.user_id, "came")
    seat.refresh_from_db()
    assert not seat.zombie
    state = run_until_turn_of(clock, match, seat.seat)
    card = state["hands"][seat.seat][0]["id"]
    result = action_submit(match_id=match.pk, seat=seat.seat, action={"kind": "play", "card": card}, action_id="mine")
    assert result.seq > 0 and not result.duplicate
    assert TournamentSeat.objects.get(user=seat.user).replaced


@pytest.mark.asyncio
async def test_a_withdrawn_players_socket_is_answered_withdrawn(clock: Clock) -> None:
    t, seat, match = await database_sync_to_async(seated_player)("quitter3")
    await database_sync_to_async(services.tournament_remove_player)(tournament_id=t.pk, by=t.organiser, username="quitter3")
    state = await database_sync_to_async(run_until_turn_of)(clock, match, seat.seat)
    token = await database_sync_to_async(lambda: token_for(user=seat.user))()
    comm = WebsocketCommunicator(application, f"/ws/tables/{seat.table_id}/?token={token}")
    assert (await comm.connect())[0]
    hello = await comm.receive_json_from(timeout=5)
    assert hello["seat"] == seat.seat
    card = state["hands"][seat.seat][0]["id"]
    await comm.send_json_to({"type": "act", "id": "back", "action": {"kind": "play", "card": card}})
    answer = await comm.receive_json_from(timeout=5)
    assert answer["type"] == "error" and answer["code"] == "withdrawn" and answer["id"] == "back"
    row = await database_sync_to_async(lambda: Seat.objects.get(pk=seat.pk))()
    assert row.zombie and row.withdrawn
    await comm.disconnect()
