"""Timers: firing a due one (a no-op only marked fired), its stale check on this process's cache, pruning."""

from __future__ import annotations

import datetime
import logging
from typing import Any

import orjson
from django.utils import timezone

from games.engine import RuleError
from games.kit.registry import get_rules
from games.models import (
    Match,
    PendingTimer,
)
from games.services import match_cache
from games.services.actions import LazyRandom, SubmitResult, action_submit

log = logging.getLogger(__name__)


def timer_stale_cached(*, match_id: int, timer_id: str, armed_seq: int) -> int | None:
    """The seq of the state this process last committed for the match if it shows this due timer stale, else None.

    Smack It! re-arms its idle timer on every flip, so nearly every held timer is stale
    when due, and `timer_fire` spent a database thread, an ORM read of the whole row and an
    ORM update on each (19 % of a busy daphne's GIL time, docs/performance.md). The cached
    entry is a committed state at or after the timer's arming commit (`armed_seq`; entries
    are only replaced by higher seqs), decided on as `timer_fire` decides on the row. The
    caller marks the timer fired only while the row still holds that seq
    (`action_sql.timers_fired_async`), so the answer is `timer_fire`'s on the latest
    committed state: a timer the rules ignore only for now (Smack It!'s idle timer while a
    race is judged) is never marked on an older state. No entry, an older one, events or a
    refusal: None, and the caller fires it the ordinary way. Pure on the cache: no I/O.
    """
    entry = match_cache.get(match_id)
    if entry is None or entry.seq < armed_seq:
        return None
    stale = _timer_is_no_op(entry.game, orjson.loads(entry.state_json), timer_id, entry.started_at, entry.last_t_ms)
    return entry.seq if stale else None


def _timer_is_no_op(game: str, state: Any, timer_id: str, started_at: datetime.datetime, last_t_ms: int) -> bool:
    """Whether the rules answer this timer, due now, with no events on `state` (a refusal is not a no-op)."""
    elapsed = int((timezone.now() - started_at).total_seconds() * 1000)
    try:
        events = get_rules(game).decide(state, None, {"kind": "timer", "id": timer_id}, max(elapsed, last_t_ms), LazyRandom(0))
    except RuleError:
        return False
    return events == []


def timer_fire(*, match_id: int, timer_id: str, hold_timers: bool = False) -> SubmitResult | None:
    """Fire a due timer: through the locked action path when the rules would do something, else only mark it fired.

    Most timers a match arms are superseded before they are due (Smack It! re-arms its idle
    timer on every flip; a race's Celery backstop arrives after the fast path settled it).
    Each used to take the match row's lock only for the rules to answer "nothing": at a busy
    table as many locking transactions as actions, 10 s late, queued behind the players' own
    (the tail of the flip benchmark, docs/performance.md). The rules' answer for a timer on
    the latest committed state, read without the lock, is final when it is no events: a timer
    id becomes live only through the commit that arms it, which is already in that state and
    publishes its own firing, and later commits only make an armed timer stale. So a no-op
    is recorded as fired without the lock; anything else (events, a refusal, a missing or
    finished match) goes the ordinary way and is decided again under the lock.
    """
    row = Match.objects.filter(pk=match_id).values("game", "state", "status", "started_at", "last_t_ms").first()
    if row is not None and row["status"] == Match.Status.LIVE and row["state"] is not None:
        if _timer_is_no_op(row["game"], row["state"], timer_id, row["started_at"], row["last_t_ms"]):
            PendingTimer.objects.filter(match_id=match_id, timer_id=timer_id, fired=False).update(fired=True)
            return None
    return action_submit(
        match_id=match_id, seat=None, action={"kind": "timer", "id": timer_id}, action_id=f"timer:{timer_id}"[:64],
        hold_timers=hold_timers,
    )


TIMER_PRUNE_BATCH = 10_000


def timers_prune(*, batch: int = TIMER_PRUNE_BATCH, max_batches: int = 20) -> int:
    """Delete the timer rows nothing needs any more: fired ones, and every one of a match that is over.

    A row exists so that a timer is durable before anything holds it (the sweeper fires an
    unfired, overdue row of a live match). Once fired, or once its match is over, nothing
    reads it: firing again is idempotent without it (the action id `timer:<id>`, and the
    rules answer a stale timer with nothing). Kept, they grew by one row per Smack It! flip
    (docs/capacity.md). Unfired rows of live matches are never touched. In batches, so one
    run never holds a long lock; returns how many rows went.
    """
    gone = 0
    for _ in range(max_batches):
        done = PendingTimer.objects.filter(fired=True) | PendingTimer.objects.exclude(match__status=Match.Status.LIVE)
        ids = list(done.values_list("pk", flat=True)[:batch])
        if not ids:
            break
        gone += PendingTimer.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            break
    return gone
