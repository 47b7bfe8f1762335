"""A challenge told live on the lobby socket (`ws/lobby/`, `{"type": "challenge", ...}`), and accepted."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import token_for
from config.asgi import application
from tests.games.factories import user
from tests.people.sockets import heard

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def lobby(token: str | None = None) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, "/ws/lobby/" + (f"?token={token}" if token else ""))
    connected, _ = await comm.connect()
    assert connected
    return comm


async def next_challenge(comm: WebsocketCommunicator, timeout: float = 5) -> dict[str, Any]:
    """The next `challenge` message (table updates of the lobby come and go around it)."""
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        if msg["type"] == "challenge":
            return msg


async def challenges_heard(comm: WebsocketCommunicator) -> list[dict[str, Any]]:
    return await heard(comm, "challenge")


@database_sync_to_async
def people() -> tuple[User, User, dict[str, str]]:
    ana, bob, cem = user("ana"), user("bob"), user("cem")
    return ana, bob, {u.username: token_for(user=u) for u in (ana, bob, cem)}


@database_sync_to_async
def call(token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    r = c.post(path, body or {}, format="json")
    assert r.status_code in (200, 201), r.content
    return r.json()


async def test_the_challenged_player_hears_it_on_the_lobby_socket_and_accepts() -> None:
    ana, bob, tokens = await people()
    bob_socket, ana_socket, cem_socket, anonymous = await lobby(tokens["bob"]), await lobby(tokens["ana"]), await lobby(tokens["cem"]), await lobby()
    made = await call(tokens["ana"], "/api/challenges/", {"username": "bob", "game": "zwicker"})
    told = await next_challenge(bob_socket)
    assert told["challenge"] == made and told["challenge"]["status"] == "pending" and told["challenge"]["challenger"] == "ana"
    accepted = await call(tokens["bob"], f"/api/challenges/{told['challenge']['id']}/accept/")
    assert accepted["status"] == "accepted" and accepted["table"] == made["table"]
    answer = await next_challenge(ana_socket)  # the challenger hears the answer
    assert answer["challenge"]["status"] == "accepted" and answer["challenge"]["id"] == made["id"]
    assert await challenges_heard(cem_socket) == [] and await challenges_heard(anonymous) == []  # nobody else
    assert await challenges_heard(bob_socket) == []  # bob's own answer is not told back to him
    for comm in (bob_socket, ana_socket, cem_socket, anonymous):
        await comm.disconnect()


async def test_a_socket_of_the_challenged_player_left_closed_hears_nothing_later() -> None:
    _ana, _bob, tokens = await people()
    bob_socket = await lobby(tokens["bob"])
    await bob_socket.disconnect()
    await call(tokens["ana"], "/api/challenges/", {"username": "bob", "game": "zwicker"})
    again = await lobby(tokens["bob"])
    assert await challenges_heard(again) == []  # a notice is live only; the list keeps it (GET /api/me/notifications/)
    await again.disconnect()
