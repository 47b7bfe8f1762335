"""Cross-site WebSocket hijacking: a page of another origin opens the table socket with the victim's cookie.

Before: any `http://localhost:<port>` or `http://127.0.0.1:<port>` Origin was accepted, so whatever
else runs on the visitor's machine (or a page served on another port) could act as them at a table.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games.models import Seat
from tests.games.test_consumers import setup_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.core]

HOST = "127.0.0.1:8000"


@database_sync_to_async
def seat_one_session(table_id: int) -> str:
    client = Client()
    client.force_login(Seat.objects.get(table_id=table_id, seat=1).user)
    return client.cookies["sessionid"].value


async def opens(table_id: int, session: str, origin: str | None, host: str = HOST, scheme: str = "ws") -> bool:
    headers = [(b"cookie", f"sessionid={session}".encode()), (b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    comm.scope["scheme"] = scheme
    connected, _ = await comm.connect()
    if connected:
        assert (await comm.receive_json_from(timeout=5))["seat"] == 1
        await comm.disconnect()
    return connected


@pytest.mark.parametrize("origin", ["http://localhost:8000", "http://127.0.0.1:9999", "http://localhost:3000", "https://127.0.0.1:8000", "null"])
async def test_another_origin_is_refused_even_on_this_machine(origin: str) -> None:
    table, _, _ = await setup_table()
    session = await seat_one_session(table.pk)
    assert not await opens(table.pk, session, origin)


async def test_the_sites_own_origin_and_its_trusted_origins_are_accepted(settings) -> None:
    table, _, _ = await setup_table()
    session = await seat_one_session(table.pk)
    assert await opens(table.pk, session, f"http://{HOST}")
    assert await opens(table.pk, session, "https://cards.example.org", host="cards.example.org", scheme="wss") is False  # not an allowed host
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "cards.example.org"]
    assert await opens(table.pk, session, "https://cards.example.org", host="cards.example.org", scheme="wss")
    # Behind a TLS proxy the socket arrives as plain ws: the public origin is listed as trusted, as for forms.
    assert not await opens(table.pk, session, "https://cards.example.org", host="cards.example.org")
    settings.CSRF_TRUSTED_ORIGINS = ["https://cards.example.org"]
    assert await opens(table.pk, session, "https://cards.example.org", host="cards.example.org")


async def test_a_rebound_host_name_is_not_this_site() -> None:
    """DNS rebinding: the attacker's name points at us, so Origin and Host agree, but the host is not ours."""
    table, _, _ = await setup_table()
    session = await seat_one_session(table.pk)
    assert not await opens(table.pk, session, "http://evil.example:8000", host="evil.example:8000")


async def test_tools_that_send_no_origin_still_connect() -> None:
    table, _, tokens = await setup_table()
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/?token={tokens[1]}")
    assert (await comm.connect())[0]
    assert (await comm.receive_json_from(timeout=5))["seat"] == 1
    await comm.disconnect()
