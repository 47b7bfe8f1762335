"""The transport's round trip (live/transport_rtt.py): the kernel's, a trusted proxy's, and nobody else's."""

from __future__ import annotations

import functools
import socket
import struct
import threading
from typing import Any

from games.kit.latency import RttEstimator, fair_rtt_ms, inflated
from live.transport_rtt import (
    TCP_INFO_RTT_OFFSET,
    TransportRtt,
    bound_source,
    header_rtt_ms,
    is_trusted,
    kernel_rtt_us,
    transport_of,
    trusted_networks,
)
from tests.support.delayline import DelayLine, delayline  # noqa: F401 - the fixture


class _Transport:
    """What daphne's protocol holds: a Twisted TCP transport's getHandle and getPeer."""

    def __init__(self, sock: Any, peer: Any) -> None:
        self._sock, self._peer = sock, peer

    def getHandle(self) -> Any:  # noqa: N802 - Twisted's name
        return self._sock

    def getPeer(self) -> Any:  # noqa: N802
        return self._peer


class _IPv4:
    def __init__(self, host: str) -> None:
        self.host = host


def _echo_pair(listener: socket.socket, client: socket.socket, address: tuple[str, int], rounds: int = 8) -> socket.socket:
    """Connect `client` to `listener`, echo a few bytes back and forth (the kernel's samples); the accepted socket."""
    accepted: list[socket.socket] = []

    def serve() -> None:
        conn, _ = listener.accept()
        accepted.append(conn)
        for _ in range(rounds):
            data = conn.recv(16)
            if not data:
                return
            conn.sendall(data)

    t = threading.Thread(target=serve)
    t.start()
    client.connect(address)
    for _ in range(rounds):
        client.sendall(b"x")
        client.recv(16)
    t.join()
    return accepted[0]


def test_tcp_info_rtt_sits_at_byte_68_of_struct_tcp_info() -> None:
    """`tcpi_rtt` and `tcpi_rttvar` are the 16th and 17th u32 after 8 bytes of u8 fields (linux/tcp.h)."""
    u8_fields = 8  # state, ca_state, retransmits, probes, backoff, options, wscales, rate flags
    u32_before_rtt = ["rto", "ato", "snd_mss", "rcv_mss", "unacked", "sacked", "lost", "retrans", "fackets",
                      "last_data_sent", "last_ack_sent", "last_data_recv", "last_ack_recv", "pmtu", "rcv_ssthresh"]
    assert TCP_INFO_RTT_OFFSET == u8_fields + 4 * len(u32_before_rtt) == 68
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.socket()
        conn = _echo_pair(listener, client, listener.getsockname())
        try:
            rtt, var = kernel_rtt_us(conn)  # type: ignore[misc]
            info = conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
            assert (rtt, var) == struct.unpack_from("II", info, 68)
            assert 0 < rtt < 20_000, "loopback: well under 20 ms"
            pmtu = struct.unpack_from("I", info, 8 + 4 * 13)[0]
            assert pmtu >= 1280, "the field before rcv_ssthresh is the path MTU: the layout is the one read"
        finally:
            conn.close()
            client.close()


def test_no_tcp_socket_no_kernel_figure() -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        assert kernel_rtt_us(s) is None
    assert kernel_rtt_us(object()) is None
    assert TransportRtt(_Transport(object(), _IPv4("1.2.3.4"))).kernel_ms() is None


def test_the_kernel_sees_the_delay_lines_round_trip(delayline: DelayLine) -> None:  # noqa: F811
    listener = delayline.listen()
    client = delayline.client_socket()
    conn = _echo_pair(listener, client, (delayline.server_ip, listener.getsockname()[1]))
    try:
        probe = TransportRtt(_Transport(conn, _IPv4(delayline.client_ip)))
        measured = probe.kernel_ms()
        assert measured is not None and 75 <= measured <= 120, measured  # 2 x 40 ms, and the wire's own scheduling
    finally:
        conn.close()
        client.close()


def test_a_proxys_header_counts_only_from_a_listed_peer() -> None:
    trusted = trusted_networks(["10.9.0.0/16", "unix", " 192.0.2.7 ", ""])
    assert is_trusted("10.9.3.4", trusted) and is_trusted("192.0.2.7", trusted) and is_trusted("unix", trusted)
    assert not is_trusted("10.8.0.1", trusted) and not is_trusted(None, trusted) and not is_trusted("example", trusted)
    headers = [(b"host", b"x"), (b"x-proxy-tcp-rtt-us", b"1000"), (b"X-Proxy-Tcp-Rtt-Us", b"85000")]
    assert header_rtt_ms(headers) == 85.0, "the last one: the proxy appends its own after anything forwarded"
    assert header_rtt_ms([(b"x-proxy-tcp-rtt-us", b"soon")]) is None
    assert header_rtt_ms([(b"x-proxy-tcp-rtt-us", b"0")]) is None
    loopback = socket.socket()
    try:
        proxy = _Transport(loopback, _IPv4("10.9.3.4"))
        source = bound_source(proxy, headers, trusted)
        assert source is not None and source() == 85.0
        # the same header from a client that is no proxy of ours: the kernel's figure of its own connection
        source = bound_source(_Transport(loopback, _IPv4("198.51.100.9")), headers, trusted)
        assert source is not None and source() is None, "an unconnected socket has no kernel figure, the header is ignored"
        assert bound_source(proxy, [], trusted) is None, "a listed proxy without the header: nothing vouches"
        assert bound_source(None, headers, trusted) is None, "no transport (an in-process test): no bound"
    finally:
        loopback.close()


def test_pongs_only_lower_the_bound_and_inflation_is_counted_once() -> None:
    assert fair_rtt_ms(265, 80.4, 0) == 80, "185 ms of late pongs buy nothing beyond the line"
    assert fair_rtt_ms(60, 80.4, 0) == 60, "pongs may lower it"
    assert fair_rtt_ms(None, 80.4, 0) == 80, "the bound before any pong"
    assert fair_rtt_ms(265, None, 0) == 0 and fair_rtt_ms(265, None, 30) == 30, "without a bound: capped pongs"
    assert fair_rtt_ms(265, None, None) == 265 and fair_rtt_ms(None, None, 0) is None
    assert inflated(121, 80, 40) and not inflated(120, 80, 40) and not inflated(500, None, 40)
    est = RttEstimator(unbounded_cap_ms=0)
    est.bound_ms = 80.0
    now = 0.0
    for _ in range(5):
        ping = est.ping(now)
        est.pong(ping["n"], now + 0.265)
        now += 2
    assert est.pong_ms == 265 and est.estimate_ms == 80
    assert est.newly_inflated(40) and not est.newly_inflated(40), "once per socket"


def test_the_transport_is_reached_through_daphnes_send() -> None:
    class Server:
        async def handle_reply(self, protocol: Any, message: dict[str, Any]) -> None:
            return None

    class Protocol:
        transport = _Transport(None, _IPv4("203.0.113.5"))

    protocol = Protocol()
    assert transport_of(functools.partial(Server().handle_reply, protocol)) is protocol.transport
    assert transport_of(functools.partial(print, protocol)) is None, "only daphne's own reply function"

    async def send(message: dict[str, Any]) -> None:
        return None

    assert transport_of(send) is None, "the in-process communicator: no transport"
