"""The Celery worker's channel layer on the embedded default: group sends go to the web process.

The in-memory channel layer lives inside the one daphne process, so the worker (timers,
bots, tournaments) cannot reach its groups. With `CHANNEL_RELAY_URL` set (bin/run sets it
for the worker only, never with REDIS_URL) settings select this layer: `group_send`
seals the message (live/relay_protocol.py: an HMAC from SECRET_KEY, a time and a
nonce) and POSTs it to the web process's relay endpoint (live/relay_endpoint.py),
which checks it and hands it to its in-memory layer. The worker holds no sockets, so
the layer only sends to groups. The platform code is the same in every configuration:
it calls `get_channel_layer().group_send`.
"""

from __future__ import annotations

import asyncio
import urllib.request
from typing import Any

from channels.layers import BaseChannelLayer

from live.relay_protocol import SIGNATURE_HEADER, message_problem, seal


class RelayChannelLayer(BaseChannelLayer):
    extensions = ["groups"]

    def __init__(self, url: str, timeout: float = 5.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.url = url
        self.timeout = timeout

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Relay one group message; OSError when the web process does not take it (the caller logs it).

        A message the endpoint would refuse is refused here first (ValueError), so a new
        group message type shows up in the worker's log, not as silence on the sockets.
        """
        problem = message_problem(group, message)
        if problem is not None:
            raise ValueError(f"not relayed: {problem}")
        body, signature = seal(group, message)
        await asyncio.to_thread(self._post, body, signature)

    def _post(self, body: bytes, signature: str) -> None:
        request = urllib.request.Request(
            self.url,
            data=body,
            headers={"Content-Type": "application/json", SIGNATURE_HEADER: signature},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            response.read()

    async def group_add(self, group: str, channel: str) -> None:
        raise NotImplementedError("the relay layer only sends: sockets live in the web process")

    async def group_discard(self, group: str, channel: str) -> None:
        raise NotImplementedError("the relay layer only sends: sockets live in the web process")
