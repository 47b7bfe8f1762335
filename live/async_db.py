"""PostgreSQL connections on the web process's event loop, for the action fast path only.

Why: every other database call of a socket is Django's ORM in a thread
(`database_sync_to_async`): the hop there and back, the worker thread waiting
for the GIL behind the event loop, and Django's cursor cost 0.4 ms of an
action's 0.8 ms round trip on this machine (docs/performance.md). The fast
path (games/services/match_cache.py) is one hand-written message whose statements and
parameters are plain text and numbers: here it is sent by psycopg's async
driver straight from the event loop that received the frame.

Shape and guarantees:

- **The same SQL, bound the same way.** `AsyncClientCursor` binds parameters
  on the client as Django's psycopg backend does, so the message is the one
  the thread path sends (several statements, one round trip), in autocommit
  mode, its own `BEGIN ... COMMIT`. The commit is durable (the server's
  `synchronous_commit`) before `execute` returns.
- **A connection is handed back only idle.** Whatever happened to the
  message (a refused guard, a unique key, a cut connection), `connection()`
  rolls back a connection left in a transaction, and closes one it cannot
  roll back or that is broken: the next action never inherits a half-open
  transaction.
- **One small pool per event loop.** A daphne process has one loop for its
  life; tests run a loop per test, and `close_all` (the test teardown)
  finishes connections of loops that have ended, so the test database can
  be dropped. At most `DB_ASYNC_POOL_SIZE` connections per loop; more actions
  in flight wait for one (FIFO), as the thread path waits for its pool.
- **PostgreSQL only.** `enabled()` is false on SQLite: the embedded default has
  no fast path (a property of the backend, not a setting).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import weakref
from collections.abc import AsyncIterator
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections
from psycopg import pq

log = logging.getLogger(__name__)


def enabled() -> bool:
    return _default()["ENGINE"].endswith("postgresql")


def _default() -> dict[str, Any]:
    """Django's settings of the default database: the dict its connections share (tests point NAME at the
    test database in it). Read here rather than through `connections["default"]`, a per-thread lookup."""
    return connections.settings["default"]


@functools.lru_cache(maxsize=8)
def _conninfo(name: str, user: str, password: str, host: str, port: str) -> str:
    params = {"dbname": name, "user": user, "password": password, "host": host, "port": port}
    # Named, so an operator tells them from Django's in pg_stat_activity; a dead server fails fast.
    return psycopg.conninfo.make_conninfo(
        **{k: v for k, v in params.items() if v}, application_name="cardtables-action-loop", connect_timeout=10
    )


class _Pool:
    def __init__(self, conninfo: str, size: int) -> None:
        self.conninfo = conninfo
        self.size = size
        self.idle: list[psycopg.AsyncConnection] = []
        self.slots = asyncio.Semaphore(size)
        self.every: weakref.WeakSet[psycopg.AsyncConnection] = weakref.WeakSet()

    async def take(self) -> psycopg.AsyncConnection:
        while self.idle:
            conn = self.idle.pop()
            if not conn.closed and conn.info.transaction_status == pq.TransactionStatus.IDLE:
                return conn
            _finish(conn)
        conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True, cursor_factory=psycopg.AsyncClientCursor)
        self.every.add(conn)
        return conn

    async def give_back(self, conn: psycopg.AsyncConnection) -> None:
        status = conn.info.transaction_status
        if not conn.closed and status in (pq.TransactionStatus.INTRANS, pq.TransactionStatus.INERROR):
            try:
                await conn.execute("ROLLBACK")
                status = conn.info.transaction_status
            except Exception:  # noqa: BLE001 - a broken connection: closed below, PostgreSQL rolls back
                log.warning("ROLLBACK of an async action connection failed", exc_info=True)
        if conn.closed or status != pq.TransactionStatus.IDLE:
            _finish(conn)
            return
        self.idle.append(conn)


def _finish(conn: psycopg.AsyncConnection) -> None:
    """Close without awaiting (libpq's PQfinish): usable when the loop that opened it is gone."""
    with contextlib.suppress(Exception):
        conn.pgconn.finish()


_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Pool] = weakref.WeakKeyDictionary()
_all: list[_Pool] = []  # for close_all, whatever became of their loops


def _pool() -> _Pool:
    loop = asyncio.get_running_loop()
    conf = _default()
    conninfo = _conninfo(conf["NAME"], conf.get("USER", ""), conf.get("PASSWORD", ""), conf.get("HOST", ""), str(conf.get("PORT") or ""))
    pool = _pools.get(loop)
    if pool is None or pool.conninfo != conninfo:
        pool = _Pool(conninfo, int(settings.DB_ASYNC_POOL_SIZE))
        _pools[loop] = pool
        _all.append(pool)
    return pool


@contextlib.asynccontextmanager
async def connection() -> AsyncIterator[psycopg.AsyncConnection]:
    """An idle autocommit connection of this loop's pool, handed back idle (or closed) afterwards."""
    pool = _pool()
    async with pool.slots:
        conn = await pool.take()
        try:
            yield conn
        finally:
            await pool.give_back(conn)


def stats() -> dict[str, int] | None:
    """This process's loop pools in sum, for /metrics (ops/pools.py): open, idle, the limit; None before the first."""
    pools = list(_pools.values())
    if not pools:
        return None
    return {"size": sum(len(p.every) for p in pools), "idle": sum(len(p.idle) for p in pools), "max": sum(p.size for p in pools)}


def close_all() -> None:
    """Finish every connection of every pool (a test's teardown, before the test database is dropped)."""
    while _all:
        pool = _all.pop()
        for conn in list(pool.every):
            _finish(conn)
        pool.idle.clear()
    _pools.clear()
