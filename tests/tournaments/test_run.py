"""Whole tournaments of every format, run to the end with bot players through the real services,
the games' Celery tasks and the tournaments' tasks (the manual scheduler on a virtual clock)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from itertools import combinations

import pytest
from django.utils import timezone

from games.models import Match, MatchEvent, Seat, Table
from games.services.matches import match_abort
from tests.conftest import Clock, run_jobs
from tests.games.factories import user
from tests.support import presence
from tests.support.manual_queue import MANUAL
from tests.tournaments.factories import bot_tournament, organiser
from tournaments import selectors, services
from tournaments.models import Entry, Round, Tournament, TournamentSeat, TournamentTable
from tournaments.standings import compute

pytestmark = pytest.mark.django_db(transaction=True)


def run(t: Tournament, clock: Clock, until_s: float | None = None) -> Tournament:
    run_jobs(clock, until_s=until_s, max_jobs=40_000)
    t.refresh_from_db()
    return t


def rounds_of(t: Tournament) -> list[list[list[int]]]:
    """Per round, the tables as lists of user ids by seat."""
    out = []
    for r in Round.objects.filter(tournament=t).order_by("number"):
        out.append([[s.user_id for s in tt.seats.order_by("seat")] for tt in r.tables.order_by("id")])
    return out


def check_every_round_seats_everyone_once(t: Tournament) -> None:
    entries = set(Entry.objects.filter(tournament=t).values_list("user_id", flat=True))
    for r in Round.objects.filter(tournament=t):
        seated = [s for tt in r.tables.all() for s in tt.seats.values_list("user_id", flat=True)]
        assert len(seated) == len(set(seated)), f"someone seated twice in round {r.number}"
        if t.format != Tournament.Format.ARENA and t.format != Tournament.Format.KNOCKOUT:
            assert set(seated) | set(r.byes) == entries and not set(seated) & set(r.byes)


def check_finished_tables(t: Tournament) -> None:
    for tt in TournamentTable.objects.filter(round__tournament=t).select_related("match"):
        assert tt.done and tt.match.status == Match.Status.FINISHED
        places = dict(tt.match.players.values_list("seat", "place"))
        assert {s.seat: s.place for s in tt.seats.all()} == places
        assert tt.table.host_id == t.organiser_id and not tt.table.seat_set.filter(user=t.organiser).exists()


def check_standings_match_the_pure_function(t: Tournament) -> None:
    payload = selectors.tournament_payload(t)
    results, byes = selectors.results_of(t)
    ids = list(Entry.objects.filter(tournament=t).values_list("user_id", flat=True))
    rows = compute(ids, results, table_size=t.table_size, byes=byes)
    assert sum(s["points"] for s in payload["standings"]) == pytest.approx(sum(r.points for r in rows))
    ranks = [s["rank"] for s in payload["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    points = [s["points"] for s in payload["standings"]]
    if t.format != Tournament.Format.KNOCKOUT:
        assert points == sorted(points, reverse=True)


def test_swiss_runs_every_round_with_an_uneven_field(clock: Clock) -> None:
    t = bot_tournament("swiss", 7, table_size=3, rounds=3)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    assert Round.objects.filter(tournament=t).count() == 1  # round 1 is seated at once
    t = run(t, clock)
    assert t.status == Tournament.Status.FINISHED and t.ended_at is not None
    rounds = rounds_of(t)
    assert len(rounds) == 3
    for tables in rounds:
        assert sorted(len(table) for table in tables) == [2, 2, 3]  # 7 = 3 + 2 + 2, no bye
    check_every_round_seats_everyone_once(t)
    check_finished_tables(t)
    check_standings_match_the_pure_function(t)
    # Every player scored in every round; the total per round is what the places hand out.
    payload = selectors.tournament_payload(t)
    assert all(s["played"] == 3 for s in payload["standings"])
    # The next round was seated only after the last table of the previous one ended.
    r = list(Round.objects.filter(tournament=t).order_by("number"))
    for before, after in zip(r, r[1:], strict=False):
        assert before.ended_at is not None and before.ended_at <= after.started_at


def test_round_robin_meets_every_pair_as_evenly_as_possible(clock: Clock) -> None:
    t = bot_tournament("round_robin", 6, table_size=3)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    t = run(t, clock)
    assert t.status == Tournament.Status.FINISHED
    assert t.rounds == 3  # ceil(5 / 2): enough for everyone to meet everyone
    check_every_round_seats_everyone_once(t)
    check_finished_tables(t)
    met: Counter[tuple[int, int]] = Counter()
    for tables in rounds_of(t):
        for table in tables:
            met.update(tuple(sorted(p)) for p in combinations(table, 2))
    ids = sorted(Entry.objects.filter(tournament=t).values_list("user_id", flat=True))
    counts = [met[(a, b)] for a, b in combinations(ids, 2)]
    assert max(counts) - min(counts) <= 2 and sum(counts) == 3 * 2 * 3


def test_knockout_advances_the_top_of_each_table_to_one_final(clock: Clock) -> None:
    t = bot_tournament("knockout", 9, table_size=3)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    t = run(t, clock)
    assert t.status == Tournament.Status.FINISHED
    rounds = rounds_of(t)
    assert [len(r) for r in rounds] == [3, 1]  # three tables, then the final table of their winners
    final = TournamentTable.objects.get(round__tournament=t, round__number=2)
    first_round = TournamentTable.objects.filter(round__tournament=t, round__number=1)
    winners = set()
    for tt in first_round:
        seats = sorted(tt.seats.all(), key=lambda s: s.place)
        winners.add(seats[0].user_id)
        assert seats[0].place < seats[-1].place or len({s.place for s in seats}) == 1
    assert set(final.seats.values_list("user_id", flat=True)) == winners
    eliminated = set(Entry.objects.filter(tournament=t, eliminated_in=1).values_list("user_id", flat=True))
    assert len(eliminated) == 6 and not eliminated & winners
    payload = selectors.tournament_payload(t)
    champion = min(final.seats.all(), key=lambda s: s.place)
    assert payload["standings"][0]["username"] == champion.user.username
    check_finished_tables(t)


def test_arena_reseats_finished_players_and_starts_no_table_after_the_end(clock: Clock) -> None:
    t = bot_tournament("arena", 5, table_size=4, duration_minutes=1, options={"hand": 8})
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    t.refresh_from_db()
    assert t.ends_at == t.started_at + dt.timedelta(minutes=1)
    assert TournamentTable.objects.filter(round__tournament=t).count() == 1  # 4 sit down, 1 waits
    t = run(t, clock)
    assert t.status == Tournament.Status.FINISHED
    tables = TournamentTable.objects.filter(round__tournament=t).select_related("match")
    assert tables.count() >= 3
    assert all(tt.match.started_at < t.ends_at for tt in tables)  # none started after the end
    assert max(tt.match.ended_at for tt in tables) >= t.ends_at or t.ended_at >= t.ends_at
    # The one who waited sat down next time: nobody waits twice in a row while 4 of 5 play.
    played = Counter(TournamentSeat.objects.filter(tournament_table__round__tournament=t).values_list("user_id", flat=True))
    assert max(played.values()) - min(played.values()) <= 1
    check_finished_tables(t)
    check_standings_match_the_pure_function(t)


def test_duplicate_deals_every_table_of_a_round_the_same_cards(clock: Clock) -> None:
    t = bot_tournament("swiss", 6, table_size=3, rounds=2, duplicate=True, options={"hand": 3})
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    t = run(t, clock)
    assert t.status == Tournament.Status.FINISHED
    deals_per_round = []
    for r in Round.objects.filter(tournament=t).order_by("number"):
        matches = [tt.match for tt in r.tables.select_related("match")]
        assert len({m.seed for m in matches}) == 1 and r.seed
        deals = [MatchEvent.objects.get(match=m, seq=1).data["hands"] for m in matches]
        assert all(d == deals[0] for d in deals)
        deals_per_round.append(deals[0])
    assert deals_per_round[0] != deals_per_round[1]  # a new deal each round


def test_no_shows_are_replaced_by_bots_and_score_nothing(clock: Clock) -> None:
    org = organiser()
    t = bot_tournament("swiss", 4, table_size=3, rounds=2, by=org, no_show_seconds=20)
    late, present = user("late"), user("present")
    services.tournament_register(tournament_id=t.pk, user=late)
    services.tournament_register(tournament_id=t.pk, user=present)
    services.tournament_start(tournament_id=t.pk, by=org)
    seat = Seat.objects.get(user=present, table__tournament_table__round__tournament=t)
    presence.socket_open(seat.table_id, present.pk, "present-page")  # "present" opens the table page
    # Before the no-show time nothing happens; the humans hold up their tables.
    run_jobs(clock, until_s=MANUAL.clock_s + 19.5)
    assert not Seat.objects.filter(zombie=True).exists()
    t = run(t, clock)
    assert t.status == Tournament.Status.FINISHED
    late_seats = TournamentSeat.objects.filter(user=late)
    assert late_seats.count() == 2 and all(s.replaced and s.forfeit for s in late_seats)
    first = TournamentSeat.objects.get(user=present, tournament_table__round__number=1)
    assert not first.replaced and not first.forfeit
    standing = {s["username"]: s for s in selectors.tournament_payload(t)["standings"]}
    assert standing["late"]["points"] == 0 and standing["late"]["tiebreaks"]["wins"] == 0


def test_organiser_removes_a_player_who_is_not_seated_again(clock: Clock) -> None:
    t = bot_tournament("swiss", 5, table_size=3, rounds=2, no_show_seconds=0)
    services.tournament_register(tournament_id=t.pk, user=user("quitter"))
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    gone = Entry.objects.get(tournament=t, user__username="quitter")
    services.tournament_remove_player(tournament_id=t.pk, by=t.organiser, username=gone.user.username)
    table = TournamentSeat.objects.get(user=gone.user).tournament_table.table
    assert Seat.objects.get(table=table, user=gone.user).zombie  # a bot finishes the table
    t = run(t, clock)
    assert t.status == Tournament.Status.FINISHED
    assert TournamentSeat.objects.filter(user=gone.user).count() == 1
    second = [p for table in rounds_of(t)[1] for p in table]
    assert len(second) == 5 and gone.user_id not in second
    line = next(s for s in selectors.tournament_payload(t)["standings"] if s["username"] == gone.user.username)
    assert line["withdrawn"] and line["played"] == 1


def test_pause_holds_the_next_round_and_resume_seats_it(clock: Clock) -> None:
    t = bot_tournament("swiss", 4, table_size=2, rounds=2)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    services.tournament_pause(tournament_id=t.pk, by=t.organiser)
    t = run(t, clock)
    assert t.status == Tournament.Status.PAUSED
    assert list(Round.objects.filter(tournament=t).values_list("number", "status")) == [(1, "finished")]
    services.tournament_resume(tournament_id=t.pk, by=t.organiser)
    assert Round.objects.filter(tournament=t).count() == 2  # seated at once on resume
    t = run(t, clock)
    assert t.status == Tournament.Status.FINISHED


def test_scheduled_start_waits_for_players_then_starts_on_time(clock: Clock) -> None:
    org = organiser()
    t = services.tournament_create(
        organiser=org, name="at noon", game="tiny", format="swiss", table_size=2, rounds=1, options={"hand": 1},
        starts_at=timezone.now() + dt.timedelta(minutes=10),
    )
    services.tournament_add_bots(tournament_id=t.pk, by=org, count=1)
    start = MANUAL.clock_s
    run_jobs(clock, until_s=start + 599)
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTERING and not t.note
    run_jobs(clock, until_s=start + 601)
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTERING and "at least 2 players" in t.note
    # A later start time (the organiser creates it again with enough players) starts by itself.
    t2 = services.tournament_create(
        organiser=org, name="later", game="tiny", format="swiss", table_size=2, rounds=1, options={"hand": 1},
        starts_at=timezone.now() + dt.timedelta(minutes=5),
    )
    services.tournament_add_bots(tournament_id=t2.pk, by=org, count=2)
    t2 = run(t2, clock)
    assert t2.status == Tournament.Status.FINISHED
    assert abs((t2.started_at - t2.starts_at).total_seconds()) < 2


def test_cancel_aborts_live_tables(clock: Clock) -> None:
    t = bot_tournament("swiss", 4, table_size=2, rounds=3)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    services.tournament_cancel(tournament_id=t.pk, by=t.organiser)
    assert set(Match.objects.filter(table__tournament_table__round__tournament=t).values_list("status", flat=True)) == {"aborted"}
    t = run(t, clock)
    assert t.status == Tournament.Status.CANCELLED and Round.objects.filter(tournament=t).count() == 1


def test_an_aborted_table_is_noticed_by_the_watchdog_and_everyone_shares(clock: Clock) -> None:
    t = bot_tournament("swiss", 4, table_size=2, rounds=2, options={"hand": 8})
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    tt = TournamentTable.objects.filter(round__tournament=t).first()
    match_abort(match_id=tt.match_id, by=t.organiser)  # fires no match-finished hook
    t = run(t, clock)
    assert t.status == Tournament.Status.FINISHED
    tt.refresh_from_db()
    assert tt.done and list(tt.seats.values_list("place", flat=True)) == [None, None]
    lines = {s["username"]: s for s in selectors.tournament_payload(t)["standings"]}
    for s in tt.seats.all():
        assert lines[s.user.username]["by_round"]["1"] == 0.5  # a shared place: half of a 2-table's point
    assert Table.objects.filter(tournament_table__round__tournament=t).count() == 4
