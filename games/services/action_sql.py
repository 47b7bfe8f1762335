"""The statements of `services.action_submit`, written out by hand.

The action path is the platform's hot path: every move of every player goes
through it, and a speed game's players feel every millisecond. Built by the
ORM it took eight statements and about 1.5 ms of query compilation per
action; here it takes two round trips inside the transaction (read and lock;
write everything) whatever the action produced. docs/performance.md has
the before and after.

Portable SQL for PostgreSQL and SQLite alike. The differences are kept here:
`FOR UPDATE` (SQLite's IMMEDIATE transactions already hold the write lock),
and several statements in one `execute` (psycopg's client-side binding sends
them in one round trip; sqlite3 takes one at a time, which costs nothing
in-process). Only `services.action_submit` calls these, inside its
`ActionTransaction`.

**Two round trips per action on PostgreSQL.** Django's `atomic` costs four:
psycopg sends `BEGIN` on its own before the locking read, and `COMMIT` on its
own after the writes. When the action is a transaction of its own (autocommit,
no surrounding `atomic`: the socket's, the timer's and a bot seat's actions),
`ActionTransaction` opens and ends it by hand instead: `BEGIN; SELECT … FOR
UPDATE` in one message, the writes and `COMMIT` in the next. The guarantees
are Django's: the row lock is held from the read to the commit; the commit is
durable (`synchronous_commit` on) before `execute` returns, so before any
acknowledgement; an error anywhere (a refusal, a statement that fails, a
connection cut at the read, the writes or the commit) ends in `ROLLBACK` (or
a closed connection, which PostgreSQL rolls back) and nothing of the action
stays; the `on_commit` work runs only after a successful commit, once, and
its failure does not undo the action (Django's `robust=True`). Inside an
`atomic` (a bot's move on a zombie seat holds that seat's lock; tests), or on
SQLite, it is Django's `atomic` and `on_commit`, as before.

**One message when this process committed the match's last action** (the fast
path, `fast_commit`, with games/services/match_cache.py): `BEGIN`, a guard that locks
the row and updates it only if it still holds the cached seq and state, the
writes and `COMMIT`. A guard that finds the match changed raises on purpose,
PostgreSQL skips the rest of the message, and `services.action_submit` decides
the action again on the locked path above. Same guarantees: the lock is held
from the guard to the commit, the commit is durable before the call returns,
and nothing of a refused or failed attempt stays. A table socket sends that
message from its event loop (`fast_commit_async`, on live/async_db.py's
connections, the same text, its values written in by `_bound`); the other callers
through Django's connection (`fast_commit`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import psycopg
from django.db import DatabaseError, connection, transaction

from games.models import Match
from live import wire

log = logging.getLogger(__name__)


class ActionTransaction:
    """One action's transaction: by hand in two round trips on PostgreSQL when it stands alone, else `atomic`."""

    def __init__(self) -> None:
        self.by_hand = connection.vendor == "postgresql" and connection.get_autocommit() and not connection.in_atomic_block
        self.open = False  # BEGIN sent, no COMMIT yet
        self._hooks: list[Callable[[], None]] = []
        self._atomic: Any = None

    def __enter__(self) -> ActionTransaction:
        if not self.by_hand:
            self._atomic = transaction.atomic()
            self._atomic.__enter__()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> bool | None:
        if not self.by_hand:
            return self._atomic.__exit__(kind, error, tb)
        if self.open:  # refused, a duplicate, or a failure: nothing of it stays
            self.open = False
            try:
                with connection.cursor() as cursor:
                    cursor.execute("ROLLBACK")
            except Exception:  # noqa: BLE001 - a broken connection: closed after the call, PostgreSQL rolls back
                log.warning("ROLLBACK of an action failed", exc_info=True)
            return None
        if kind is None:
            for hook in self._hooks:
                try:
                    hook()
                except Exception:  # noqa: BLE001 - the action is committed (as Django's robust on_commit)
                    log.exception("after the commit of an action")
        return None

    def on_commit(self, hook: Callable[[], None]) -> None:
        """Run `hook` once the action is committed (never after a rollback)."""
        if self.by_hand:
            self._hooks.append(hook)
        else:
            transaction.on_commit(hook, robust=True)

_LOCK = """
SELECT m.*,
       (SELECT a.seq FROM games_actionrecord a
         WHERE a.match_id = m.id AND a.client_id = %s AND a.seat {seat}) AS done_seq,
       EXISTS (SELECT 1 FROM games_seat s
                WHERE s.table_id = m.table_id AND (s.zombie OR s.bot_level <> '')) AS bots_play,
       EXISTS (SELECT 1 FROM games_seat w
                WHERE w.table_id = m.table_id AND w.seat {seat} AND w.withdrawn) AS withdrawn
  FROM games_match m
 WHERE m.id = %s
"""


def match_lock(*, tx: ActionTransaction, match_id: int, seat: int | None, action_id: str | None) -> Match:
    """The match row, locked, with `done_seq` (the seq an earlier action with this id
    committed, or None), `bots_play` (a bot or a zombie plays a seat now) and
    `withdrawn` (the acting seat's player was withdrawn; false for the system).

    By hand (`tx.by_hand`) the same message opens the transaction. Raises Match.DoesNotExist.
    """
    sql = _LOCK.format(seat="IS NULL" if seat is None else "= %s")  # `= NULL` matches nothing; the index wants `=`
    sql += " FOR UPDATE OF m" if connection.vendor == "postgresql" else ""
    params = [action_id, match_id] if seat is None else [action_id, seat, seat, match_id]
    if tx.by_hand:
        match = _begin_and_lock(tx, sql, params)
    else:
        rows = list(Match.objects.raw(sql, params))
        match = rows[0] if rows else None
    if match is None:
        raise Match.DoesNotExist
    match.bots_play = bool(match.bots_play)
    match.withdrawn = bool(match.withdrawn)
    return match


_EXTRA = ("done_seq", "bots_play", "withdrawn")


def _begin_and_lock(tx: ActionTransaction, sql: str, params: list[Any]) -> Match | None:
    """`BEGIN; <the locking read>` in one message; the row as a Match (fields converted as Django would)."""
    tx.open = True  # from here on a failure ends in ROLLBACK
    with connection.cursor() as cursor:
        cursor.execute("BEGIN; " + sql, params)
        cursor.nextset()
        names = [c.name for c in cursor.description]
        row = cursor.fetchone()
    if row is None:
        return None
    values = dict(zip(names, row, strict=True))
    fields = [f for f in Match._meta.concrete_fields]
    loaded = []
    for f in fields:
        value = values[f.column]
        if value is not None and hasattr(f, "from_db_value"):
            value = f.from_db_value(value, None, connection)
        loaded.append(value)
    match = Match.from_db(connection.alias, [f.attname for f in fields], loaded)
    for name in _EXTRA:
        setattr(match, name, values[name])
    return match


@dataclass
class Writes:
    """What one action writes, sent to the database together by `flush`."""

    statements: list[tuple[str, list[Any]]] = field(default_factory=list)

    def events(self, match_id: int, events: list[dict[str, Any]]) -> None:
        if not events:
            return
        rows = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * len(events))
        params: list[Any] = []
        for e in events:
            params += [match_id, e["seq"], e["t_ms"], e["kind"], e["seat"], _json(e["data"])]
        self.statements.append((f"INSERT INTO games_matchevent (match_id, seq, t_ms, kind, seat, data) VALUES {rows}", params))

    def timer_pending(self, match_id: int, timer_id: str, due_ms: int) -> None:
        self.statements.append((
            "INSERT INTO games_pendingtimer (match_id, timer_id, due_ms, fired) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (match_id, timer_id) DO UPDATE SET due_ms = excluded.due_ms, fired = excluded.fired",
            [match_id, timer_id, due_ms, False],
        ))

    def timer_fired(self, match_id: int, timer_id: str) -> None:
        self.statements.append(
            ("UPDATE games_pendingtimer SET fired = %s WHERE match_id = %s AND timer_id = %s", [True, match_id, timer_id])
        )

    def match(self, match: Match) -> str:
        """The match row's new state, seq, time and end; returns the state's JSON as written."""
        state = _json(match.state)
        self.statements.append((
            "UPDATE games_match SET state = %s, seq = %s, last_t_ms = %s, status = %s, outcome = %s, ended_at = %s WHERE id = %s",
            [state, match.seq, match.last_t_ms, match.status,
             None if match.outcome is None else _json(match.outcome),
             connection.ops.adapt_datetimefield_value(match.ended_at), match.pk],
        ))
        return state

    def action_record(self, match_id: int, seat: int | None, action_id: str, seq: int) -> None:
        self.statements.append((
            "INSERT INTO games_actionrecord (match_id, seat, client_id, seq) VALUES (%s, %s, %s, %s)",
            [match_id, seat, action_id, seq],
        ))

    def flush(self, tx: ActionTransaction | None = None) -> None:
        """Send the writes (by hand, `tx.by_hand`: with the COMMIT, in the same message)."""
        commit = tx is not None and tx.by_hand and tx.open
        if not self.statements and not commit:
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                statements = [sql for sql, _ in self.statements] + (["COMMIT"] if commit else [])
                cursor.execute("; ".join(statements), [p for _, ps in self.statements for p in ps])
            else:
                for sql, params in self.statements:
                    cursor.execute(sql, params)
        self.statements.clear()
        if commit:
            assert tx is not None
            tx.open = False


class ConflictError(Exception):
    """The fast path's guard found the match not as cached (or the action id already used): nothing was written."""


# The row lock and the guard of the fast path (games/services/match_cache.py): the row is locked and updated
# only if it still holds the cached seq and state (jsonb equality with the text this process wrote),
# is live, and the acting seat's player was not withdrawn. Otherwise `1 / 0` raises, and PostgreSQL
# skips every statement after it in the message: nothing is written. The second column is whether a
# bot or a zombie seat plays at the table now (as the locked read's `bots_play`).
_GUARD = """WITH locked AS (
  SELECT id FROM games_match WHERE id = %s AND seq = %s AND status = 'live' AND state = %s::jsonb FOR UPDATE
), m AS (
  UPDATE games_match SET state = %s, seq = %s, last_t_ms = %s FROM locked
   WHERE games_match.id = locked.id
     AND NOT EXISTS (SELECT 1 FROM games_seat w WHERE w.table_id = games_match.table_id AND w.seat = %s AND w.withdrawn)
  RETURNING EXISTS (SELECT 1 FROM games_seat s
                     WHERE s.table_id = games_match.table_id AND (s.zombie OR s.bot_level <> '')) AS bots_play
)
SELECT 1 / count(*), coalesce(bool_or(bots_play), false) FROM m"""


def _fast_message(
    *, match_id: int, cached_seq: int, cached_state: str, state: str, seq: int, last_t_ms: int, seat: int, writes: Writes,
) -> str:
    """The fast path's one message: BEGIN, the guarded update of the match row, `writes`, COMMIT, its values written in."""
    statements = [("BEGIN", []), (_GUARD, [match_id, cached_seq, cached_state, state, seq, last_t_ms, seat]),
                  *writes.statements, ("COMMIT", [])]
    return "; ".join(_bound(sql, params) for sql, params in statements)


def _bound(sql: str, params: list[Any]) -> str:
    """`sql` with each `%s` replaced by its value as an SQL literal.

    Why: psycopg's client-side binding, which sent this message before, looks up a dumper and
    quotes through libpq for each of the message's ~30 values, a twentieth of a busy web
    process's CPU per action; these are all whole numbers, booleans, NULLs and text.
    Text is quoted as PostgreSQL reads it with `standard_conforming_strings` on (the quote
    doubled, nothing else special), which `_plain_strings` checks on every connection the
    message is sent on; a NUL (which no text column can hold) or any other type is refused.
    """
    parts = sql.split("%s")
    assert len(parts) == len(params) + 1 and "%%" not in sql, "one value for each %s, and no other %"
    out = [parts[0]]
    for value, part in zip(params, parts[1:], strict=True):
        out.append(_literal(value))
        out.append(part)
    return "".join(out)


def _literal(value: Any) -> str:
    if value is None:
        return "NULL"
    kind = type(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    if kind is str:
        if "\x00" in value:
            raise ValueError("text with a NUL character cannot be stored")
        return "'" + value.replace("'", "''") + "'"
    raise TypeError(f"no SQL literal for a {kind.__name__}")


def _plain_strings(info: psycopg.ConnectionInfo) -> None:
    """The quoting of `_literal` holds only where a backslash in a string literal is a backslash."""
    if info.parameter_status("standard_conforming_strings") != "on":
        raise psycopg.NotSupportedError("the action path needs standard_conforming_strings = on")


def fast_commit(
    *, tx: ActionTransaction, match_id: int, cached_seq: int, cached_state: str, state: str, seq: int, last_t_ms: int,
    seat: int, writes: Writes,
) -> bool:
    """The fast path's message through Django's connection (a database thread); returns `bots_play`.

    Raises ConflictError (rolled back by `tx`) when the guard or a unique key (a used action id)
    refused: the caller decides again on the locked path. Any other failure propagates.
    """
    assert tx.by_hand and connection.vendor == "postgresql"
    sql = _fast_message(
        match_id=match_id, cached_seq=cached_seq, cached_state=cached_state, state=state, seq=seq, last_t_ms=last_t_ms,
        seat=seat, writes=writes,
    )
    tx.open = True  # from here on a failure ends in ROLLBACK
    try:
        with connection.cursor() as cursor:
            _plain_strings(connection.connection.info)
            cursor.execute(sql)
            cursor.nextset()
            row = cursor.fetchone()
    except DatabaseError as e:
        if isinstance(e.__cause__, psycopg.errors.DivisionByZero | psycopg.errors.UniqueViolation):
            raise ConflictError from None
        raise
    tx.open = False
    writes.statements.clear()
    return bool(row[1])


async def fast_commit_async(
    *, conn: psycopg.AsyncConnection, match_id: int, cached_seq: int, cached_state: str, state: str, seq: int,
    last_t_ms: int, seat: int, writes: Writes,
) -> bool:
    """The same message from the event loop (live/async_db.py), committed when it returns; returns `bots_play`.

    Raises ConflictError when the guard or a unique key refused (nothing was written; the
    connection goes back to its pool rolled back). Any other failure propagates.
    """
    sql = _fast_message(
        match_id=match_id, cached_seq=cached_seq, cached_state=cached_state, state=state, seq=seq, last_t_ms=last_t_ms,
        seat=seat, writes=writes,
    )
    _plain_strings(conn.info)
    try:
        async with conn.cursor() as cursor:
            await cursor.execute(sql)
            cursor.nextset()
            row = await cursor.fetchone()
    except (psycopg.errors.DivisionByZero, psycopg.errors.UniqueViolation):
        raise ConflictError from None
    writes.statements.clear()
    assert row is not None
    return bool(row[1])


async def timers_fired_async(*, conn: psycopg.AsyncConnection, timers: list[tuple[int, str, int]]) -> set[tuple[int, str]]:
    """Mark (match, timer) rows fired where the match row still holds the given seq; returns those marked.

    One autocommitted statement from the event loop (live/local_timers.py) for a batch of
    timers found stale on that seq's state: the match row not moved on means that state is
    the latest committed one, so marking is what `services.timer_fire` would do. A match the
    row moved on is left to the caller, which fires its timer the ordinary way.
    """
    if not timers:
        return set()
    rows = ", ".join(["(%s, %s, %s)"] * len(timers))
    async with conn.cursor() as cursor:
        await cursor.execute(
            "UPDATE games_pendingtimer t SET fired = true FROM (VALUES " + rows + ") AS due(match_id, timer_id, seq), games_match m"
            " WHERE t.match_id = due.match_id AND t.timer_id = due.timer_id AND NOT t.fired"
            " AND m.id = due.match_id AND m.seq = due.seq AND m.status = 'live'"
            " RETURNING t.match_id, t.timer_id",
            [x for timer in timers for x in timer],
        )
        return {(match_id, timer_id) for match_id, timer_id in await cursor.fetchall()}


def _json(value: Any) -> str:
    """JSON for a JSONField column (Django's own encoder writes the same document, with spaces)."""
    return wire.dumps(value)
