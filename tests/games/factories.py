"""Small builders for platform tests."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games.models import Match, Table
from games.services.tables import table_add_bot, table_create, table_join, table_start


def user(name: str) -> User:
    return User.objects.create_user(name, password="correct horse 42")


def started_table(
    players: int = 2, bots: int = 0, game: str = "tiny", options: dict[str, Any] | None = None, level: str = "normal"
) -> tuple[Table, Match, list[User]]:
    """A started table with `players` humans (seats 0..) and then `bots` bots."""
    humans = [user(f"p{i}-{User.objects.count()}") for i in range(players)]
    table = table_create(host=humans[0], game=game, seats=players + bots, options=options or {})
    for h in humans[1:]:
        table_join(table_id=table.pk, user=h)
    for _ in range(bots):
        table_add_bot(table_id=table.pk, by=humans[0], level=level)
    match = table_start(table_id=table.pk, by=humans[0])
    table.refresh_from_db()
    return table, match, humans
