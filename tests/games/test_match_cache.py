"""The fast path (games/services/match_cache.py): one message per action when this process committed the last one,
and never a wrong answer when the match changed behind the cache's back. PostgreSQL only, as the path is."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import errors
from games.engine import fold_all
from games.kit.registry import get_rules
from games.models import ActionRecord, Match, MatchEvent, Seat
from games.services import match_cache
from games.services.actions import SubmitResult, action_submit
from tests.games.factories import started_table

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the fast path is for an action that is a transaction of its own
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the fast path is PostgreSQL's (run through .ci/run)"),
]


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    match_cache.clear()
    yield
    match_cache.clear()


def play(match_id: int, action_id: str, seat: int | None = None) -> tuple[SubmitResult, list[str]]:
    """`seat` (default: the turn holder, by the row) plays its first card; returns the result and the SQL sent."""
    state = Match.objects.get(pk=match_id).state
    seat = state["turn"] if seat is None else seat
    action = {"kind": "play", "card": state["hands"][seat][0]["id"]}
    with CaptureQueriesContext(connection) as sent:
        result = action_submit(match_id=match_id, seat=seat, action=action, action_id=action_id)
    return result, [q["sql"] for q in sent.captured_queries]


def assert_log_folds_to_state(match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    log = [e.as_event() for e in MatchEvent.objects.filter(match_id=match_id).order_by("seq")]
    assert [e.seq for e in MatchEvent.objects.filter(match_id=match_id).order_by("seq")] == list(range(1, match.seq + 1))
    assert fold_all(get_rules(match.game), log) == match.state


def started() -> Match:
    _, match, _ = started_table(players=3, options={"hand": 8})  # the tiny test game: 24 plays to the end, no races
    return match


def test_the_second_action_goes_in_one_message_and_lands_as_the_locked_path_would() -> None:
    match = started()
    first, sql = play(match.pk, "a1")
    assert any("FOR UPDATE OF m" in q for q in sql), "the first action of this process reads the row under its lock"
    second, sql = play(match.pk, "a2")
    assert len(sql) == 1 and sql[0].startswith("BEGIN; WITH locked AS") and sql[0].endswith("COMMIT"), sql
    assert second.seq == first.seq + len(second.events) and second.events
    stored = Match.objects.get(pk=match.pk)
    assert stored.seq == second.seq and stored.state == second.state
    assert ActionRecord.objects.filter(match=match, client_id="a2").get().seq == second.seq
    assert_log_folds_to_state(match.pk)
    third, sql = play(match.pk, "a3")
    assert len(sql) == 1 and third.seq > second.seq


def test_a_match_changed_behind_the_cache_is_decided_again_under_the_lock() -> None:
    match = started()
    play(match.pk, "a1")
    row = Match.objects.get(pk=match.pk)
    # Someone else moves the turn on (as another process would): same seq, another state.
    nxt = (row.state["turn"] + 1) % 3
    Match.objects.filter(pk=match.pk).update(state={**row.state, "turn": nxt})
    result, sql = play(match.pk, "a2", seat=nxt)  # refused on the cache (not this seat's turn there), legal on the row
    assert not any("WITH locked AS" in q for q in sql), "a refusal on the cache is not even sent"
    assert any("FOR UPDATE OF m" in q for q in sql), "decided again under the lock"
    assert result.events and result.events[0]["seat"] == nxt


def test_a_commit_by_another_path_makes_the_guard_refuse_and_nothing_of_the_attempt_stays() -> None:
    match = started()
    play(match.pk, "a1")
    entry = match_cache.get(match.pk)
    assert entry is not None
    other, _ = play(match.pk, "elsewhere")
    match_cache.put(entry)  # as if that commit happened in another process: this one still holds the older state
    assert match_cache.get(match.pk).seq == other.seq, "a newer entry is never replaced by an older one"
    match_cache.clear()
    match_cache.put(entry)
    with CaptureQueriesContext(connection) as sent:  # a slap is anyone's at any time: legal on the cache too
        result = action_submit(match_id=match.pk, seat=0, action={"kind": "slap"}, action_id="a2")
    sql = [q["sql"] for q in sent.captured_queries]
    assert sql[0].startswith("BEGIN; WITH locked AS"), "tried the fast path first"
    assert any("FOR UPDATE OF m" in q for q in sql), "then the locked path"
    assert result.seq == other.seq + len(result.events)
    assert_log_folds_to_state(match.pk)
    assert match_cache.get(match.pk) is None, "a contended match skips the fast path for a while"


def test_a_resent_action_id_is_answered_as_the_first_time_and_applied_once() -> None:
    match = started()
    play(match.pk, "a1")
    second, _ = play(match.pk, "a2")
    seat = second.events[0]["seat"]
    again, _ = play(match.pk, "a2", seat=seat)
    assert again.duplicate and again.seq == second.seq
    assert MatchEvent.objects.filter(match=match).count() == Match.objects.get(pk=match.pk).seq
    assert ActionRecord.objects.filter(match=match, client_id="a2").count() == 1


def test_a_withdrawn_seat_is_refused_with_a_warm_cache() -> None:
    match = started()
    play(match.pk, "a1")
    turn = Match.objects.get(pk=match.pk).state["turn"]
    assert match_cache.get(match.pk) is not None
    Seat.objects.filter(table_id=match.table_id, seat=turn).update(withdrawn=True)
    with pytest.raises(errors.PlatformError) as refused:
        play(match.pk, "a2", seat=turn)
    assert refused.value.code == "withdrawn"
    assert_log_folds_to_state(match.pk)


def test_a_state_changed_at_the_same_seq_is_caught_by_the_guard() -> None:
    match = started()
    play(match.pk, "a1")
    row = Match.objects.get(pk=match.pk)
    changed = {**row.state, "centre": []}  # the seq stays: only the whole state tells
    Match.objects.filter(pk=match.pk).update(state=changed)
    with CaptureQueriesContext(connection) as sent:
        result = action_submit(match_id=match.pk, seat=0, action={"kind": "slap"}, action_id="a2")
    sql = [q["sql"] for q in sent.captured_queries]
    assert sql[0].startswith("BEGIN; WITH locked AS") and any("FOR UPDATE OF m" in q for q in sql[1:])
    rules = get_rules("tiny")
    expected = changed
    for e in result.events:
        expected = rules.fold(expected, e)
    assert Match.objects.get(pk=match.pk).state == expected, "decided on the row's state, not the cached one"


def smack_next(match: Match) -> int:
    """Arrange the deal so the turn holder's next flip shows a Smack it! card (the log says the same); the turn."""
    from games.smackit.rules import DECK

    state = Match.objects.get(pk=match.pk).state
    turn = state["turn"]
    smack = next(c for c in range(len(DECK)) if DECK[c]["face"] == "smack")
    owner = next(s for s, pile in enumerate(state["piles"]) if smack in pile)
    i = state["piles"][owner].index(smack)  # the turn holder's top card swaps places with a Smack it! card
    state["piles"][owner][i], state["piles"][turn][0] = state["piles"][turn][0], smack
    Match.objects.filter(pk=match.pk).update(state=state)
    dealt = MatchEvent.objects.get(match=match, kind="dealt")  # the log says the same deal, so it still folds to the row
    piles = dealt.data["piles"]
    piles[owner][i], piles[turn][0] = piles[turn][0], piles[owner][i]
    dealt.save(update_fields=["data"])
    return turn


def test_a_race_claim_goes_in_one_message_timed_as_on_the_locked_path() -> None:
    _, match, _ = started_table(players=3, game="smackit", options={"auto_flip_seconds": 60})
    turn = smack_next(match)
    action_submit(match_id=match.pk, seat=turn, action={"kind": "flip"}, action_id="f1")  # locked: now cached
    claimer = (turn + 1) % 3
    time.sleep(0.06)  # more than its 40 ms round trip after the flip: a reaction to the card, not a smack judged before it [D19]
    with CaptureQueriesContext(connection) as sent:
        result = action_submit(
            match_id=match.pk, seat=claimer, action={"kind": "smack"}, action_id="s1", rtt_ms=40, received_at=None
        )
    sql = [q["sql"] for q in sent.captured_queries]
    assert not any("FOR UPDATE OF m" in q for q in sql), "a race claim no longer takes the locked path"
    assert sum(q.startswith("BEGIN; WITH locked AS") for q in sql) == 1, sql
    assert len(sql) == 2, "the seats' round trips (race_timing's one read), then the one message"
    claimed = next(e for e in result.events if e["kind"] == "race_claimed")
    claim = claimed["data"]["claim"]
    assert claim["seat"] == claimer and claim["judged_ms"] == claim["arrival_ms"] - 40, "judged at arrival minus its round trip"
    assert claimed["data"]["comp_ms"][claimer] == 40 and sum(claimed["data"]["comp_ms"]) == 40
    assert Match.objects.get(pk=match.pk).state == result.state
    assert_log_folds_to_state(match.pk)
