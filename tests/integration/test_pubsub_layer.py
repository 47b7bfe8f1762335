"""live/pubsub_layer.py on a real Redis: this process's sockets hear its sends at once and once; others through Redis.

Two layer instances stand for two web processes (each has its own origin). A
group send of one reaches its own member without Redis (it is there before the
publish returns) and never a second time (its echo
is dropped), and reaches the other instance's member through Redis, decoded once;
when the publish fails, this process's members have it all the same.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

from live.pubsub_layer import LocalFirstPubSubChannelLayer
from tests.support.waiting import until

pytestmark = [
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (Redis)"),
    pytest.mark.timeout(60),
]


def layer(url: str | None = None) -> LocalFirstPubSubChannelLayer:
    return LocalFirstPubSubChannelLayer(hosts=[{"address": url or os.environ["REDIS_URL"]}], prefix="pubsubtest")


def waiting(on: Any, channel: str) -> int:
    """Messages queued for `channel` (a receive that times out would unsubscribe it: channels_redis)."""
    return on._get_layer().channels[channel].qsize()


async def arrives(on: Any, channel: str, timeout: float = 5.0) -> dict[str, Any]:
    for _ in range(int(timeout / 0.01)):
        if waiting(on, channel):
            break
        await asyncio.sleep(0.01)
    return await on.receive(channel)


def test_local_sockets_hear_a_send_at_once_and_once_and_other_processes_through_redis() -> None:
    async def run() -> None:
        here, there = layer(), layer()
        mine, theirs = await here.new_channel(), await there.new_channel()
        await here.group_add("table-1", mine)
        await there.group_add("table-1", theirs)
        await asyncio.sleep(0.2)  # the subscriptions are in place
        message = {"type": "match.events", "match": 1, "events": [{"seq": 1}], "state": {"n": 1}}
        await here.group_send("table-1", message)
        assert waiting(here, mine) == 1, "in-process: queued before the publish returned"
        got = await here.receive(mine)
        assert got == message and got is not message, "the message itself, a copy per receiver"
        assert await arrives(there, theirs) == message, "the other process hears it through Redis"
        await there.group_send("table-1", {"type": "chat.message", "message": "hi"})
        assert await there.receive(theirs) == {"type": "chat.message", "message": "hi"}
        assert await arrives(here, mine) == {"type": "chat.message", "message": "hi"}
        await asyncio.sleep(0.3)
        assert waiting(here, mine) == 0 and waiting(there, theirs) == 0, "no echo of a process's own send"
        await here.flush()
        await there.flush()

    asyncio.run(run())


def test_when_the_publish_fails_this_process_still_hears_its_own_sends(monkeypatch: pytest.MonkeyPatch) -> None:
    from live import pubsub_layer

    async def down(self: Any, channel: str, message: bytes) -> None:
        raise ConnectionError("Redis is down")

    async def run() -> None:
        here = layer()
        channel = await here.new_channel()
        await here.group_add("table-2", channel)
        monkeypatch.setattr(pubsub_layer._Shard, "publish", down)
        with pytest.raises(ConnectionError):  # as before: live.broadcast logs it, the others catch up by seq
            await here.group_send("table-2", {"type": "chat.message", "message": "x"})
        assert waiting(here, channel) == 1 and await here.receive(channel) == {"type": "chat.message", "message": "x"}
        monkeypatch.undo()
        await here.flush()

    asyncio.run(run())


def test_a_send_skips_the_sockets_here_that_have_it_and_still_reaches_the_others() -> None:
    async def run() -> None:
        here, there = layer(), layer()
        took, waits, theirs = await here.new_channel(), await here.new_channel(), await there.new_channel()
        for channel in (took, waits):
            await here.group_add("table-2", channel)
        await there.group_add("table-2", theirs)
        await asyncio.sleep(0.2)
        message = {"type": "match.events", "match": 2, "events": [{"seq": 1}], "state": {"n": 1}}
        await here.group_send_except("table-2", message, frozenset([took]))
        assert waiting(here, took) == 0, "handed over in-process already: not queued again"
        assert await here.receive(waits) == message, "a socket here that did not take it gets it as before"
        assert await arrives(there, theirs) == message, "and another process through Redis"
        await here.flush()
        await there.flush()

    asyncio.run(run())


def test_a_tapped_channel_takes_messages_as_they_are_put_and_forgetting_it_unsubscribes() -> None:
    """`tap_channel`: local sends and Redis deliveries reach the tap as they are put, decoded; what it
    declines stays queued in order; `forget_channel` drops the channel here and at Redis."""

    async def run() -> None:
        here, there = layer(), layer()
        mine, theirs = await here.new_channel(), await there.new_channel()
        await here.group_add("table-3", mine)
        await there.group_add("table-3", theirs)
        await asyncio.sleep(0.2)
        taken: list[dict[str, Any]] = []
        accept = True

        def tap(message: dict[str, Any]) -> bool:
            if accept:
                taken.append(message)
            return accept

        assert here.tap_channel(mine, tap)
        await here.group_send("table-3", {"type": "chat.message", "message": "local"})
        assert taken == [{"type": "chat.message", "message": "local"}], "inside the send, before the publish returned"
        await there.group_send("table-3", {"type": "chat.message", "message": "remote"})
        assert await until(lambda: len(taken) == 2)
        assert taken[1] == {"type": "chat.message", "message": "remote"}, "a Redis delivery, decoded"
        assert waiting(here, mine) == 0
        accept = False
        await here.group_send("table-3", {"type": "chat.message", "message": "declined"})
        assert waiting(here, mine) == 1 and len(taken) == 2, "declined: queued for a reader"
        assert await here.receive(mine) == {"type": "chat.message", "message": "declined"}
        shard = here._get_layer()._get_shard(mine)
        assert mine in shard._subscribed_to
        await here.forget_channel(mine)
        assert mine not in here._get_layer().channels and mine not in shard._subscribed_to
        await here.forget_channel(mine)  # twice: nothing to do
        await here.flush()
        await there.flush()

    asyncio.run(run())
