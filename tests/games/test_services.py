"""Table and match services: one transaction per action, idempotency, broadcasts on commit."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import errors
from games.engine import fold_all
from games.kit.registry import get_rules
from games.models import ActionRecord, Match, MatchEvent, PendingTimer, Seat, Table
from games.services.actions import action_check, action_submit
from games.services.chat import chat_post
from games.services.presence import presence_sweep, table_zombie_check
from games.services.tables import (
    table_add_bot,
    table_create,
    table_join,
    table_join_by_invite,
    table_leave,
    table_rematch,
    table_start,
)
from tests.conftest import run_jobs
from tests.games.factories import started_table, user
from tests.support import presence
from tests.support.manual_queue import MANUAL

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.core]


def stored_log(match: Match) -> list[dict]:
    return [{"kind": e.kind, "seat": e.seat, "data": e.data} for e in MatchEvent.objects.filter(match=match).order_by("seq")]


def test_create_validates_game_seats_and_options() -> None:
    host = user("host")
    with pytest.raises(errors.PlatformError) as e:
        table_create(host=host, game="chess", seats=2)
    assert e.value.status == 400 and e.value.code == "unknown_game"
    with pytest.raises(errors.PlatformError) as e:
        table_create(host=host, game="tiny", seats=9)
    assert e.value.status == 400 and "2 to 4" in e.value.message
    with pytest.raises(errors.PlatformError) as e:
        table_create(host=host, game="tiny", seats=2, options={"colour": "red"})
    assert e.value.code == "bad_option"
    with pytest.raises(errors.PlatformError) as e:
        table_create(host=host, game="tiny", seats=2, options={"hand": "many"})
    assert e.value.code == "bad_option"
    with pytest.raises(errors.PlatformError) as e:
        table_create(host=host, game="tiny", seats=2, options={"dealer": 1})
    assert "set by the platform" in e.value.message
    table = table_create(host=host, game="tiny", seats=3, options={"hand": 2})
    assert table.status == "open" and list(table.seat_set.values_list("seat", "user__username")) == [(0, "host")]


def test_join_leave_and_conflicts() -> None:
    host, a, b = user("host"), user("a"), user("b")
    table = table_create(host=host, game="tiny", seats=2)
    with pytest.raises(errors.PlatformError) as e:
        table_join(table_id=table.pk, user=a, seat=0)
    assert e.value.status == 409 and e.value.code == "seat_taken"
    table_join(table_id=table.pk, user=a, seat=1)
    with pytest.raises(errors.PlatformError) as e:
        table_join(table_id=table.pk, user=b)
    assert e.value.status == 409 and e.value.code == "full"
    table_leave(table_id=table.pk, user=a)
    table_join(table_id=table.pk, user=b)
    table_start(table_id=table.pk, by=host)
    with pytest.raises(errors.PlatformError) as e:
        table_leave(table_id=table.pk, user=b)
    assert e.value.status == 409


def test_host_leaving_passes_the_table_on_or_closes_it() -> None:
    host, a = user("host"), user("a")
    table = table_create(host=host, game="tiny", seats=3)
    table_join(table_id=table.pk, user=a)
    table_leave(table_id=table.pk, user=host)
    assert Table.objects.get(pk=table.pk).host == a
    table_leave(table_id=table.pk, user=a)
    assert not Table.objects.filter(pk=table.pk).exists()


def test_only_host_adds_bots_and_starts_a_full_table() -> None:
    host, a = user("host"), user("a")
    table = table_create(host=host, game="tiny", seats=3)
    table_join(table_id=table.pk, user=a)
    with pytest.raises(errors.PlatformError) as e:
        table_add_bot(table_id=table.pk, by=a)
    assert e.value.status == 403
    with pytest.raises(errors.PlatformError) as e:
        table_start(table_id=table.pk, by=host)
    assert e.value.status == 409 and "2 of 3" in e.value.message
    with pytest.raises(errors.PlatformError) as e:
        table_add_bot(table_id=table.pk, by=host, level="genius")
    assert e.value.status == 400
    table_add_bot(table_id=table.pk, by=host, level="hard")
    with pytest.raises(errors.PlatformError) as e:
        table_start(table_id=table.pk, by=a)
    assert e.value.status == 403
    match = table_start(table_id=table.pk, by=host)
    assert match.seq == 2 and match.status == "live"
    assert [(p.seat, p.bot_level) for p in match.players.all()] == [(0, ""), (1, ""), (2, "hard")]


def test_submit_appends_consecutive_events_and_state_is_the_fold() -> None:
    table, match, _ = started_table(players=2)
    rules = get_rules("tiny")
    hand = match.state["hands"][0]
    result = action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": hand[0]["id"]}, action_id="a1")
    match.refresh_from_db()
    seqs = list(MatchEvent.objects.filter(match=match).values_list("seq", flat=True))
    assert seqs == list(range(1, match.seq + 1)) and result.seq == match.seq
    assert [e["kind"] for e in result.events] == ["played", "timer"]
    assert fold_all(rules, stored_log(match)) == match.state


def test_repeated_action_id_applies_nothing_and_answers_the_same() -> None:
    _, match, _ = started_table(players=2)
    card = match.state["hands"][0][0]["id"]
    first = action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="same")
    again = action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="same")
    assert again.duplicate and again.seq == first.seq and again.events == []
    assert MatchEvent.objects.filter(match=match).count() == first.seq
    assert ActionRecord.objects.filter(match=match).count() == 1


def test_rule_error_changes_nothing() -> None:
    _, match, _ = started_table(players=2)
    before = (match.seq, match.state)
    with pytest.raises(errors.PlatformError) as e:
        action_submit(match_id=match.pk, seat=1, action={"kind": "play", "card": 1}, action_id="x")
    assert e.value.code == "rule" and e.value.rule_code == "not_your_turn"
    match.refresh_from_db()
    assert (match.seq, match.state) == before
    assert not ActionRecord.objects.filter(match=match).exists()


def test_bad_shapes_are_refused_before_the_rules() -> None:
    _, match, _ = started_table(players=2)
    for action, action_id in [("play", "x"), ({"kind": 3}, "x"), ({"kind": "play"}, 5), ({"kind": "play"}, "x" * 65)]:
        with pytest.raises(errors.PlatformError) as e:
            action_submit(match_id=match.pk, seat=0, action=action, action_id=action_id)  # type: ignore[arg-type]
        assert e.value.code == "bad_message"
    with pytest.raises(errors.PlatformError) as e:
        action_submit(match_id=match.pk, seat=None, action={"kind": "play"}, action_id="x")
    assert e.value.code == "not_seated"
    with pytest.raises(errors.PlatformError) as e:
        action_submit(match_id=10**9, seat=0, action={"kind": "play"}, action_id="x")
    assert e.value.code == "no_match"


@pytest.mark.django_db(transaction=True)
def test_broadcast_and_scheduling_wait_for_commit() -> None:
    _, match, _ = started_table(players=1, bots=1)  # a bot seat: its plan is deferred work too
    MANUAL.clear()
    card = match.state["hands"][0][0]["id"]
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="r")
            assert MANUAL.jobs == []  # nothing leaves before the commit
            raise RuntimeError("roll back")
    assert MANUAL.jobs == []  # and nothing for a rollback
    match.refresh_from_db()
    assert match.seq == 2 and not ActionRecord.objects.filter(match=match).exists()
    action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="c")
    assert {j.name for j in MANUAL.jobs} >= {"games.fire_timer", "games.plan_bots"}


def test_timer_fires_and_stale_timer_does_nothing(clock) -> None:
    _, match, _ = started_table(players=2, options={"turn_seconds": 5})
    assert PendingTimer.objects.filter(match=match, timer_id="turn-1", due_ms=5000).exists()
    card = match.state["hands"][0][0]["id"]
    action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="p")
    match.refresh_from_db()
    seq = match.seq
    stale = action_submit(match_id=match.pk, seat=None, action={"kind": "timer", "id": "turn-1"}, action_id="t1")
    assert stale.events == [] and stale.seq == seq
    clock.advance(6)
    run_jobs(clock)
    match.refresh_from_db()
    kinds = list(MatchEvent.objects.filter(match=match, seq__gt=seq).values_list("kind", "seat"))
    assert ("played", 1) in kinds  # the timer played seat 1's card for it
    assert PendingTimer.objects.get(match=match, timer_id="turn-2").fired


def test_bots_play_a_whole_match_and_the_table_finishes(clock) -> None:
    table, match, _ = started_table(players=1, bots=2)
    # The human is seat 0 and never acts: the turn timer plays for it.
    run_jobs(clock)
    match.refresh_from_db()
    table.refresh_from_db()
    assert match.status == "finished" and match.outcome["winners"]
    assert table.status == "finished"
    assert fold_all(get_rules("tiny"), stored_log(match)) == match.state
    assert all(p.place for p in match.players.all())


def test_rematch_moves_the_dealer_left(clock) -> None:
    table, match, humans = started_table(players=1, bots=1)
    with pytest.raises(errors.PlatformError):
        table_rematch(table_id=table.pk, by=humans[0])
    run_jobs(clock)
    second = table_rematch(table_id=table.pk, by=humans[0])
    table.refresh_from_db()
    assert table.dealer == 0 and second.options["dealer"] == 0 and second.state["turn"] == 1
    assert table.current_match_id == second.pk and table.status == "playing"


def test_acting_in_a_finished_match_is_match_over(clock) -> None:
    _, match, _ = started_table(players=1, bots=1)
    run_jobs(clock)
    with pytest.raises(errors.PlatformError) as e:
        action_submit(match_id=match.pk, seat=0, action={"kind": "slap"}, action_id="late")
    assert e.value.code == "match_over"


def test_disconnected_player_becomes_a_zombie_played_by_a_bot(clock) -> None:
    table, match, humans = started_table(players=2, options={"turn_seconds": 600})
    presence.socket_open(table.pk, humans[0].pk, "c0")
    presence.socket_close(table.pk, humans[0].pk, "c0")
    MANUAL.jobs = [j for j in MANUAL.jobs if j.name == "games.zombie_check"]
    clock.advance(46)
    run_jobs(clock, until_s=45)
    assert Seat.objects.get(table=table, seat=0).zombie
    run_jobs(clock, until_s=60)
    match.refresh_from_db()
    assert MatchEvent.objects.filter(match=match, kind="played", seat=0).exists()
    presence.socket_open(table.pk, humans[0].pk, "c1")
    assert not Seat.objects.get(table=table, seat=0).zombie


def test_reconnecting_in_time_is_no_zombie(clock) -> None:
    table, _, humans = started_table(players=2)
    presence.socket_open(table.pk, humans[1].pk, "c0")
    presence.socket_close(table.pk, humans[1].pk, "c0")
    clock.advance(10)
    presence.socket_open(table.pk, humans[1].pk, "c1")
    clock.advance(40)
    presence.beat()  # the web process holding "c1" is alive
    assert table_zombie_check(table_id=table.pk) == 0
    assert presence_sweep()["zombies"] == 0
    assert not Seat.objects.get(table=table, seat=1).zombie


def test_chat_is_length_and_rate_limited(settings) -> None:
    from django.core.cache import cache

    cache.clear()
    table, _, humans = started_table(players=2)
    with pytest.raises(errors.PlatformError):
        chat_post(table_id=table.pk, user=humans[0], text="x" * 301)
    with pytest.raises(errors.PlatformError):
        chat_post(table_id=table.pk, user=humans[0], text="   ")
    for i in range(settings.CHAT_MAX_PER_10S):
        chat_post(table_id=table.pk, user=humans[0], text=f"hi {i}")
    with pytest.raises(errors.PlatformError) as e:
        chat_post(table_id=table.pk, user=humans[0], text="one too many")
    assert e.value.code == "rate_limited"


def test_invite_link_seats_whoever_opens_it() -> None:
    host, guest, late = user("host"), user("guest"), user("late")
    table = table_create(host=host, game="tiny", seats=2)
    table_join_by_invite(code=table.invite_code, user=guest)
    assert Seat.objects.filter(table=table, user=guest, seat=1).exists()
    table_join_by_invite(code=table.invite_code, user=late)  # full: watches instead
    assert not Seat.objects.filter(table=table, user=late).exists()
    with pytest.raises(errors.PlatformError):
        table_join_by_invite(code="nope", user=late)


def test_series_counts_wins_until_someone_has_two() -> None:
    from games.selectors import series_from_outcomes

    def won(*seats: int) -> dict:
        return {"placements": [], "winners": list(seats)}

    assert series_from_outcomes([]) == {"wins": {}, "winner": None, "matches": 0, "target": 2}
    assert series_from_outcomes([won(1), won(0)])["winner"] is None
    done = series_from_outcomes([won(1), won(0), won(1)])
    assert done == {"wins": {"0": 1, "1": 2}, "winner": 1, "matches": 3, "target": 2}
    assert series_from_outcomes([won(1), won(0), won(1), won(2)]) == {"wins": {"2": 1}, "winner": None, "matches": 1, "target": 2}


def test_series_shows_in_the_table_payload(clock) -> None:
    from games.selectors import table_payload

    table, match, humans = started_table(players=1, bots=1)
    assert table_payload(table)["series"] is None
    table.options = {"series": True}
    table.save(update_fields=["options"])
    run_jobs(clock)
    match.refresh_from_db()
    payload = table_payload(Table.objects.get(pk=table.pk))["series"]
    assert payload["matches"] == 1 and sum(payload["wins"].values()) == len(match.outcome["winners"])


# --- the action path's shape (docs/performance.md) ------------------------------------------


def test_an_action_of_its_own_is_two_messages_to_postgresql_and_its_timers_follow_the_commit() -> None:
    """BEGIN rides the locking read and COMMIT the writes (games/services/action_sql.py); on_commit work runs once after."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if connection.vendor != "postgresql":
        pytest.skip("the transaction by hand is PostgreSQL's; SQLite keeps Django's atomic")
    _, match, _ = started_table(players=2)
    card = match.state["hands"][0][0]["id"]
    MANUAL.clear()
    with CaptureQueriesContext(connection) as sent:
        result = action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="a1")
    statements = [q["sql"] for q in sent.captured_queries]
    assert len(statements) == 2, statements
    assert statements[0].startswith("BEGIN;") and "FOR UPDATE" in statements[0]
    assert statements[1].rstrip().endswith("COMMIT") and "INSERT INTO games_matchevent" in statements[1]
    assert not connection.in_atomic_block and connection.connection.info.transaction_status == 0  # IDLE: nothing left open
    match.refresh_from_db()
    assert match.seq == result.seq and fold_all(get_rules("tiny"), stored_log(match)) == match.state
    assert [j.name for j in MANUAL.jobs] == ["games.fire_timer"], "the commit's work ran, once"


def test_a_refused_action_leaves_no_transaction_open_and_the_row_unlocked() -> None:
    from django.db import connection

    _, match, _ = started_table(players=2)
    card = match.state["hands"][0][0]["id"]
    for _ in range(2):  # the rules refuse (seat 1 is not to move), then a repeated id, then a real move
        with pytest.raises(errors.PlatformError):
            action_submit(match_id=match.pk, seat=1, action={"kind": "play", "card": card}, action_id="no")
    first = action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="yes")
    again = action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="yes")
    assert again.duplicate and again.seq == first.seq
    if connection.vendor == "postgresql":
        assert connection.connection.info.transaction_status == 0
        with connection.cursor() as cursor:  # no transaction holds a lock on the match table any more
            cursor.execute("SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'games_match' AND l.mode = 'RowShareLock'")
            assert cursor.fetchone()[0] == 0


def test_an_action_inside_a_transaction_is_part_of_it() -> None:
    """Inside an `atomic` (a zombie seat's bot holds the seat's lock) the action commits with it, or not at all."""
    _, match, _ = started_table(players=2)
    card = match.state["hands"][0][0]["id"]
    MANUAL.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="inner")
        assert MANUAL.jobs == [], "nothing follows before the outer commit"
        raise RuntimeError("the outer transaction fails")
    match.refresh_from_db()
    assert not ActionRecord.objects.filter(match=match).exists() and MANUAL.jobs == []
    action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="inner")
    assert ActionRecord.objects.filter(match=match, client_id="inner").count() == 1


def test_the_shape_check_is_one_function_for_sockets_and_services() -> None:
    """The socket calls `action_check` (with an id required); `action_submit` calls it too."""
    with pytest.raises(errors.PlatformError) as e:
        action_check(action={"kind": "play"}, action_id=None, id_required=True)
    assert e.value.code == "bad_message" and "`id`" in e.value.message
    action_check(action={"kind": "play"}, action_id=None)  # a timer's or a bot's may have none
    with pytest.raises(errors.PlatformError) as e:
        action_check(action={"kind": "play", "card": "\x00"}, action_id="x")
    assert e.value.code == "bad_message"
