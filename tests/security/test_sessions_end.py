"""A session ends everywhere at once (PROTOCOL.md "Fair play"): the open sockets of a user who logs out,
loses the token, changes the password or is banned close with 4401 within a second, and act and see nothing more.

Before: each of these left the already-open sockets playing, seeing their private cards and chatting;
only a new connection was refused.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from accounts import self_service
from accounts.models import User
from config.asgi import application
from live import sessions
from moderation.services import moderation_action_take
from tests.games.test_consumers import connect, reload, setup_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.core]

PASSWORD = "correct horse 42"


async def closed_within(comm: WebsocketCommunicator, seconds: float) -> tuple[int, float]:
    """The close code of the socket and how long it took, skipping whatever frames came before it."""
    start = time.monotonic()
    while True:
        left = seconds - (time.monotonic() - start)
        assert left > 0, "the socket stayed open"
        out = await comm.receive_output(timeout=left)
        if out["type"] == "websocket.close":
            return out.get("code"), time.monotonic() - start


def api_for(token: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api


@database_sync_to_async
def user_of(token: str) -> User:
    return User.objects.get(auth_token__key=token)


async def test_log_out_closes_every_socket_of_the_user_with_4401() -> None:
    table, _, tokens = await setup_table()
    player, _ = await connect(table.pk, tokens[0])
    lobby = WebsocketCommunicator(application, f"/ws/lobby/?token={tokens[0]}")
    mine = WebsocketCommunicator(application, f"/ws/tournaments/mine/?token={tokens[0]}")
    assert (await lobby.connect())[0] and (await mine.connect())[0]
    other, _ = await connect(table.pk, tokens[1])
    r = await database_sync_to_async(api_for(tokens[0]).post)("/api/auth/logout/")
    assert r.status_code == 204
    for comm in (player, lobby, mine):
        code, took = await closed_within(comm, 1.0)
        assert code == 4401 and took < 1.0
    await other.send_json_to({"type": "ping"})  # the other player's socket stays
    assert (await other.receive_json_from(timeout=5))["type"] in ("pong", "ping", "table")
    await other.disconnect()


async def test_a_revoked_token_closes_its_sockets_and_the_endpoint_is_documented() -> None:
    table, _, tokens = await setup_table()
    player, _ = await connect(table.pk, tokens[0])
    r = await database_sync_to_async(api_for(tokens[0]).delete)("/api/auth/token/")
    assert r.status_code == 204
    assert (await closed_within(player, 1.0))[0] == 4401
    again = await database_sync_to_async(api_for(tokens[0]).get)("/api/me/")
    assert again.status_code == 401
    anonymous = await database_sync_to_async(APIClient().delete)("/api/auth/token/")
    assert anonymous.status_code == 401
    schema = await database_sync_to_async(APIClient().get)("/api/schema/?format=json")
    assert "delete" in schema.json()["paths"]["/api/auth/token/"]


async def test_a_password_change_closes_the_sockets_and_revokes_the_old_token() -> None:
    table, match, tokens = await setup_table()
    player, hello = await connect(table.pk, tokens[0])
    assert hello["view"]["hand"]
    holder = await user_of(tokens[0])
    await database_sync_to_async(holder.set_password)(PASSWORD)
    await database_sync_to_async(holder.save)()
    fresh = await database_sync_to_async(self_service.password_change)(user=holder, old_password=PASSWORD, new_password="another horse 43")
    assert (await closed_within(player, 1.0))[0] == 4401
    assert fresh != tokens[0]
    assert (await database_sync_to_async(api_for(tokens[0]).get)("/api/me/")).status_code == 401
    assert (await database_sync_to_async(api_for(fresh).get)("/api/me/")).status_code == 200
    assert (await reload(match)).seq == match.seq


async def test_a_ban_closes_the_sockets_of_the_banned_player() -> None:
    table, _, tokens = await setup_table()
    player, _ = await connect(table.pk, tokens[0])
    banned = await user_of(tokens[0])
    staff = await database_sync_to_async(User.objects.create_user)("desk", password=PASSWORD, is_staff=True)
    await database_sync_to_async(moderation_action_take)(username=banned.username, action="ban", by=staff)
    assert (await closed_within(player, 1.0))[0] == 4401


async def test_a_lost_message_is_caught_by_the_recheck(settings) -> None:
    """Deactivated behind the platform's back (no signal, no message): the process's recheck closes it."""
    table, match, tokens = await setup_table()
    player, _ = await connect(table.pk, tokens[0])
    await sessions.recheck()  # sockets earlier tests left open belong to accounts their databases no longer hold
    await database_sync_to_async(lambda: User.objects.filter(auth_token__key=tokens[0]).update(is_active=False))()
    assert await sessions.recheck() == 1
    assert (await closed_within(player, 1.0))[0] == 4401
    assert (await reload(match)).seq == match.seq


async def test_an_ended_socket_neither_acts_nor_sees() -> None:
    """Between the end and the close nothing more goes out and no frame it sends is applied."""
    table, match, tokens = await setup_table()
    player, _ = await connect(table.pk, tokens[0])
    await asyncio.sleep(0)
    assert await sessions.close_here((await user_of(tokens[0])).pk) == 1
    await player.send_json_to({"type": "act", "id": "late", "action": {"kind": "play", "card": match.state["hands"][0][0]["id"]}})
    assert (await closed_within(player, 1.0))[0] == 4401
    assert (await reload(match)).seq == match.seq


async def test_a_password_change_ends_the_other_browser_sessions_and_their_sockets() -> None:
    """A second browser, logged in by its session cookie, is logged out by the change made with the API token."""
    from django.test import Client

    table, _, tokens = await setup_table()
    holder = await user_of(tokens[0])
    await database_sync_to_async(holder.set_password)(PASSWORD)
    await database_sync_to_async(holder.save)()
    browser = Client()
    await database_sync_to_async(browser.force_login)(holder)
    assert (await database_sync_to_async(browser.get)("/api/me/")).status_code == 200
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    by_cookie = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[(b"cookie", cookie)])
    assert (await by_cookie.connect())[0]
    assert (await by_cookie.receive_json_from(timeout=5))["seat"] == 0
    r = await database_sync_to_async(api_for(tokens[0]).post)(
        "/api/me/password/", {"old_password": PASSWORD, "new_password": "another horse 43"}, format="json"
    )
    assert r.status_code == 200
    assert (await closed_within(by_cookie, 1.0))[0] == 4401
    assert (await database_sync_to_async(browser.get)("/api/me/")).status_code in (401, 403)
