"""Reading test sockets until they fall quiet, without ending them."""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator


async def heard(comm: WebsocketCommunicator, kind: str, quiet: float = 0.6) -> list[dict[str, Any]]:
    """Every message of type `kind` the socket got until it stayed quiet for `quiet` seconds.

    Waits with `receive_nothing`: a receive that times out cancels the application, ending the socket."""
    out = []
    while not await comm.receive_nothing(timeout=quiet):
        msg = await comm.receive_json_from(timeout=5)
        if msg["type"] == kind:
            out.append(msg)
    return out
