"""The statements of `services.action_submit`, written out by hand.

The action path is the platform's hot path: every move of every player goes
through it, and a speed game's players feel every millisecond. Built by the
ORM it took eight statements and about 1.5 ms of query compilation per
action; here it takes two round trips inside the transaction (read and lock;
write everything) whatever the action produced. README "Performance" has
the before and after.

Portable SQL for PostgreSQL and SQLite alike. The differences are kept here:
`FOR UPDATE` (SQLite's IMMEDIATE transactions already hold the write lock),
and several statements in one `execute` (psycopg's client-side binding sends
them in one round trip; sqlite3 takes one at a time, which costs nothing
in-process). Only `services.action_submit` calls these, inside its
transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from games.models import Match

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


def match_lock(*, match_id: int, seat: int | None, action_id: str | None) -> Match:
    """The match row, locked, with `done_seq` (the seq an earlier action with this id
    committed, or None), `bots_play` (a bot or a zombie plays a seat now) and
    `withdrawn` (the acting seat's player was withdrawn; false for the system).

    Raises Match.DoesNotExist.
    """
    sql = _LOCK.format(seat="IS NULL" if seat is None else "= %s")  # `= NULL` matches nothing; the index wants `=`
    sql += " FOR UPDATE OF m" if connection.vendor == "postgresql" else ""
    params = [action_id, match_id] if seat is None else [action_id, seat, seat, match_id]
    rows = list(Match.objects.raw(sql, params))
    if not rows:
        raise Match.DoesNotExist
    match = rows[0]
    match.bots_play = bool(match.bots_play)
    match.withdrawn = bool(match.withdrawn)
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

    def match(self, match: Match) -> None:
        self.statements.append((
            "UPDATE games_match SET state = %s, seq = %s, last_t_ms = %s, status = %s, outcome = %s, ended_at = %s WHERE id = %s",
            [_json(match.state), match.seq, match.last_t_ms, match.status,
             None if match.outcome is None else _json(match.outcome),
             connection.ops.adapt_datetimefield_value(match.ended_at), match.pk],
        ))

    def action_record(self, match_id: int, seat: int | None, action_id: str, seq: int) -> None:
        self.statements.append((
            "INSERT INTO games_actionrecord (match_id, seat, client_id, seq) VALUES (%s, %s, %s, %s)",
            [match_id, seat, action_id, seq],
        ))

    def flush(self) -> None:
        if not self.statements:
            return
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("; ".join(sql for sql, _ in self.statements), [p for _, ps in self.statements for p in ps])
            else:
                for sql, params in self.statements:
                    cursor.execute(sql, params)
        self.statements.clear()


def _json(value: Any) -> str:
    """JSON as Django's JSONField stores it (json.dumps, default separators)."""
    return json.dumps(value)
