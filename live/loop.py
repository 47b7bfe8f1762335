"""The server's event loop and the database threads its sockets use: where live code runs.

Every database call of a socket, a held timer or a throttled table message goes
through `database_sync_to_async`: on PostgreSQL the default thread pool, not
Channels' one shared thread, so sockets of different tables wait on the
database side by side (each call is self-contained; a socket's own messages are
still handled one at a time; the match row lock orders seqs). SQLite writes one
at a time anyway, so it keeps the one thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync
from django.conf import settings

database_sync_to_async = functools.partial(
    DatabaseSyncToAsync, thread_sensitive=settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
)


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop of the ASGI server, called on it (the event loop's fast path) or from one
    of its sync threads; else None (a worker, a command, a synchronous test)."""
    with contextlib.suppress(RuntimeError):
        return asyncio.get_running_loop()
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() and not loop.is_closed() else None
