"""This web process's heartbeat: the lease that makes its sockets count as connected.

Presence is one `TableConnection` row per open socket, and such a row counts
only while the process holding it beats: one `WebProcess` row, refreshed every
PRESENCE_HEARTBEAT_SECONDS by one asyncio task of the process. That is one write
per process and interval, however many sockets it holds (a write per socket
would be a write per player every few seconds). A process that dies, hangs or
loses its database stops beating, and after PRESENCE_LEASE_SECONDS its players
are away by themselves; nothing has to run in the dead process.

The task starts lazily with the first socket the process opens (the first beat
is awaited, so the row exists before that socket's row counts) and stops with
the last. The process also keeps its open sockets here: a beat that finds its
rows differ from them (the sweeper took the process for dead during a stall, a
close could not be written) writes back the truth (the domain's `web_process_beat`).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import os
import socket
import uuid
from typing import Protocol

from django.conf import settings
from django.utils import timezone

from live.loop import database_sync_to_async

log = logging.getLogger(__name__)

PROCESS_ID = uuid.uuid4()
NAME = f"{socket.gethostname()}:{os.getpid()}"


class ProcessBeat(Protocol):
    """The domain's write of one beat (games: `services.web_process_beat`); returns the connection rows put right."""

    def __call__(
        self, *, process_id: uuid.UUID, name: str, sockets: dict[str, tuple[int, int]], taken_at: datetime.datetime
    ) -> int: ...


_beat_write: ProcessBeat | None = None


def beat_with(write: ProcessBeat) -> None:
    """Where a beat is written (live.bus.serve, at app ready): presence rows are the domain's."""
    global _beat_write
    _beat_write = write

_sockets: dict[str, tuple[int, int]] = {}  # channel name -> (table id, user id) of this process's open sockets
_task: asyncio.Task[None] | None = None


async def opened(channel_name: str, table_id: int, user_id: int) -> None:
    """Remember an open socket of a signed-in user, and make sure this process beats."""
    _sockets[channel_name] = (table_id, user_id)
    await _ensure_running()


def closed(channel_name: str) -> None:
    """Forget a socket; with the last one the beating stops (the row simply goes stale)."""
    global _task
    _sockets.pop(channel_name, None)
    if not _sockets and _task is not None:
        _task.cancel()
        _task = None


async def beat() -> int:
    """Refresh this process's lease now; returns how many connection rows it put right."""
    write = _beat_write
    assert write is not None, "the domain serves the beat at app ready (live.bus.serve)"
    taken_at = timezone.now()
    return await database_sync_to_async(write)(
        process_id=PROCESS_ID, name=NAME, sockets=dict(_sockets), taken_at=taken_at
    )


async def _ensure_running() -> None:
    global _task
    loop = asyncio.get_running_loop()
    if _task is not None and not _task.done() and _task.get_loop() is loop:
        return
    _task = loop.create_task(_run(), name="presence-heartbeat")
    try:
        await beat()
    except Exception:  # noqa: BLE001 - the socket works without presence; the task retries
        log.warning("presence heartbeat of %s failed", NAME, exc_info=True)


async def _run() -> None:
    while True:
        await asyncio.sleep(settings.PRESENCE_HEARTBEAT_SECONDS)
        try:
            await beat()
        except Exception:  # noqa: BLE001 - a database away for a while: the next beat tries again
            log.warning("presence heartbeat of %s failed", NAME, exc_info=True)


def reset() -> None:
    """Tests: forget the sockets and the task of an earlier test's event loop."""
    global _task
    task, _task = _task, None
    _sockets.clear()
    if task is not None and not task.done() and not task.get_loop().is_closed():
        task.cancel()
