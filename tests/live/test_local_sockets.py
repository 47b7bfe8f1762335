"""live/local_sockets.py: the registry hands a committed message to this process's sockets of the table, and only those."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from live import local_sockets

pytestmark = pytest.mark.asyncio


class Sock:
    def __init__(self, name: str, takes: bool = True, fails: bool = False) -> None:
        self.channel_name, self.takes, self.fails, self.got = name, takes, fails, []

    async def deliver_now(self, message: dict[str, Any]) -> bool:
        if self.fails:
            raise RuntimeError("the socket broke")
        self.got.append(message)
        return self.takes


async def test_a_message_reaches_the_tables_sockets_here_and_says_which_took_it() -> None:
    took, busy, broken, elsewhere = Sock("a"), Sock("b", takes=False), Sock("c", fails=True), Sock("d")
    for s in (took, busy, broken):
        local_sockets.add(901, s)
    local_sockets.add(902, elsewhere)
    message = {"type": "match.events", "match": 1, "events": [{"seq": 1}], "state": {}}
    assert await local_sockets.deliver(table_id=901, message=message) == frozenset({"a"}), "a broken socket stops nobody"
    assert took.got == [message] and busy.got == [message] and elsewhere.got == [], "only the table's sockets"
    for s in (took, busy, broken):
        local_sockets.discard(901, s)
    local_sockets.discard(902, elsewhere)
    assert await local_sockets.deliver(table_id=901, message=message) == frozenset() and len(took.got) == 1


async def test_a_socket_dropped_without_its_disconnect_is_not_kept() -> None:
    local_sockets.add(903, Sock("gone"))
    gc.collect()
    assert await local_sockets.deliver(table_id=903, message={"match": 1, "events": []}) == frozenset()
    local_sockets.discard(903, Sock("never added"))  # harmless
