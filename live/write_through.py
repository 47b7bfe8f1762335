"""Frames leave daphne when they are written, not one turn of the event loop later.

Why: Twisted's TCP transport only buffers a `write` and registers the socket with
the reactor; the bytes go out when the next turn of the loop finds the socket
writable, after every callback already queued (docs/performance.md). On a
Smack It! flip the other seats' frames, written as soon as the commit returned,
waited behind the acting socket's own sends, the group message's task and the
Redis publish: the last seat held the new state 0.4–0.5 ms later than it was
written (`versus`, an instrumented run), and each socket cost a registration and
a removal (two `epoll_ctl`) per turn.

Here a write to a TCP connection with nothing already waiting in its buffer is
sent at once, as asyncio's own transports do; only what the kernel does not take
is buffered, the Twisted way. Everything else keeps Twisted's path unchanged: a
connection with data still buffered (order), one closing or half-closed, one whose
producer is paused or pulls (flow control: only a drained buffer resumes it; the
HTTP channel a WebSocket was upgraded from stays its streaming producer), and any
send that fails (the data is buffered and the reactor's next write finds the error
and closes the connection as before).
"""

from __future__ import annotations

from typing import Any

from twisted.internet import abstract, tcp

_twisted_write = abstract.FileDescriptor.write


def _write_through(self: tcp.Connection, data: bytes) -> None:
    abstract._dataMustBeBytes(data)
    if (
        data
        and self.connected
        and not self.disconnecting
        and not self._writeDisconnecting
        and not self._writeDisconnected
        and (self.producer is None or (self.streamingProducer and not self.producerPaused))
        and not self._tempDataLen
        and self.offset == len(self.dataBuffer)
    ):
        sent: Any = self.writeSomeData(data)
        if isinstance(sent, int) and sent > 0:
            if sent == len(data):
                return
            data = data[sent:]
    _twisted_write(self, data)


def install() -> None:
    """Make every TCP connection of this process write through (idempotent)."""
    tcp.Connection.write = _write_through  # type: ignore[method-assign]


def installed() -> bool:
    return tcp.Connection.write is _write_through
