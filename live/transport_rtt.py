"""Round trips a client cannot inflate (PROTOCOL.md "Fair play"): the transport's own measurement.

A race compensates the sender's round trip, and pongs alone are the client's
word: answering pings 185 ms late bought 185 ms of compensation while its
claims were not delayed at all (docs/fair-races.md, "Fair play"). The kernel times the
TCP connection itself, from its segments and their acknowledgements, whatever
the application on either end writes; a client that holds back its pongs does
not hold back its ACKs. So the round trip a race uses is at most this bound
(games/kit/latency.py `fair_rtt_ms`: pongs only lower it).

Where the bound comes from (docs/deployment-round-trips.md):

- directly: `getsockopt(IPPROTO_TCP, TCP_INFO)` on the connection daphne
  accepted (Linux `struct tcp_info`: `tcpi_rtt`, the smoothed round trip in µs,
  at byte offset 68, `tcpi_rttvar` at 72), read again at every pong;
- behind a proxy of the deployment: the kernel here only sees the hop from the
  proxy. A peer address listed in `TRUSTED_PROXIES` ("unix" for a Unix socket)
  is a proxy of ours, and its `X-Proxy-Tcp-Rtt-Us` header (nginx:
  `$tcpinfo_rtt` of the client's connection, set by the proxy and so
  overwriting anything a client sent) is the bound, as measured at the
  WebSocket handshake. The header from any other peer is ignored.

Without either (no TCP socket, not Linux, a proxy not listed, a listed proxy
that sent no header) there is no bound: `None`, and the consumer caps pongs at
`RTT_UNBOUNDED_CAP_MS`.

The consumer reaches its connection through the `send` daphne hands every
application: `partial(Server.handle_reply, protocol)` (daphne's
`create_application`, and live/lean_queue.py's copy of it; fingerprinted in
tests/live/test_upstream_patches.py), whose protocol holds the Twisted
transport. Nothing is patched for it; any other server (the in-process test
communicator) gives no transport, hence no bound.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
import struct
from collections.abc import Callable, Iterable
from typing import Any

TCP_INFO_RTT_OFFSET = 68  # struct tcp_info: 8 bytes of u8 fields, then u32s; tcpi_rtt is the 16th u32 (µs)
TCP_INFO_RTTVAR_OFFSET = 72
TCP_INFO_READ = 104  # enough for every field up to tcpi_rttvar on any kernel since 2.6
PROXY_RTT_HEADER = b"x-proxy-tcp-rtt-us"


def kernel_rtt_us(sock: Any) -> tuple[int, int] | None:
    """(tcpi_rtt, tcpi_rttvar) in µs of a TCP socket, or None (not TCP, closed, not Linux, not measured yet)."""
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_READ)
    except (OSError, AttributeError, TypeError, ValueError):
        return None
    if len(info) < TCP_INFO_RTTVAR_OFFSET + 4:
        return None
    rtt, var = struct.unpack_from("=II", info, TCP_INFO_RTT_OFFSET)
    return (rtt, var) if rtt > 0 else None


def trusted_networks(entries: Iterable[str]) -> tuple[frozenset[str], tuple[Any, ...]]:
    """`TRUSTED_PROXIES` parsed: special names ("unix") and networks (an address is a /32 or /128)."""
    names: set[str] = set()
    nets: list[Any] = []
    for raw in entries:
        entry = raw.strip()
        if not entry:
            continue
        try:
            nets.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            names.add(entry.lower())
    return frozenset(names), tuple(nets)


def is_trusted(peer: str | None, trusted: tuple[frozenset[str], tuple[Any, ...]]) -> bool:
    """Whether the connection's real peer (never a forwarded address) is a proxy of the deployment."""
    names, nets = trusted
    if peer is None:
        return False
    if peer in names:
        return True
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in net for net in nets)


def header_rtt_ms(headers: Iterable[tuple[bytes, bytes]]) -> float | None:
    """The proxy's measurement in ms from the handshake's headers (the last one: the proxy's own), or None."""
    value = None
    for name, raw in headers:
        if name.lower() == PROXY_RTT_HEADER:
            value = raw
    if value is None:
        return None
    try:
        us = int(value.strip())
    except ValueError:
        return None
    return us / 1000 if 0 < us < 60_000_000 else None


class TransportRtt:
    """The round trip of one accepted connection as its transport measures it (what a scope carries)."""

    __slots__ = ("_transport", "peer")

    def __init__(self, transport: Any) -> None:
        self._transport = transport
        self.peer = _peer_of(transport)

    def kernel_ms(self) -> float | None:
        """The kernel's smoothed round trip of this connection in ms, read now (None: not available)."""
        try:
            handle = self._transport.getHandle()
        except Exception:  # noqa: BLE001 - a transport without a socket (a test's, a closed one): no bound
            return None
        measured = kernel_rtt_us(handle)
        return None if measured is None else measured[0] / 1000


def _peer_of(transport: Any) -> str | None:
    """The connection's real peer: an IP address, "unix" for a Unix socket, None when unknown."""
    try:
        peer = transport.getPeer()
    except Exception:  # noqa: BLE001 - no peer to name: never trusted
        return None
    host = getattr(peer, "host", None)
    if isinstance(host, str):
        return host
    if peer.__class__.__name__ == "UNIXAddress":
        return "unix"
    return None


def transport_of(send: Any) -> Any | None:
    """The Twisted transport behind an ASGI `send` daphne made (`partial(handle_reply, protocol)`), else None."""
    if isinstance(send, functools.partial) and send.args and getattr(send.func, "__name__", "") == "handle_reply":
        return getattr(send.args[0], "transport", None)
    return None


def bound_source(
    transport: Any | None, headers: Iterable[tuple[bytes, bytes]], trusted: tuple[frozenset[str], tuple[Any, ...]]
) -> Callable[[], float | None] | None:
    """What a socket asks at every pong for its bound in ms; None when nothing can vouch for one.

    `transport`: the connection's (`transport_of`), None without one; `headers`: the handshake's.
    A trusted proxy's header wins (the kernel here only sees the proxy's hop);
    a peer that is not a listed proxy is the client itself, measured by the
    kernel. A listed proxy that sent no header gives no bound.
    """
    if transport is None:
        return None
    probe = TransportRtt(transport)
    if is_trusted(probe.peer, trusted):
        measured = header_rtt_ms(headers)
        return None if measured is None else (lambda: measured)
    return probe.kernel_ms
