"""This process's table sockets by table, so a commit made on the event loop reaches the idle ones in the same turn.

Why: a group message reaches a socket of this process through the channel
layer's queue, then Channels' dispatch, then the socket's inbox (three task
switches each), and only after the acting socket has sent its own events and
its ack: about 1 ms at one 3-seat table before the last seat held a flip
(docs/performance.md). Here the event loop's fast path
(`services.action_submit_cached`) hands the committed events to every socket
of the table in this process at once (`deliver`), each redacting them for its
own seat as its group handler does.

Guarantees: a socket takes them here only if nothing else of it is being
handled or waiting in its inbox and they follow on from the last seq it
delivered, for the match it shows (`TableConsumer.deliver_now`); otherwise it
does nothing and the group message, sent as before, reaches it in order. The
group message skips the sockets that took them (and the acting socket, which
sends its own events before its ack) where the layer can
(`live/pubsub_layer.py`); on any other layer they get it again and drop it
as already delivered (their seq check). Nothing here decides what a socket sees: that is its own seat's
redaction and view, the same calls as the group handler's.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any, Protocol

log = logging.getLogger(__name__)


class LocalSocket(Protocol):
    channel_name: str

    async def deliver_now(self, message: dict[str, Any]) -> bool: ...


# Weak: a consumer Channels drops without its disconnect (an application instance timed out,
# say) is not kept alive, nor handed anything, by this registry.
_by_table: dict[int, weakref.WeakSet[LocalSocket]] = {}


def add(table_id: int, socket: LocalSocket) -> None:
    _by_table.setdefault(table_id, weakref.WeakSet()).add(socket)


def discard(table_id: int, socket: LocalSocket) -> None:
    sockets = _by_table.get(table_id)
    if sockets is not None:
        sockets.discard(socket)
        if not sockets:
            del _by_table[table_id]


async def deliver(*, table_id: int, message: dict[str, Any]) -> frozenset[str]:
    """A `match.events` message, committed, to the idle sockets of the table here; the channels that took it.

    None of them waits. The group message then skips the channels returned (each has the
    events); every other socket gets it as before.
    """
    took: set[str] = set()
    for socket in list(_by_table.get(table_id, ())):
        try:
            if await socket.deliver_now(message):
                took.add(socket.channel_name)
        except Exception:  # noqa: BLE001 - the action is committed; this socket's group message still comes
            log.warning("a committed action of table %s was not handed to a socket here", table_id, exc_info=True)
    return frozenset(took)
