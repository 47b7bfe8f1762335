"""Who a socket is (accounts.ws_auth.SocketGate): a token first, else the session cookie as Django checks it."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from games.models import Seat
from tests.games.factories import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.core]


async def hello_seat(table_id: int, cookie: str | None = None, token: str | None = None) -> Any:
    path = f"/ws/tables/{table_id}/" + (f"?token={token}" if token else "")
    headers = [(b"cookie", cookie.encode())] if cookie else []
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    assert connected
    hello = await comm.receive_json_from(timeout=5)
    await comm.disconnect()
    return hello["seat"]


@database_sync_to_async
def table_and_sessions(client: Any) -> tuple[int, list[str], list[Any]]:
    table, _match, _humans = started_table(players=2)
    sessions, users = [], []
    for n in (0, 1):
        u = Seat.objects.get(table=table, seat=n).user
        client.force_login(u)
        sessions.append(client.cookies["sessionid"].value)
        users.append(u)
    return table.pk, sessions, users


async def test_the_session_cookie_names_the_seat_and_a_token_overrides_it(client: Any) -> None:
    table_id, sessions, users = await table_and_sessions(client)
    assert await hello_seat(table_id, cookie=f"sessionid={sessions[1]}") == 1
    token = await database_sync_to_async(token_for)(user=users[0])
    assert await hello_seat(table_id, cookie=f"sessionid={sessions[1]}", token=token) == 0


async def test_a_session_whose_password_changed_since_is_a_spectator(client: Any) -> None:
    table_id, sessions, users = await table_and_sessions(client)

    @database_sync_to_async
    def change_password() -> None:
        users[1].set_password("a new one, elsewhere")
        users[1].save()

    await change_password()
    assert await hello_seat(table_id, cookie=f"sessionid={sessions[1]}") is None


@pytest.mark.parametrize("cookie", ["sessionid=not-a-session", "sessionid=", "other=1; =;;", "\u00ff=\u00ff"])
async def test_an_unknown_or_malformed_cookie_is_a_spectator(client: Any, cookie: str) -> None:
    table_id, _sessions, _users = await table_and_sessions(client)
    assert await hello_seat(table_id, cookie=cookie.encode("latin-1").decode("latin-1")) is None


async def test_a_revoked_token_is_a_spectator_even_with_a_session(client: Any) -> None:
    table_id, sessions, _users = await table_and_sessions(client)
    assert await hello_seat(table_id, cookie=f"sessionid={sessions[1]}", token="no-such-token") is None
