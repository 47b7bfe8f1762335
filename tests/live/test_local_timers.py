"""Held timers: a replaced one let go at its commit; one found stale on the cached state marked from the loop.

PostgreSQL only (the cache and the loop's connection are): a replaced idle timer is marked fired in
the commit that replaced it and its wait cancelled; a stale one (its row re-opened) is
marked in one statement and never reaches `timer_fire`; one
whose match moved on behind the cache is decided on the row instead; a live
one still fires through the ordinary path.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection, transaction
from django.utils import timezone

from games import tasks
from games.models import ActionRecord, Match, MatchEvent, PendingTimer
from games.services import held_timers, match_cache
from games.services.actions import action_submit
from games.services.timers import timer_fire, timer_stale_cached
from live import local_timers
from tests.games.factories import started_table
from tests.games.test_match_cache import _fresh_cache  # noqa: F401 - the autouse fixture
from tests.support.waiting import until

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the cache and the loop's connection are PostgreSQL's"),
]


def numbers_on_top(match_id: int, depth: int = 4) -> None:
    """Rearrange the deal so the next few flips show number cards (the log says the same, so it still folds to the row)."""
    from games.smackit.rules import DECK

    state = Match.objects.get(pk=match_id).state
    dealt = MatchEvent.objects.get(match_id=match_id, kind="dealt")
    def face(card: Any) -> str:  # the state holds card ids, the dealt event the cards
        return DECK[card if isinstance(card, int) else card["id"]]["face"]

    for piles in (state["piles"], dealt.data["piles"]):
        for pile in piles:
            numbers = [i for i, c in enumerate(pile) if face(c) == "number"]
            for top in range(min(depth, len(pile))):
                if face(pile[top]) != "number":
                    deeper = next(i for i in numbers if i >= depth)
                    pile[top], pile[deeper] = pile[deeper], pile[top]
                    numbers = [i for i in numbers if i != deeper]
    Match.objects.filter(pk=match_id).update(state=state)
    dealt.save(update_fields=["data"])


@database_sync_to_async
def two_flips() -> tuple[int, str, int, str, int]:
    """A Smack It! match after two flips (both cached): (match, the stale idle timer and the seq that armed it, the live one and its seq)."""
    _, match, _ = started_table(players=3, game="smackit", options={"auto_flip_seconds": 60})
    numbers_on_top(match.pk)
    armed: list[tuple[str, int]] = []
    for n in range(2):
        state = Match.objects.get(pk=match.pk).state
        result = action_submit(match_id=match.pk, seat=state["turn"], action={"kind": "flip"}, action_id=f"f{n}")
        armed.append((next(e["data"]["id"] for e in result.events if e["kind"] == "timer"), result.seq))
    (stale, stale_seq), (live, live_seq) = armed
    return match.pk, stale, stale_seq, live, live_seq


@database_sync_to_async
def reopened(match_id: int, timer_id: str) -> None:
    """The stale timer's row unfired again: a timer the rules made stale without saying so (a race settled by
    the next action; any timer armed without `replaces`), which only the stale check finds."""
    PendingTimer.objects.filter(match_id=match_id, timer_id=timer_id).update(fired=False)


async def test_a_replaced_idle_timer_is_marked_fired_in_its_commit_and_let_go_here(fired_on_the_row: list[str]) -> None:
    match_id, stale, _, live, live_seq = await two_flips()
    assert await fired(match_id, stale), "the next flip's idle timer replaced it: marked fired in that commit"
    assert not await fired(match_id, live)
    local_timers.hold(match_id=match_id, timer_id=live, due_at=timezone.now() + dt.timedelta(seconds=60), armed_seq=live_seq)
    assert await until(lambda: (match_id, live) in local_timers._held), "held here, waiting for its due time"

    @database_sync_to_async
    def flip_held() -> str:  # a table socket's flip: its timers held by this process
        state = Match.objects.get(pk=match_id).state
        result = action_submit(
            match_id=match_id, seat=state["turn"], action={"kind": "flip"}, action_id="held", hold_timers=True
        )
        return next(e["data"]["id"] for e in result.events if e["kind"] == "timer")

    following = await flip_held()
    assert await fired(match_id, live), "replaced: marked in the flip's own commit"
    assert await until(lambda: (match_id, live) not in local_timers._held), "and its wait let go"
    assert (match_id, following) in local_timers._held, "the new idle timer is held in its place"
    assert not await fired(match_id, following)
    assert fired_on_the_row == [], "nothing fired through a database thread"


@database_sync_to_async
def fired(match_id: int, timer_id: str) -> bool:
    return PendingTimer.objects.get(match_id=match_id, timer_id=timer_id).fired


@database_sync_to_async
def seq_of(match_id: int) -> int:
    return Match.objects.get(pk=match_id).seq


def due_now() -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=1)


@pytest.fixture
def fired_on_the_row(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The timers that went through `timer_fire` (a database thread, the row read)."""
    calls: list[str] = []
    real = timer_fire

    def recorded(**kw: Any) -> Any:
        calls.append(kw["timer_id"])
        return real(**kw)

    for caller in (held_timers, tasks):  # every place that calls it by name: a held timer, the Celery task
        monkeypatch.setattr(caller, "timer_fire", recorded)
    return calls


async def test_a_superseded_held_timer_is_marked_fired_from_the_loop(fired_on_the_row: list[str]) -> None:
    match_id, stale, stale_seq, _, _ = await two_flips()
    await reopened(match_id, stale)
    seq = await seq_of(match_id)
    local_timers.hold(match_id=match_id, timer_id=stale, due_at=due_now(), armed_seq=stale_seq)
    assert await until(lambda: fired(match_id, stale)), "the stale timer's row is marked fired"
    assert fired_on_the_row == [], "no database thread, no read of the row"
    assert await seq_of(match_id) == seq, "nothing applied"
    assert not await database_sync_to_async(ActionRecord.objects.filter(match_id=match_id, client_id=f"timer:{stale}").exists)()


async def test_a_stale_timer_of_a_match_that_moved_on_behind_the_cache_is_decided_on_the_row(
    fired_on_the_row: list[str],
) -> None:
    match_id, stale, stale_seq, _, _ = await two_flips()
    await reopened(match_id, stale)
    behind = match_cache.get(match_id)
    assert behind is not None

    @database_sync_to_async
    def flip_elsewhere() -> None:  # as another process would: the row moves on, this cache does not
        state = Match.objects.get(pk=match_id).state
        action_submit(match_id=match_id, seat=state["turn"], action={"kind": "flip"}, action_id="elsewhere")

    await flip_elsewhere()
    match_cache.drop(match_id)
    match_cache.put(behind)
    assert timer_stale_cached(match_id=match_id, timer_id=stale, armed_seq=stale_seq) == behind.seq
    local_timers.hold(match_id=match_id, timer_id=stale, due_at=due_now(), armed_seq=stale_seq)
    assert await until(lambda: fired(match_id, stale))
    assert fired_on_the_row == [stale], "the row moved past the cached seq: timer_fire decided it"


async def test_a_stale_timer_whose_match_this_process_moves_on_meanwhile_waits_for_the_next_batch(
    fired_on_the_row: list[str],
) -> None:
    match_id, stale, stale_seq, _, _ = await two_flips()
    await reopened(match_id, stale)

    @database_sync_to_async
    def flip_here() -> int:  # this process's own next action, between the dismissal and its batch: the cache moves too
        state = Match.objects.get(pk=match_id).state
        return action_submit(match_id=match_id, seat=state["turn"], action={"kind": "flip"}, action_id="here").seq

    local_timers.hold(match_id=match_id, timer_id=stale, due_at=due_now(), armed_seq=stale_seq)
    await asyncio.sleep(0)  # the hold arms on the next turn of the loop, before the batch goes
    moved = await flip_here()
    assert match_cache.get(match_id).seq == moved  # type: ignore[union-attr]
    assert await until(lambda: fired(match_id, stale))
    assert fired_on_the_row == [], "checked again on the newer cached state and marked in the next batch"


async def test_a_live_held_timer_still_fires_through_the_ordinary_path(fired_on_the_row: list[str]) -> None:
    match_id, _, _, live, live_seq = await two_flips()
    seq = await seq_of(match_id)
    assert timer_stale_cached(match_id=match_id, timer_id=live, armed_seq=live_seq) is None
    local_timers.hold(match_id=match_id, timer_id=live, due_at=due_now(), armed_seq=live_seq)
    assert await until(lambda: fired(match_id, live))
    assert fired_on_the_row == [live]
    assert await seq_of(match_id) > seq, "the idle player's card was flipped for them"


async def test_a_cache_older_than_the_arming_commit_is_not_believed() -> None:
    match_id, _, _, live, live_seq = await two_flips()
    assert timer_stale_cached(match_id=match_id, timer_id="flip:999", armed_seq=live_seq) == live_seq
    assert timer_stale_cached(match_id=match_id, timer_id="flip:999", armed_seq=live_seq + 1) is None
    match_cache.drop(match_id)
    assert timer_stale_cached(match_id=match_id, timer_id=live, armed_seq=live_seq) is None


@database_sync_to_async
def tiny_match(*, end_here: bool) -> int:
    """A one-card Tiny match, ended by its only move here (this process commits the end) or behind this process's back."""
    _, match, _ = started_table(players=2, game="tiny", options={"hand": 1})
    if end_here:
        card = Match.objects.get(pk=match.pk).state["hands"][0][0]["id"]
        action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="last")
    else:  # as another process would end it: this one never hears of it
        Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED, ended_at=timezone.now())
    assert Match.objects.get(pk=match.pk).status != Match.Status.LIVE
    return match.pk


async def test_a_held_timer_of_a_match_this_process_ended_is_dropped(fired_on_the_row: list[str]) -> None:
    ended_here = await tiny_match(end_here=True)
    ended_elsewhere = await tiny_match(end_here=False)
    assert match_cache.has_ended(ended_here) and not match_cache.has_ended(ended_elsewhere)
    for match_id in (ended_here, ended_elsewhere):
        local_timers.hold(match_id=match_id, timer_id="turn-1", due_at=due_now(), armed_seq=1)
    assert await until(lambda: database_sync_to_async(lambda: bool(fired_on_the_row))())
    await asyncio.sleep(local_timers.DISMISS_GAP_S * 3)
    assert fired_on_the_row == ["turn-1"], "only the match this process did not see end went to the row"
    assert not await fired(ended_here, "turn-1"), "nothing written for a finished match's timer: the pruner deletes the row"


async def test_an_end_is_remembered_only_once_committed() -> None:
    @database_sync_to_async
    def end_then_roll_back() -> int:
        with pytest.raises(RuntimeError), transaction.atomic():
            _, match, _ = started_table(players=2, game="tiny", options={"hand": 1})
            card = Match.objects.get(pk=match.pk).state["hands"][0][0]["id"]
            action_submit(match_id=match.pk, seat=0, action={"kind": "play", "card": card}, action_id="last")
            assert not match_cache.has_ended(match.pk), "not before the commit"
            raise RuntimeError("rolled back")
        return match.pk

    assert not match_cache.has_ended(await end_then_roll_back()), "a rolled-back end is no end"
