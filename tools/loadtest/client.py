"""WebSocket clients of a live table, shared by the load benchmark and the fault tests.

A `TableSocket` is one browser tab as PROTOCOL.md describes it: it keeps the
last seq it holds, its view and its redacted history, checks that seqs reach
it consecutively, remembers when each seq arrived (for latency), answers an
`act` with the matching `ack` or `error`, and (with `urls`) reconnects to the
next web process after a crash and asks `sync` for what it missed.

A `BotPlayer` decides moves for the seats of one table with the game's own
pure bot (`games.kit.registry.get_bot(slug).choose`) from what those sockets saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets
from websockets.exceptions import ConnectionClosed

from games.engine import BotContext
from games.kit.registry import get_bot

_ids = itertools.count(1)
SYNC_FROM_START_LIMIT = 500  # the consumer answers a longer sync with a hello


async def wait_until(changed: asyncio.Condition, holds: Callable[[], Any], timeout: float) -> bool:
    """Wait on `changed` (notified after every message) until `holds()`; False after `timeout`.

    Shared by the platform's socket and the boardgame.io seat of sio.py, which wait the same way.
    """
    async with changed:
        try:
            await asyncio.wait_for(changed.wait_for(holds), timeout)
            return True
        except TimeoutError:
            return bool(holds())


async def shut(ws: Any, reader: asyncio.Task[Any] | None) -> None:
    """Close a socket whatever state it is in, then wait out its reader task (both sockets of the load test)."""
    if ws is not None:
        with contextlib.suppress(Exception):
            await ws.close()
    if reader is not None:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader


class NoAnswerError(RuntimeError):
    """An action got no answer in time (the connection is gone or the server is stuck)."""


class ConnectionClosedError(RuntimeError):
    """The connection closed while an action waited for its answer."""


@dataclass
class Answer:
    """The server's answer to one `act`: an `ack` (applied) or an `error` (nothing applied)."""

    message: dict[str, Any]
    sent_at: float
    answered_at: float

    @property
    def ok(self) -> bool:
        return self.message.get("type") == "ack"

    @property
    def seq(self) -> int | None:
        return self.message.get("seq")

    @property
    def code(self) -> str | None:
        return self.message.get("code")


@dataclass
class TableSocket:
    """One client socket of `ws/tables/<id>/`; `urls` lists the web processes to fail over to."""

    urls: list[str]
    table_id: int
    token: str | None = None
    reconnect: bool = False
    name: str = ""
    seat: int | None = None
    match: int | None = None
    last: int = 0
    last_t_ms: int = 0
    last_at: float = 0.0
    view: dict[str, Any] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    times: dict[int, float] = field(default_factory=dict)
    keep_times: int = 4000
    full_history: bool = True  # on a new match, fetch its log from seq 1 with `sync`
    # Faults seen (all must stay 0 in a healthy run, except reconnects/resyncs in fault tests).
    gaps: int = 0  # an `events` message that did not start at last + 1 (outside a resync)
    regressions: int = 0  # a hello behind what this socket already held: committed events lost
    resets: int = 0  # a hello that forced a reset (sync too far behind)
    reconnects: int = 0
    resyncs: int = 0
    messages: int = 0
    pings: int = 0  # server pings answered with a pong
    errors_seen: list[dict[str, Any]] = field(default_factory=list)
    chats: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ws: Any = None
        self.url_index = 0
        self.pending: dict[str, asyncio.Future[Answer]] = {}
        self.sent_at: dict[str, float] = {}
        self.changed = asyncio.Condition()
        self.connected = asyncio.Event()
        self.hello_seen = asyncio.Event()
        self.awaiting_sync = False
        self.greeting = False  # the next hello greets a reconnection
        self.closing = False
        self.reader: asyncio.Task[None] | None = None
        self.may_reconnect = asyncio.Event()  # cleared by a test to keep this socket away for a while
        self.may_reconnect.set()

    # --- connection ------------------------------------------------------------

    def _url(self) -> str:
        base = self.urls[self.url_index % len(self.urls)]
        query = f"?token={self.token}" if self.token else ""
        return f"{base}/ws/tables/{self.table_id}/{query}"

    async def connect(self, timeout: float = 20) -> TableSocket:
        self.ws = await websockets.connect(self._url(), open_timeout=timeout, max_size=2**22, compression=None)
        self.connected.set()
        self.reader = asyncio.create_task(self._read())
        try:
            await asyncio.wait_for(self.hello_seen.wait(), timeout)
        except TimeoutError:
            await self.close()
            self.closing = False
            raise
        return self

    async def close(self) -> None:
        self.closing = True
        await shut(self.ws, self.reader)

    async def _read(self) -> None:
        while not self.closing:
            try:
                async for raw in self.ws:
                    self._handle(raw, time.perf_counter())
                    async with self.changed:
                        self.changed.notify_all()
            except ConnectionClosed:
                pass
            self.connected.clear()
            # Answers to what was in flight will never come on this connection: let `act` resend.
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(ConnectionClosedError(self.name))
            self.pending.clear()
            if self.closing or not self.reconnect:
                async with self.changed:
                    self.changed.notify_all()
                return
            await self._reconnect()

    async def _reconnect(self, deadline_s: float = 60) -> None:
        """Try the web processes in turn until one answers (a crashed one refuses at once)."""
        await self.may_reconnect.wait()
        stop = time.monotonic() + deadline_s
        delay = 0.05
        while not self.closing and time.monotonic() < stop:
            self.url_index += 1
            try:
                self.ws = await websockets.connect(self._url(), open_timeout=5, max_size=2**22, compression=None)
            except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.InvalidURI):
                await asyncio.sleep(delay)
                delay = min(1.0, delay * 2)
                continue
            self.reconnects += 1
            self.greeting = True
            self.connected.set()
            return
        raise NoAnswerError(f"{self.name}: no web process answered within {deadline_s} s")

    # --- messages --------------------------------------------------------------

    def _handle(self, raw: str | bytes, at: float) -> None:
        msg = orjson.loads(raw)  # stdlib json was 7 % of the client's samples at 1,000 sockets
        self.messages += 1
        kind = msg.get("type")
        if kind == "ping":
            # PROTOCOL "Fair races": answer at once, so the server holds this player's round trip.
            self.pings += 1
            asyncio.get_running_loop().create_task(self._send({"type": "pong", "n": msg.get("n")}))
        elif kind == "hello":
            self._hello(msg)
        elif kind == "events":
            self._events(msg, at)
        elif kind in ("ack", "error"):
            if kind == "error":
                self.errors_seen.append(msg)
            future = self.pending.pop(msg.get("id"), None) if isinstance(msg.get("id"), str) else None
            if future is not None and not future.done():
                future.set_result(Answer(msg, self.sent_at.pop(msg["id"], at), at))
        elif kind == "table":
            self.tables.append(msg["table"])
        elif kind == "chat":
            self.chats.append(msg["message"])

    def _hello(self, msg: dict[str, Any]) -> None:
        self.seat = msg.get("seat")
        match, seq = msg.get("match"), int(msg.get("seq") or 0)
        greeting, self.greeting = self.greeting, False
        if match is None or match != self.match or not self.hello_seen.is_set():
            self._reset(match, seq, msg)  # first hello, or a new match (rematch)
        elif seq < self.last:
            self.regressions += 1  # the server has fewer events than we were sent: committed work lost
            self._reset(match, seq, msg)
        elif greeting:
            # Reconnected: ask for what we missed, keeping our log consecutive.
            self.awaiting_sync = seq > self.last
            if self.awaiting_sync:
                self.resyncs += 1
                asyncio.get_running_loop().create_task(self._send({"type": "sync", "since": self.last}))
        elif seq != self.last:
            # A sync answered with a hello (too far behind): our log cannot be completed.
            self.resets += 1
            self.awaiting_sync = False
            self._reset(match, seq, msg)
        self.hello_seen.set()

    def _reset(self, match: int | None, seq: int, msg: dict[str, Any]) -> None:
        self.match, self.last, self.view = match, seq, msg.get("view")
        self.history = []
        self.times = {seq: time.perf_counter()}
        self.last_at = time.perf_counter()
        if self.full_history and match is not None and 0 < seq <= SYNC_FROM_START_LIMIT:
            # Bots read the match from its first event: ask for the log so far (redacted for us).
            self.last, self.awaiting_sync = 0, True
            asyncio.get_running_loop().create_task(self._send({"type": "sync", "since": 0}))

    @property
    def ready(self) -> bool:
        """Holding a match and its whole history (no sync outstanding)."""
        return self.match is not None and not self.awaiting_sync

    def _events(self, msg: dict[str, Any], at: float) -> None:
        events = msg["events"]
        if not events:
            if self.awaiting_sync and msg["seq"] == self.last:
                self.awaiting_sync = False
                self.view = msg.get("view") or self.view
            return
        first = events[0]["seq"]
        if first != self.last + 1:
            if not self.awaiting_sync:
                self.gaps += 1
                # The protocol's answer to a gap: ask again from what we hold.
                self.awaiting_sync = True
                self.resyncs += 1
                asyncio.get_running_loop().create_task(self._send({"type": "sync", "since": self.last}))
            return
        seqs = [e["seq"] for e in events]
        if seqs != list(range(first, first + len(seqs))) or msg["seq"] != seqs[-1]:
            self.gaps += 1
        self.awaiting_sync = False
        self.history.extend(events)
        for s in seqs:
            self.times[s] = at
        if len(self.times) > self.keep_times:
            for s in [s for s in self.times if s < self.last - self.keep_times // 2]:
                del self.times[s]
        self.last = seqs[-1]
        self.last_t_ms = events[-1].get("t_ms", self.last_t_ms)
        self.last_at = at
        if msg.get("view") is not None:
            self.view = msg["view"]

    async def _send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed, AttributeError):
            await self.ws.send(json.dumps(message, separators=(",", ":")))

    # --- API -------------------------------------------------------------------

    def now_ms(self) -> int:
        """Match time now, estimated from the last event's time and the time since it arrived."""
        return int(self.last_t_ms + (time.perf_counter() - self.last_at) * 1000)

    async def act(self, action: dict[str, Any], action_id: str | None = None, timeout: float = 10, retries: int = 0) -> Answer:
        """Send one action and wait for its answer; with `retries`, resend the same id after a lost connection."""
        action_id = action_id or f"{self.name or 'c'}-{next(_ids)}"
        for attempt in range(retries + 1):
            if self.reconnect:
                await asyncio.wait_for(self.connected.wait(), timeout)
            future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
            self.pending[action_id] = future
            self.sent_at[action_id] = time.perf_counter()
            try:
                await self.ws.send(json.dumps({"type": "act", "id": action_id, "action": action}, separators=(",", ":")))
                return await asyncio.wait_for(future, timeout)
            except (ConnectionClosed, ConnectionClosedError, TimeoutError):
                self.pending.pop(action_id, None)
                if attempt == retries:
                    raise NoAnswerError(f"{self.name}: no answer to {action_id}") from None
                await asyncio.sleep(0.2)
        raise NoAnswerError(action_id)

    async def send_raw(self, text: str | bytes) -> None:
        await self.ws.send(text)

    async def wait_for(self, predicate: Any, timeout: float) -> bool:
        """Wait until `predicate(self)` holds (checked after every message)."""
        return await wait_until(self.changed, lambda: predicate(self), timeout)

    async def wait_seq(self, seq: int, timeout: float) -> float | None:
        """The arrival time of `seq` on this socket (waiting for it), or None after `timeout`."""
        if self.last < seq:
            await self.wait_for(lambda s: s.last >= seq, timeout)
        return self.times.get(seq) if self.last >= seq else None

    @property
    def finished(self) -> bool:
        return bool(self.view and self.view.get("finished"))


async def connect_all(sockets: Iterable[TableSocket], timeout: float = 30, batch: int = 20, tries: int = 3) -> list[TableSocket]:
    """Connect in batches, retrying a refused handshake: a thousand at once would measure the accept queue."""

    async def one(s: TableSocket) -> TableSocket:
        for attempt in range(tries):
            try:
                return await s.connect(timeout)
            except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.InvalidMessage):
                if attempt == tries - 1:
                    raise
                await asyncio.sleep(0.5 * (attempt + 1))
        return s

    out: list[TableSocket] = []
    pending = list(sockets)
    for i in range(0, len(pending), batch):
        out.extend(await asyncio.gather(*(one(s) for s in pending[i : i + batch])))
    return out


@dataclass
class BotPlayer:
    """Chooses the next move of a table from its seated sockets, with the game's pure bot."""

    game: str
    sockets: list[TableSocket]
    level: str = "normal"
    seed: int = 0

    def __post_init__(self) -> None:
        self.bot = get_bot(self.game)
        self.rng = random.Random(self.seed)

    def next_move(self) -> tuple[TableSocket, dict[str, Any], int] | None:
        """The earliest move any seat's bot plans now: (socket, action, planned match ms)."""
        best: tuple[int, int, TableSocket, dict[str, Any]] | None = None
        for sock in self.sockets:
            if sock.seat is None or sock.view is None or sock.awaiting_sync or not sock.connected.is_set():
                continue
            ctx = BotContext(seat=sock.seat, level=self.level, view=sock.view, history=sock.history, now_ms=sock.now_ms())
            move = self.bot.choose(ctx, self.rng)
            if move is None:
                continue
            key = (move.at_ms, sock.seat)
            if best is None or key < best[:2]:
                best = (move.at_ms, sock.seat, sock, move.action)
        if best is None:
            return None
        return best[2], best[3], best[0]


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by the nearest-rank method; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 100))))
    return ordered[rank - 1]


@dataclass
class Ledger:
    """What a driven table was told: acknowledged actions (socket, id, seq) and refusals by code."""

    acked: list[tuple[TableSocket, str, int]] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    unanswered: int = 0


async def play(player: BotPlayer, ledger: Ledger, *, rate: float, timeout: float, stop: Any = None, retries: int = 3) -> bool:
    """Drive a table with its bots at `rate` actions/s until the match ends, `stop()` holds, or `timeout`.

    An action whose connection dropped is resent with the same id (idempotent)
    once its socket is back. True when the match finished.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if any(s.finished for s in player.sockets):
            return True
        if stop is not None and stop():
            return False
        await asyncio.sleep(1.0 / rate)
        move = player.next_move()
        if move is None:
            continue
        sock, action, _ = move
        if not sock.connected.is_set():
            continue
        try:
            answer = await sock.act(action, timeout=10, retries=retries)
        except NoAnswerError:
            ledger.unanswered += 1
            continue
        if answer.ok and answer.seq is not None:
            ledger.acked.append((sock, answer.message["id"], answer.seq))
        else:
            ledger.refused[answer.code or "?"] = ledger.refused.get(answer.code or "?", 0) + 1
    return any(s.finished for s in player.sockets)
