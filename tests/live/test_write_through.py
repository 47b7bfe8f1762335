"""A TCP connection's write goes out at once when nothing waits before it; everything else keeps Twisted's path.

On a real Twisted `tcp.Connection` over a socket pair, with a reactor that only
records which descriptors asked to be written: what was sent, what was
buffered, in which order, and whether the reactor was asked to write later.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from twisted.internet import main, tcp
from twisted.internet.protocol import Protocol

from live import write_through

pytestmark = [pytest.mark.core]


class RecordingReactor:
    """The part of a reactor a connection's writes touch."""

    def __init__(self) -> None:
        self.writers: set[object] = set()

    def addWriter(self, fd: object) -> None:  # noqa: N802 - Twisted's name
        self.writers.add(fd)

    def removeWriter(self, fd: object) -> None:  # noqa: N802
        self.writers.discard(fd)


@pytest.fixture
def pair(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[tcp.Connection, socket.socket, RecordingReactor]]:
    monkeypatch.setattr(tcp.Connection, "write", tcp.Connection.write)  # undone after the test, whatever install did
    write_through.install()
    ours, peer = socket.socketpair()
    reactor = RecordingReactor()
    conn = tcp.Connection(ours, Protocol(), reactor=reactor)  # type: ignore[arg-type]
    conn.connected = True
    peer.setblocking(False)
    yield conn, peer, reactor
    ours.close()
    peer.close()


def received(peer: socket.socket) -> bytes:
    out = b""
    while True:
        try:
            chunk = peer.recv(1 << 20)
        except BlockingIOError:
            return out
        if not chunk:
            return out
        out += chunk


def test_a_write_with_nothing_buffered_is_sent_at_once(pair: tuple[tcp.Connection, socket.socket, RecordingReactor]) -> None:
    conn, peer, reactor = pair
    conn.write(b"frame one")
    conn.write(b"frame two")
    assert received(peer) == b"frame oneframe two"
    assert reactor.writers == set(), "the reactor was never asked to write later"


def test_data_already_buffered_keeps_its_place(pair: tuple[tcp.Connection, socket.socket, RecordingReactor]) -> None:
    conn, peer, reactor = pair
    write_through._twisted_write(conn, b"first ")  # buffered the Twisted way, waiting for the reactor
    conn.write(b"second")
    assert received(peer) == b"", "nothing jumps the queue"
    assert reactor.writers == {conn}
    assert conn.doWrite() is None  # the reactor's turn
    assert received(peer) == b"first second"
    assert reactor.writers == set()


def test_what_the_kernel_does_not_take_is_buffered_and_sent_in_order(
    pair: tuple[tcp.Connection, socket.socket, RecordingReactor],
) -> None:
    conn, peer, reactor = pair
    big = bytes(range(256)) * 16_384  # 4 MB: more than a socket buffer holds
    conn.write(big)
    conn.write(b"after")
    assert reactor.writers == {conn}, "the rest waits for the reactor"
    got = received(peer)
    assert 0 < len(got) < len(big), "part went at once"
    while conn.dataBuffer[conn.offset:] or conn._tempDataLen:
        assert conn.doWrite() is None
        got += received(peer)
    got += received(peer)
    assert got == big + b"after"


def test_a_paused_producer_keeps_twisteds_flow_control(pair: tuple[tcp.Connection, socket.socket, RecordingReactor]) -> None:
    conn, peer, reactor = pair

    class Producer:
        def pauseProducing(self) -> None:  # noqa: N802
            pass

        def resumeProducing(self) -> None:  # noqa: N802
            pass

        def stopProducing(self) -> None:  # noqa: N802
            pass

    conn.registerProducer(Producer(), True)
    conn.write(b"streaming, not paused")
    assert received(peer) == b"streaming, not paused"
    conn.producerPaused = True
    conn.write(b"paused")
    assert received(peer) == b"" and reactor.writers == {conn}


def test_a_closing_connection_is_left_to_twisted(pair: tuple[tcp.Connection, socket.socket, RecordingReactor]) -> None:
    conn, peer, reactor = pair
    conn.disconnecting = True
    conn.write(b"last words")
    assert received(peer) == b"" and reactor.writers == {conn}


def test_a_failed_send_is_buffered_for_the_reactor_to_find(pair: tuple[tcp.Connection, socket.socket, RecordingReactor]) -> None:
    conn, peer, reactor = pair
    peer.close()
    conn.write(b"to nobody")
    assert reactor.writers == {conn}, "the reactor's next write finds the error and closes the connection"
    assert conn.doWrite() is main.CONNECTION_LOST


def test_the_web_process_installs_it() -> None:
    import config.asgi  # noqa: F401 - what daphne loads

    assert write_through.installed()
