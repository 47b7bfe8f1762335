"""A tournament table with a person at it waits for its players before the deal (TOURNAMENT_SEAT_GRACE_SECONDS):
dealt when the last person comes, or after the grace; the no-show time counts from the deal."""

from __future__ import annotations

import uuid

import pytest

from accounts.models import User
from games import errors
from games.models import Match, Seat, Table
from games.services.presence import presence_open
from games.services.tables import table_leave
from tests.conftest import run_jobs
from tests.tournaments.factories import bot_tournament, organiser
from tournaments import services
from tournaments.models import TournamentTable

pytestmark = pytest.mark.django_db(transaction=True)


def started(game: str = "tiny", people: int = 1, no_show: int = 120) -> tuple[list[TournamentTable], list[User]]:
    org = organiser()
    t = bot_tournament("swiss", bots=4 - people, game=game, table_size=4, by=org, rounds=1, no_show_seconds=no_show,
                       options={"hand": 2} if game == "tiny" else {})
    humans = [User.objects.create_user(f"new{i}", password="correct horse 42") for i in range(people)]
    for h in humans:
        services.tournament_register(tournament_id=t.pk, user=h)
    services.tournament_start(tournament_id=t.pk, by=org)
    return list(TournamentTable.objects.filter(round__tournament=t)), humans


def arrive(table_id: int, user: User) -> None:
    presence_open(table_id=table_id, user_id=user.pk, channel_name=f"c-{uuid.uuid4()}", process_id=uuid.uuid4())


def test_nothing_plays_before_the_grace_then_the_match_is_dealt(clock, settings) -> None:
    settings.TOURNAMENT_SEAT_GRACE_SECONDS = 60
    (tt,), (newcomer,) = started(game="smackit")
    assert tt.match_id is None and Table.objects.get(pk=tt.table_id).status == Table.Status.OPEN
    run_jobs(clock, until_s=59)
    tt.refresh_from_db()
    assert tt.match_id is None and not Match.objects.filter(table_id=tt.table_id).exists()  # no turn timer, no bot for them
    run_jobs(clock, until_s=61)
    tt.refresh_from_db()
    assert tt.match_id is not None and Match.objects.get(pk=tt.match_id).status == Match.Status.LIVE
    seat = Seat.objects.get(table_id=tt.table_id, user=newcomer)
    assert not seat.zombie  # the no-show time counts from the deal
    run_jobs(clock, until_s=61 + 121)
    seat.refresh_from_db()
    assert seat.zombie  # a no-show after all: a bot plays the seat now


def test_the_last_person_to_arrive_deals_at_once(clock, settings) -> None:
    settings.TOURNAMENT_SEAT_GRACE_SECONDS = 60
    (tt,), (ann, bob) = started(people=2)
    arrive(tt.table_id, ann)
    run_jobs(clock, until_s=1)
    tt.refresh_from_db()
    assert tt.match_id is None  # bob is not there yet
    arrive(tt.table_id, bob)
    run_jobs(clock, until_s=2)
    tt.refresh_from_db()
    assert tt.match_id is not None and Match.objects.get(pk=tt.match_id).started_at is not None
    assert services.tournament_table_deal(tournament_table_id=tt.pk) is False  # once
    run_jobs(clock)  # the grace's own task finds it dealt; the match is played out
    tt.refresh_from_db()
    assert tt.done


def test_a_player_cannot_leave_a_tournament_table_waiting_for_its_deal(clock, settings) -> None:
    settings.TOURNAMENT_SEAT_GRACE_SECONDS = 60
    (tt,), (ann,) = started()
    with pytest.raises(errors.PlatformError) as e:
        table_leave(table_id=tt.table_id, user=ann)
    assert e.value.status == 409
    assert Seat.objects.filter(table_id=tt.table_id, user=ann).exists()


def test_no_grace_deals_at_once(settings) -> None:
    settings.TOURNAMENT_SEAT_GRACE_SECONDS = 0
    (tt,), _ = started()
    assert tt.match_id is not None
