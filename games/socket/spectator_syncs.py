"""Spectators' `sync` answered from memory, coalesced, behind the players (docs/security.md "Limits").

Why: forty spectator sockets each sending `sync` within their own rate limit made the web
process read the match's log and the state from the database hundreds of times a second,
on the same database threads and the same event loop as the players' actions: the players'
action -> ack p50 went from 7 to 126 ms. A spectator's answer is the same for every spectator
(no seat: the public redaction), so this process keeps, per match a spectator has synced, the
public events of its last SYNC_LIMIT seqs and the state they lead to:

- fed by the group messages this process hands its sockets anyway (`note`, called before a
  socket sends the events, so the entry is never behind a socket of this process that has them);
- read from the database only when missing or behind, one load at a time per match (single
  flight) and one at a time for the whole process (`_LOADS`), so spectators never hold more than
  one database thread;
- answered by one low-priority worker per event loop: each socket's pending syncs collapse into
  its latest one, and the worker yields to the loop between answers, so at most one spectator
  answer stands in front of a player's frame. A socket is answered at most once per
  SPECTATOR_SYNC_GAP_S: syncs it sends meanwhile are answered together by one answer to the
  latest (a spectator syncs after a reconnect or a gap, not many times a second). The encoded
  answer of a `since` is kept for its seq: a flood of identical syncs is encoded once.

What a spectator sees is exactly what the database path sends it (`selectors.redact_for` with no
seat, `rules.view(state, None)`); a blind watcher (games.deals) never comes here.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Protocol

from games import selectors
from games.kit.registry import get_rules
from games.models import Match
from live import wire
from live.loop import database_sync_to_async

log = logging.getLogger(__name__)

SYNC_LIMIT = 500  # as the consumer's: a longer sync is answered with a hello
MAX_MATCHES = 256  # entries kept per process (least recently synced dropped)
SPECTATOR_SYNC_GAP_S = 1.0  # a spectator socket's syncs are answered at most this often


@dataclass
class Entry:
    game: str
    seq: int
    state: Any
    events: list[dict[str, Any]]  # public events, consecutive, ending at seq
    view: dict[str, Any] | None = None
    encoded: dict[int, str] = field(default_factory=dict)  # since -> the `events` frame for this seq

    @property
    def first(self) -> int:
        return self.events[0]["seq"] if self.events else self.seq + 1


_entries: OrderedDict[int, Entry] = OrderedDict()
_loading: dict[int, asyncio.Future[Entry | None]] = {}
_LOADS: dict[int, asyncio.Semaphore] = {}  # per event loop (tests run several)
answered = 0  # syncs answered here (a figure for tests)
loaded = 0  # database loads


def note(match_id: int, events: list[dict[str, Any]], state: Any) -> None:
    """Committed raw events of a match, as a socket of this process is about to send them: extend the entry."""
    entry = _entries.get(match_id)
    if entry is None or not events:
        return
    if events[-1]["seq"] <= entry.seq:
        return
    if events[0]["seq"] > entry.seq + 1:
        del _entries[match_id]  # a gap: the next sync loads it again
        return
    fresh = [e for e in events if e["seq"] > entry.seq]
    entry.events.extend(selectors.redact_for(get_rules(entry.game), fresh, None))
    del entry.events[: max(0, len(entry.events) - SYNC_LIMIT)]
    entry.seq, entry.state, entry.view = fresh[-1]["seq"], state, None
    entry.encoded.clear()


def _load_rows(match_id: int) -> Entry | None:
    match = Match.objects.filter(pk=match_id).only("seq", "state", "game").first()
    if match is None:
        return None
    events = selectors.events_between(match_id=match_id, after=max(0, match.seq - SYNC_LIMIT), upto=match.seq)
    return Entry(game=match.game, seq=match.seq, state=match.state, events=selectors.redact_for(get_rules(match.game), events, None))


async def _load(match_id: int) -> Entry | None:
    """The entry from the database: one load per match at a time, one for the whole process at a time."""
    global loaded
    pending = _loading.get(match_id)
    if pending is not None:
        return await asyncio.shield(pending)
    future: asyncio.Future[Entry | None] = asyncio.get_running_loop().create_future()
    _loading[match_id] = future
    try:
        loop_id = id(asyncio.get_running_loop())
        gate = _LOADS.setdefault(loop_id, asyncio.Semaphore(1))
        async with gate:
            entry = await database_sync_to_async(_load_rows)(match_id)
        loaded += 1
        if entry is not None:
            current = _entries.get(match_id)
            if current is None or current.seq < entry.seq:
                _entries[match_id] = entry
                while len(_entries) > MAX_MATCHES:
                    _entries.popitem(last=False)
            else:
                entry = current
        future.set_result(entry)
        return entry
    except BaseException as e:
        future.set_exception(e)
        future.exception()  # retrieved: a waiter re-raises it
        raise
    finally:
        _loading.pop(match_id, None)


class Spectator(Protocol):
    match_id: int | None
    last_seq: int
    session_gone: bool

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None: ...

    async def send_hello(self) -> None: ...


@dataclass
class _Queue:
    pending: dict[int, tuple[Spectator, int]] = field(default_factory=dict)  # id(socket) -> (socket, latest since)
    ready: list[int] = field(default_factory=list)  # sockets whose turn has come, in order
    waiting: set[int] = field(default_factory=set)  # sockets whose next answer is not due yet
    worker: asyncio.Task[None] | None = None


_queues: dict[int, _Queue] = {}


def ask(socket: Spectator, since: int) -> None:
    """Queue a spectator's `sync`. A socket is answered at most once per SPECTATOR_SYNC_GAP_S: its syncs
    meanwhile collapse into the latest one, answered when the gap has passed (one answer for all)."""
    loop = asyncio.get_running_loop()
    queue = _queues.setdefault(id(loop), _Queue())
    key = id(socket)
    already = key in queue.pending
    queue.pending[key] = (socket, since)
    if already:
        return
    due = getattr(socket, "spectator_sync_due", 0.0)
    if due <= loop.time():
        _ready(loop, queue, key)
        return
    queue.waiting.add(key)
    loop.call_at(due, _ready, loop, queue, key)


def _ready(loop: asyncio.AbstractEventLoop, queue: _Queue, key: int) -> None:
    queue.waiting.discard(key)
    queue.ready.append(key)
    if queue.worker is None or queue.worker.done():
        queue.worker = loop.create_task(_work(queue), name="spectator-syncs")


async def _work(queue: _Queue) -> None:
    loop = asyncio.get_running_loop()
    while queue.ready:
        pending = queue.pending.pop(queue.ready.pop(0), None)
        if pending is None:
            continue
        socket, since = pending
        socket.spectator_sync_due = loop.time() + SPECTATOR_SYNC_GAP_S  # type: ignore[attr-defined]
        try:
            await answer(socket, since)
        except Exception:  # noqa: BLE001 - one spectator's answer lost; the others go on, it may sync again
            log.warning("a spectator's sync was not answered", exc_info=True)
        await asyncio.sleep(0)  # behind whatever the players sent meanwhile


async def answer(socket: Spectator, since: int) -> None:
    """The answer the database path would give: events after `since` and the view, or a hello when too far."""
    global answered
    match_id = socket.match_id
    if match_id is None or socket.session_gone:
        return
    entry = _entries.get(match_id)
    if entry is not None:
        _entries.move_to_end(match_id)
    if entry is None or entry.seq < since or entry.seq < socket.last_seq:
        entry = await _load(match_id)
        if entry is None or socket.match_id != match_id:
            return
    if since > entry.seq or since < entry.first - 1:
        await socket.send_hello()  # ahead of the log or more than SYNC_LIMIT behind: as the database path does
        return
    text = entry.encoded.get(since)
    if text is None:
        if entry.view is None:
            entry.view = get_rules(entry.game).view(entry.state, None)
        events = entry.events[since - entry.first + 1 :]
        text = wire.dumps({"type": "events", "events": events, "seq": entry.seq, "view": entry.view})
        if len(entry.encoded) > 32:
            entry.encoded.clear()
        entry.encoded[since] = text
    socket.last_seq = entry.seq
    answered += 1
    await socket.send(text_data=text)
