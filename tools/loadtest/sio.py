"""A boardgame.io seat over socket.io, for the side-by-side benchmark (tools/loadtest/versus.py).

boardgame.io 0.50 talks socket.io v4 (Engine.IO protocol 4). Spoken here by
hand over the same `websockets` connection our own `TableSocket` uses, so
both servers are driven by the same client design (asyncio, one reader task,
arrival time stamped when a frame is read) and no second client library
enters the comparison. What is spoken:

- Engine.IO: `0{json}` open, `2` ping → `3` pong (answered at once, as the
  platform's client answers `ping`), `4<socket.io packet>` messages;
- socket.io: `0/flip,` connect the game's namespace, `2/flip,[event, ...]`
  events: `sync` (matchID, playerID, credentials, numPlayers) in, `sync`
  and `update` (matchID, state) out, `update` (action, stateID, matchID,
  playerID) in.

A seat's version is the state's `_stateID`: the move has reached a seat
when its `_stateID` passed the one the move was sent against.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed

from tools.loadtest.client import shut, wait_until


@dataclass
class BgioSeat:
    """One player's socket.io connection to a boardgame.io match."""

    port: int
    game: str
    match_id: str
    player_id: str
    credentials: str
    num_players: int
    state: dict[str, Any] | None = None
    state_id: int = -1
    times: dict[int, float] = field(default_factory=dict)  # _stateID -> when it arrived
    pings: int = 0

    def __post_init__(self) -> None:
        self.changed = asyncio.Condition()
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None

    async def connect(self, timeout: float = 20) -> BgioSeat:
        url = f"ws://127.0.0.1:{self.port}/socket.io/?EIO=4&transport=websocket"
        self.ws = await websockets.connect(url, open_timeout=timeout, max_size=2**22, compression=None)
        opened = await asyncio.wait_for(self.ws.recv(), timeout)
        if not str(opened).startswith("0"):
            raise RuntimeError(f"not an Engine.IO open packet: {opened!r}")
        await self.ws.send(f"40/{self.game},")
        joined = await asyncio.wait_for(self.ws.recv(), timeout)  # events sent before this answer are dropped
        if not str(joined).startswith(f"40/{self.game},"):
            raise RuntimeError(f"namespace /{self.game} refused: {joined!r}")
        self.reader = asyncio.create_task(self._read())
        await self.emit("sync", self.match_id, self.player_id, self.credentials, self.num_players)
        if not await self.wait_for(lambda s: s.state is not None, timeout):
            raise TimeoutError(f"seat {self.player_id}: no sync answer")
        return self

    async def close(self) -> None:
        await shut(self.ws, self.reader)

    async def emit(self, event: str, *args: Any) -> None:
        await self.ws.send(f"42/{self.game}," + json.dumps([event, *args], separators=(",", ":")))

    async def _read(self) -> None:
        prefix = f"42/{self.game},"
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                at = time.perf_counter()
                text = raw if isinstance(raw, str) else raw.decode()
                if text == "2":
                    self.pings += 1
                    await self.ws.send("3")
                    continue
                if not text.startswith(prefix):
                    continue  # namespace connect answer, acks of nothing
                event, *args = json.loads(text[len(prefix):])
                if event == "sync":
                    self._state(args[1]["state"], at)
                elif event == "update":
                    self._state(args[1], at)
                async with self.changed:
                    self.changed.notify_all()

    def _state(self, state: dict[str, Any], at: float) -> None:
        self.state = state
        self.state_id = int(state["_stateID"])
        self.times[self.state_id] = at
        if len(self.times) > 200:
            self.times = {k: v for k, v in self.times.items() if k > self.state_id - 100}

    @property
    def to_move(self) -> bool:
        return self.state is not None and self.state["ctx"]["currentPlayer"] == self.player_id

    async def move(self, name: str, *args: Any) -> int:
        """Send a move against the state this seat holds; returns that state's id."""
        before = self.state_id
        action = {"type": "MAKE_MOVE", "payload": {"type": name, "args": list(args), "playerID": self.player_id, "credentials": self.credentials}}
        await self.emit("update", action, before, self.match_id, self.player_id)
        return before

    async def wait_for(self, predicate: Any, timeout: float) -> bool:
        return await wait_until(self.changed, lambda: predicate(self), timeout)

    async def wait_past(self, state_id: int, timeout: float) -> float | None:
        """When this seat first held a state after `state_id` (waiting for it), or None after `timeout`."""
        if not await self.wait_for(lambda s: s.state_id > state_id, timeout):
            return None
        return min(t for sid, t in self.times.items() if sid > state_id)
