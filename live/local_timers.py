"""Timers a table socket's action arms, held by the web process that committed it (asyncio), not by Celery.

Why: Smack It! re-arms its idle timer on every flip, and a race claim arms its
settlement. Each one went to Celery: a broker publish in daphne per action (13 %
of its CPU at one busy table, docs/performance.md), and a worker task at the
due time, nearly always for a timer a later action had made stale, and a
worker sharing the web process's cores. The process holding a table's sockets
is where that table's next action comes from anyway; here the timer is a
`loop.call_at` on its event loop and costs nothing until it is due.

Guarantees, the same as Celery's path gave:

- **Durable first.** A timer exists as its `PendingTimer` row, written in the
  transaction of the action that armed it; only after that commit is it held
  here (`services.action_notify`). If this process dies, beat's sweeper
  (`games.sweep_timers`, every 5 s) fires the overdue row, as it does for a
  task a killed worker took with it.
- **Never early.** A timer fires once the wall clock passes its due time
  (`started_at + due_ms`): fired early, the rules would answer "not yet" and
  the timer would be spent (`services.timer_fire` marks a no-op fired).
- **Once.** Firing is `services.timer_fire`, the Celery task's own path: a
  timer fired here and by the sweeper, or again after a restart, applies once
  (the action id `timer:<id>`; a no-op only marks the row fired).
- **The chain stays here.** The timers armed by a timer's own action (the next
  idle timer after an automatic flip) are held here too.
- **A stale timer costs a share of one statement.** Nearly every held timer is
  stale when due (a later flip re-armed the idle timer). When the state this
  process last committed for the match (games/services/match_cache.py, at or after the
  arming commit) shows it stale (`services.timer_stale_cached`), no database
  thread fires it: its row is marked fired from the event loop, with the other
  stale timers of the next DISMISS_GAP_S, in one statement that marks a row
  only while its match still holds that seq (`action_sql.timers_fired_async`):
  `timer_fire`'s own answer on the latest state. A timer whose match moved on
  meanwhile (this process's next action, mostly) is checked again on the newer
  cached state and waits for the next batch, or after DISMISS_TRIES batches is
  fired the ordinary way; one whose mark failed stays unfired for the sweeper,
  which fires it as the no-op it is.

- **A replaced timer costs nothing.** A timer the rules superseded for good when
  they armed the next (engine.timer_event's `replaces`: Smack It!'s idle timer,
  re-armed on every flip) has its row marked fired in the commit that replaced
  it, and its wait here is cancelled (`drop`): no stale check, no statement.

- **A finished match's timers cost nothing.** Once this process committed a
  match's end (`match_cache.end`), its held timers are dropped when due: firing
  one would only answer `match_over`, the sweeper never fires a row of a match
  that is over and the pruner deletes it. A short Smack It! match ends with ten
  seconds of idle timers held (one per flip): in `versus` they were fired in
  database threads one by one, half of daphne's CPU (docs/performance.md).

Only a table socket's actions (and the timers they chain) are held here: a
match started over REST, a bot's move and everything a Celery worker commits
schedule their timers on Celery as before (`live.scheduling`). With a test's
queue standing in for Celery a held timer is also put on it, so a test
running the queue on its virtual clock still sees every timer (the second to
fire is the duplicate `timer:<id>` and applies nothing).

Live knows nothing of matches: the domain answers for its timers through the
`TimerOwner` it serves at app ready (games/services/held_timers.py).
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import datetime
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from django.utils import timezone

from live import scheduling
from live.loop import database_sync_to_async, server_loop

log = logging.getLogger(__name__)

EARLY_GUARD_S = 0.0005  # asyncio may wake a little before the deadline; the wall-clock check re-arms for the rest

DISMISS_GAP_S = 0.1  # stale timers due within this long are marked fired in one statement
DISMISS_TRIES = 3  # a stale timer whose match keeps moving on is fired on the row after this many batches

_firing: set[asyncio.Task[None]] = set()  # timers being fired, kept from the garbage collector
_stale: list[_Stale] = []  # stale timers waiting to be marked fired
_held: dict[tuple[int, str], asyncio.TimerHandle] = {}  # (match, timer) → its wait, until due or dropped
_marker: asyncio.Task[None] | None = None  # the task that marks the next batch


class TimerOwner(Protocol):
    """What the domain answers about its timers (games/services/held_timers.py, served at app ready by live.bus.serve).

    Live holds a timer and calls back at its due time; what a timer means, whether
    it is stale, and how it is fired stay the domain's.
    """

    def has_ended(self, match_id: int) -> bool:
        """This process committed the match's end: its timers are dropped when due."""
        ...

    def stale_at(self, *, match_id: int, timer_id: str, armed_seq: int) -> int | None:
        """On the event loop, from this process's cache: the seq that shows the timer stale, or None (fire it)."""
        ...

    async def mark_fired(self, timers: list[tuple[int, str, int]]) -> set[tuple[int, str]]:
        """Mark stale timers `(match, timer, seq)` fired in one statement; those it marked."""
        ...

    def fire(self, *, match_id: int, timer_id: str) -> None:
        """Fire a due timer, in a database thread; its own refusals are answered (logged) there."""
        ...


_owner: TimerOwner | None = None


def held_for(owner: TimerOwner) -> None:
    """Who answers for held timers (live.bus.serve, at app ready)."""
    global _owner
    _owner = owner


def _the_owner() -> TimerOwner:
    assert _owner is not None, "the domain serves its timers at app ready (live.bus.serve)"
    return _owner


def can_hold() -> bool:
    """Whether a timer armed now would be held here: in a web process (its event loop or one of its threads)."""
    return server_loop() is not None


def also_scheduled() -> bool:
    """Whether a held timer goes to the scheduler as well: a test's queue standing in for Celery."""
    return scheduling.replaced()


def hold(*, match_id: int, timer_id: str, due_at: datetime.datetime, armed_seq: int) -> None:
    """Fire `timer_id` of `match_id` (armed by the commit of `armed_seq`) from this process's event loop at `due_at`.

    Called from a database thread or the event loop itself, after that commit.
    """
    loop = server_loop()
    assert loop is not None, "hold only where can_hold()"
    _soon(loop, _arm, loop, match_id, timer_id, due_at, armed_seq)


def drop(*, match_id: int, timer_id: str) -> None:
    """Let go of a held timer a commit made dead for good (engine.timer_event's `replaces`).

    That commit marked its row fired, so nothing is left to do at its due time: the wait
    is cancelled instead of ending in a stale check and a statement. Called after the
    commit, from the event loop or a database thread; a timer not held here is left alone
    (wherever it fires, its rules answer nothing and its row is already marked).
    """
    loop = server_loop()
    if loop is not None:
        _soon(loop, _drop, (match_id, timer_id))


def _soon(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: object) -> None:
    """`callback(*args)` in a coming turn of `loop`: from the loop itself without waking it through its pipe.

    A fresh context: a database thread's says it runs inside asgiref's sync thread, and a
    task started from it would take the firing's own hop to that thread for a deadlock.
    """
    try:
        here = asyncio.get_running_loop() is loop
    except RuntimeError:
        here = False
    if here:
        loop.call_soon(callback, *args, context=contextvars.Context())
    else:
        loop.call_soon_threadsafe(callback, *args, context=contextvars.Context())


def _drop(key: tuple[int, str]) -> None:
    handle = _held.pop(key, None)
    if handle is not None:
        handle.cancel()


def _arm(loop: asyncio.AbstractEventLoop, match_id: int, timer_id: str, due_at: datetime.datetime, armed_seq: int) -> None:
    key = (match_id, timer_id)
    wait_s = (due_at - timezone.now()).total_seconds()
    if wait_s > 0:
        _held[key] = loop.call_later(wait_s + EARLY_GUARD_S, _arm, loop, match_id, timer_id, due_at, armed_seq)
        return
    _held.pop(key, None)
    owner = _the_owner()
    if owner.has_ended(match_id):
        return  # this process committed the match's end: firing would only answer match_over (match_cache.end)
    stale_at = owner.stale_at(match_id=match_id, timer_id=timer_id, armed_seq=armed_seq)
    if stale_at is not None:
        _dismiss(loop, _Stale(match_id, timer_id, stale_at, armed_seq))
        return
    _start_fire(loop, match_id, timer_id)


def _start_fire(loop: asyncio.AbstractEventLoop, match_id: int, timer_id: str) -> None:
    task = loop.create_task(_fire(match_id, timer_id), name=f"timer {match_id}/{timer_id}")
    _firing.add(task)
    task.add_done_callback(_firing.discard)


async def _fire(match_id: int, timer_id: str) -> None:
    owner = _the_owner()
    try:
        await database_sync_to_async(owner.fire)(match_id=match_id, timer_id=timer_id)
    except Exception:  # noqa: BLE001 - its PendingTimer row stays unfired: beat's sweeper fires it
        log.warning("timer %s of match %s not fired here", timer_id, match_id, exc_info=True)


@dataclass(frozen=True)
class _Stale:
    match_id: int
    timer_id: str
    seq: int  # the cached state's that shows it stale
    armed_seq: int
    tries: int = 0


def _dismiss(loop: asyncio.AbstractEventLoop, stale: _Stale) -> None:
    """Queue a stale timer's row to be marked fired; the first of a batch starts the task that marks them."""
    global _marker
    _stale.append(stale)
    if _marker is None or _marker.done():
        _marker = loop.create_task(_mark_stale(loop), name="stale timers")


async def _mark_stale(loop: asyncio.AbstractEventLoop) -> None:
    global _marker
    await asyncio.sleep(DISMISS_GAP_S)
    batch = _stale[:]
    del _stale[:]
    _marker = None  # what is dismissed from here on goes in the next batch, with a task of its own
    owner = _the_owner()
    try:
        marked = await owner.mark_fired([(x.match_id, x.timer_id, x.seq) for x in batch])
    except Exception:  # noqa: BLE001 - unfired stale rows are fired by the sweeper, as the no-ops they are
        log.warning("%d stale timers not marked fired here", len(batch), exc_info=True)
        return
    for x in batch:
        if (x.match_id, x.timer_id) in marked or owner.has_ended(x.match_id):
            continue
        # The match moved on since (this process's own next action, mostly): stale on the newer
        # cached state too, it waits for the next batch; otherwise, or after a few tries, the row decides.
        again = owner.stale_at(match_id=x.match_id, timer_id=x.timer_id, armed_seq=x.armed_seq)
        if again is not None and again > x.seq and x.tries < DISMISS_TRIES:
            _dismiss(loop, dataclasses.replace(x, seq=again, tries=x.tries + 1))
        else:
            _start_fire(loop, x.match_id, x.timer_id)
