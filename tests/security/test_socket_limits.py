"""One account or one address cannot open hundreds of sockets, nor multiply its message budget by opening more.

Before: one account (or none) opened 300 sockets on a table, each with its own 20 messages a second.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from ops import metrics
from tests.games.test_consumers import setup_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.core]


def communicator(path: str, address: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path)
    comm.scope["client"] = (address, 40000)  # the application reads its scope once it first runs
    return comm


async def open_many(path: str, address: str, n: int) -> tuple[list[WebsocketCommunicator], list[dict[str, Any]]]:
    """Open `n` sockets one after the other; the accepted ones (hello read) and the refusals (error frame, close code)."""
    accepted, refusals = [], []
    for _ in range(n):
        comm = communicator(path, address)
        assert (await comm.connect(timeout=5))[0]
        first = await comm.receive_json_from(timeout=5)
        if first["type"] == "error":
            closed = await comm.receive_output(timeout=5)
            refusals.append({**first, "close": closed.get("code")})
        else:
            accepted.append(comm)
    return accepted, refusals


async def close_all(comms: list[WebsocketCommunicator]) -> None:
    await asyncio.gather(*(c.disconnect() for c in comms))


async def test_300_sockets_of_one_account_stop_at_the_cap(settings) -> None:
    settings.WS_MAX_SOCKETS_PER_USER = 20
    table, _, tokens = await setup_table()
    before = metrics.value("cardtables_sockets_refused_total", {"reason": "sockets_per_user"})
    accepted, refusals = await open_many(f"/ws/tables/{table.pk}/?token={tokens[0]}", "198.51.100.7", 300)
    assert len(accepted) == 20 and len(refusals) == 280
    assert {(r["code"], r["reason"], r["close"]) for r in refusals} == {("too_many_sockets", "sockets_per_user", 4429)}
    assert metrics.value("cardtables_sockets_refused_total", {"reason": "sockets_per_user"}) - before == 280, "on /metrics"
    # The other player is not affected, and a closed socket frees its place.
    other, _ = await open_many(f"/ws/tables/{table.pk}/?token={tokens[1]}", "198.51.100.8", 1)
    assert len(other) == 1
    await accepted.pop().disconnect()
    again, _ = await open_many(f"/ws/tables/{table.pk}/?token={tokens[0]}", "198.51.100.7", 1)
    assert len(again) == 1
    await close_all(accepted + other + again)


async def test_300_anonymous_sockets_from_one_address_stop_at_the_cap(settings) -> None:
    settings.WS_MAX_SOCKETS_PER_ADDRESS = 60
    table, _, _ = await setup_table()
    before = metrics.value("cardtables_sockets_refused_total", {"reason": "sockets_per_address"})
    accepted, refusals = await open_many(f"/ws/tables/{table.pk}/", "203.0.113.9", 300)
    assert len(accepted) == 60 and len(refusals) == 240
    assert metrics.value("cardtables_sockets_refused_total", {"reason": "sockets_per_address"}) - before == 240
    assert {(r["reason"], r["close"]) for r in refusals} == {("sockets_per_address", 4429)}
    elsewhere, _ = await open_many(f"/ws/tables/{table.pk}/", "203.0.113.10", 1)
    assert len(elsewhere) == 1
    await close_all(accepted + elsewhere)


async def test_an_accounts_budget_is_shared_by_all_its_sockets(settings) -> None:
    """Ten sockets of one account, each far below its own budget, together past the account's: refused."""
    settings.WS_MAX_ACTIONS_PER_SECOND = 20
    settings.WS_USER_MESSAGES_PER_SECOND = 30
    settings.WS_ADDRESS_MESSAGES_PER_SECOND = 0
    table, _, tokens = await setup_table()
    comms, _ = await open_many(f"/ws/tables/{table.pk}/?token={tokens[0]}", "198.51.100.7", 10)
    limited = metrics.value("cardtables_socket_errors_total", {"code": "rate_limited"})
    for comm in comms:
        for _ in range(5):  # 5 each: a quarter of one socket's budget, 50 in all
            await comm.send_json_to({"type": "ping"})
    answers: list[str] = []
    for comm in comms:
        for _ in range(5):
            while True:
                frame = await comm.receive_json_from(timeout=5)
                if frame["type"] in ("pong", "error"):
                    answers.append(frame.get("code", "pong"))
                    break
    assert answers.count("rate_limited") >= 15 and answers.count("pong") <= 35, answers
    assert metrics.value("cardtables_socket_errors_total", {"code": "rate_limited"}) - limited == answers.count("rate_limited")
    await close_all(comms)


async def test_the_refusal_reads_in_the_pages_language(settings) -> None:
    settings.WS_MAX_SOCKETS_PER_USER = 1
    table, _, tokens = await setup_table()
    first, _ = await open_many(f"/ws/tables/{table.pk}/?token={tokens[0]}", "198.51.100.7", 1)
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/?token={tokens[0]}", headers=[(b"accept-language", b"de")])
    assert (await comm.connect(timeout=5))[0]
    refusal = await comm.receive_json_from(timeout=5)
    assert refusal["code"] == "too_many_sockets" and refusal["message"].startswith("Zu viele offene Verbindungen")
    assert (await comm.receive_output(timeout=5))["code"] == 4429
    await close_all(first)
