"""The fast path's values written into its message (games/services/action_sql.py `_bound`): PostgreSQL reads back exactly what was meant.

Players choose action ids and chat-like text reaches event data, so every string a
client could send is tried against the real server: quotes, backslashes, a `%s`,
SQL of its own, every plane of Unicode. PostgreSQL only (the message is its own).
"""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import connection

from games.services import action_sql

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the fast path's message is PostgreSQL's"),
]

NASTY = [
    "",
    "'",
    "''",
    "it's",
    "\\",
    "\\'",
    "'\\",
    "%s",
    "%%s %(x)s",
    "'); DROP TABLE games_match; --",
    "E'\\x41'",
    "line\nbreak\r\ttab",
    "Zwicker · ZIGZAG · Smack it! · äöüß · 𝄞 · 🂡",
    '{"a": "\\"quoted\\"", "b": [1, 2]}',
    "$$ dollar $$",
]


@pytest.mark.parametrize("value", [*NASTY, 0, -7, 2**62, True, False, None])
def test_each_value_is_read_back_by_postgresql_as_itself(value: Any) -> None:
    with connection.cursor() as cursor:
        cursor.execute(action_sql._bound("SELECT %s, %s", [value, "after"]))
        assert cursor.fetchone() == (value, "after")


def test_a_message_of_several_statements_keeps_each_value_in_its_place() -> None:
    values = [*NASTY, 5, None, True]
    sql = action_sql._bound("; ".join(["SELECT %s"] * len(values)), values)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        read = [cursor.fetchone()[0]]
        while cursor.nextset():
            read.append(cursor.fetchone()[0])
    assert read == values


def test_text_postgresql_cannot_hold_and_other_types_are_refused() -> None:
    with pytest.raises(ValueError, match="NUL"):
        action_sql._bound("SELECT %s", ["a\x00b"])
    with pytest.raises(TypeError):
        action_sql._bound("SELECT %s", [1.5])
    with pytest.raises(AssertionError):
        action_sql._bound("SELECT %s, %s", [1])


def test_a_connection_reading_backslashes_as_escapes_is_refused() -> None:
    with connection.cursor():
        info = connection.connection.info
        action_sql._plain_strings(info)
        with connection.cursor() as cursor:
            cursor.execute("SET standard_conforming_strings = off")
            try:
                with pytest.raises(psycopg.NotSupportedError):
                    action_sql._plain_strings(info)
            finally:
                cursor.execute("SET standard_conforming_strings = on")
