"""The state this process last committed for each match it acts on: an action in one round trip, not two.

Why: the locked path (`action_sql.match_lock`, then the writes and the COMMIT)
costs two round trips to PostgreSQL and decodes the whole state from the row
on every action, though the process that committed the previous action of a
match already holds that state. With it here, `services.action_submit`
decides on the cached state first and sends everything in one message
(`action_sql.fast_commit`): the row lock, a guard, the writes and the COMMIT.

Guarantees (the same as the locked path's):

- **Validated by the database, under the row lock.** The guard's UPDATE
  matches the row only if its `seq` and its whole `state` (jsonb equality with
  the exact text this process wrote) are still what the decision was made on,
  the match is live and the acting seat's player was not withdrawn. Otherwise
  it raises on purpose (a division by zero) and PostgreSQL skips everything
  after it in the message: nothing is written, the transaction is rolled back
  and the action is decided again on the locked path. A match changed by
  anyone else (another web process, a worker's bot or timer, an admin, a test)
  is caught the same way: the cache is never believed, only checked.
- **Never a wrong refusal.** A refusal decided on the cache is not answered:
  the locked path decides it again on the row.
- **Only what the fast path can write.** An action that ends the match or
  crosses a snapshot boundary, and system actions, take the locked path. A
  race claim is timed as there (`services.race_timing`, one read of the
  seats' round trips, which no lock guards on either path) and decided on the
  cached state: the guard makes that the state it commits on.
- **Nothing shared.** Entries are JSON text, decoded for each use: no decision
  can alter what another one reads. One lock guards the dict; an entry is only
  replaced by a higher seq of the same match.

A match whose fast attempt failed (another process commits there too: a
worker's bots) skips the fast path for CONTENDED_S, so it pays the wasted round
trip rarely. A table socket's action takes the fast path on its event loop
(`services.action_submit_cached`, live/async_db.py: no thread hop); the
other callers in a database thread (`_submit_cached`); both share the plan
(`games.services.actions._fast_plan`) and the message. The embedded default (SQLite) has no fast path.
"""

from __future__ import annotations

import datetime
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from django.db import connection

LIMIT = 4_096  # matches remembered per process, the least recently used going first: a state is a few KB, so at most some 25 MB
CONTENDED_S = 5.0
ENDED_LIMIT = 65_536  # matches remembered as over (a few MB): a forgotten one only costs its timers the ordinary firing


@dataclass(frozen=True)
class Cached:
    """A match as this process committed it last; immutable, JSON text only."""

    match_id: int
    seq: int
    state_json: str  # exactly the text written to the row (the guard compares it)
    last_t_ms: int
    started_at: datetime.datetime
    game: str
    table_id: int | None
    bots_play: bool
    seats: int  # a race claim's timing lists every seat


_entries: OrderedDict[int, Cached] = OrderedDict()
_contended: dict[int, float] = {}
_ended: OrderedDict[int, None] = OrderedDict()
_lock = threading.Lock()


def enabled() -> bool:
    return connection.vendor == "postgresql"


def get(match_id: int) -> Cached | None:
    """The entry to try the fast path with, or None (none, or the match is contended now)."""
    with _lock:
        until = _contended.get(match_id)
        if until is not None:
            if time.monotonic() < until:
                return None
            del _contended[match_id]
        entry = _entries.get(match_id)
        if entry is not None:
            _entries.move_to_end(match_id)
        return entry


def put(entry: Cached) -> None:
    """Remember a commit (kept only if it is the newest this process knows of the match)."""
    with _lock:
        known = _entries.get(entry.match_id)
        if known is not None and known.seq > entry.seq:
            return
        _entries[entry.match_id] = entry
        _entries.move_to_end(entry.match_id)
        while len(_entries) > LIMIT:
            _entries.popitem(last=False)


def contended(match_id: int) -> None:
    """The fast path failed for this match: forget it and use the locked path for a while."""
    with _lock:
        _entries.pop(match_id, None)
        _contended[match_id] = time.monotonic() + CONTENDED_S
        if len(_contended) > LIMIT:
            now = time.monotonic()
            for key in [k for k, until in _contended.items() if until <= now]:
                del _contended[key]


def drop(match_id: int) -> None:
    with _lock:
        _entries.pop(match_id, None)


def end(match_id: int) -> None:
    """This process committed the match's end: forget its state, remember that it is over.

    A match never comes back to life, so "over" is final. The timers it still has held here
    (live/local_timers.py) need nothing done when due: `services.timer_fire` would answer
    only `match_over`, the sweeper never fires a finished match's row, and the pruner deletes
    it. Many are: each Smack It! flip arms a 10 s idle timer, so a short match ends with ten
    seconds of them still held.
    """
    with _lock:
        _entries.pop(match_id, None)
        _ended[match_id] = None
        _ended.move_to_end(match_id)
        while len(_ended) > ENDED_LIMIT:
            _ended.popitem(last=False)


def has_ended(match_id: int) -> bool:
    """Whether this process committed the end of the match (the most recent ENDED_LIMIT ends)."""
    with _lock:
        return match_id in _ended


def clear() -> None:
    with _lock:
        _entries.clear()
        _contended.clear()
        _ended.clear()
