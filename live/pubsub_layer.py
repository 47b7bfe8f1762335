"""The Redis pub/sub channel layer, delivering in-process first (settings.CHANNEL_LAYERS with REDIS_URL).

channels_redis's pub/sub layer publishes every group message to Redis and
delivers it to this process's own sockets only when Redis sends it back: one
table's players in the process that committed their action waited for a Redis
round trip, and each socket decoded its own copy (msgpack of the events and
the whole state). Here a send reaches the sockets of this process at once, as
the very message handed over (each receiver gets its own shallow copy; the
consumers only read it), and is published to Redis as well for the other
processes. Each process's messages carry its origin (16 random bytes before
the msgpack body): a process drops the echo of its own, so a socket hears
every message once. Other processes decode a message once per process, not
once per socket.

Guarantees as before: a process's sends to one group reach its sockets in the
order they were sent (live.broadcast sends them in order); between processes
Redis is the only path and nothing is ordered, which the consumers handle
(seq gaps are filled from the database). With Redis away, this process's
sockets still hear its sends; the publish fails as before and the others catch
up by seq or `sync`. Each channel's queue is a `live.lean_queue.LeanQueue` (an
`asyncio.Queue` is 3 KB of empty deques per socket).

A consumer may take its channel's messages as they are put instead of reading them
(`tap_channel`, then `forget_channel` when it ends, which is what channels_redis's
`receive` does when its reader is cancelled): Channels' dispatch loop keeps a reader task
per source and per message and an `asyncio.wait` over them, about 4 KB of an idle socket
and a task made for every group message (games.socket.consumers.TableConsumer, docs/performance.md).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _consistent_hash, _wrap_close, decode_hosts

from live.lean_queue import LeanQueue

ORIGIN_BYTES = 16
log = logging.getLogger(__name__)


class _Local:
    """A message delivered in-process: its receivers decode nothing."""

    __slots__ = ("message",)

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message


class _Shard(RedisSingleShardConnection):
    def _receive_message(self, message: Any) -> None:
        if message is None:
            return
        layer, data, name = self.channel_layer, message["data"], message["channel"]
        if data[:ORIGIN_BYTES] == layer.origin:
            return  # our own send: its sockets here had it at once
        decoded = _Local(layer.channel_layer.deserialize(data[ORIGIN_BYTES:]))  # once, for every socket here
        name = name.decode() if isinstance(name, bytes) else name
        targets = [name] if name in layer.channels else layer.groups.get(name, ())
        for channel in targets:
            queue = layer.channels.get(channel)
            if queue is not None:
                queue.put_nowait(decoded)


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: Any = None, **kwargs: Any) -> None:
        super().__init__(hosts=hosts, **kwargs)
        self.origin = uuid.uuid4().bytes
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]

    async def _subscribe_to_channel(self, channel: str) -> None:
        """channels_redis's own, with a `LeanQueue` for the channel (one reader: its consumer)."""
        self.channels[channel] = LeanQueue()
        await self._get_shard(channel).subscribe(channel)

    def _shard_for(self, name: str) -> RedisSingleShardConnection:
        return self._shards[_consistent_hash(name, len(self._shards))]

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        queue = self.channels.get(channel)
        if queue is not None:
            queue.put_nowait(_Local(message))
            return
        await self._shard_for(channel).publish(channel, self.origin + self.channel_layer.serialize(message))

    async def group_send(self, group: str, message: dict[str, Any], here: frozenset[str] = frozenset()) -> None:
        name = self._get_group_channel_name(group)
        for channel in self.groups.get(name, ()):
            if channel in here:
                continue  # it has the message already (live/local_sockets.py)
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(_Local(message))
        await self._shard_for(name).publish(name, self.origin + self.channel_layer.serialize(message))


class LocalFirstPubSubChannelLayer(RedisPubSubChannelLayer):
    """RedisPubSubChannelLayer whose per-loop layer delivers to this process's sockets without Redis."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer

    async def group_send_except(self, group: str, message: dict[str, Any], here: frozenset[str]) -> None:
        """`group_send`, skipping this process's channels in `here` (they were handed the message in-process)."""
        layer = self._get_layer()
        assert isinstance(layer, _LoopLayer)
        await layer.group_send(group, message, here)

    def tap_channel(self, channel: str, tap: Callable[[dict[str, Any]], bool]) -> bool:
        """Offer each message for `channel` to `tap` as it is put (live/lean_queue.py `set_tap`); False: not tappable here.

        What `tap` declines stays queued, in order, for `receive` or a later tap.
        """
        queue = self._get_layer().channels.get(channel)
        if not isinstance(queue, LeanQueue):
            return False
        queue.set_tap(lambda item: tap(self.deserialize(item)))
        return True

    async def forget_channel(self, channel: str) -> None:
        """The channel gone from this process and from Redis: channels_redis's `receive` cleanup when its reader is cancelled."""
        layer = self._get_layer()
        if layer.channels.pop(channel, None) is None:
            return
        try:
            await layer._get_shard(channel).unsubscribe(channel)
        except Exception:  # noqa: BLE001 - as channels_redis: the consumer is ending either way
            log.exception("unsubscribing channel %s failed", channel)

    def deserialize(self, message: Any) -> dict[str, Any]:
        if isinstance(message, _Local):
            return dict(message.message)
        return super().deserialize(message)
