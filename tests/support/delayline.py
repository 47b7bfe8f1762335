"""A delay line the kernel's TCP really sees: two network namespaces joined by a userspace wire.

Why: the platform bounds a race's compensation by the round trip the kernel
measures on the connection (live/transport_rtt.py). A TCP proxy that delays
bytes (tests/support/delayproxy.py) hides the delay from the kernel: each side
talks to a proxy on loopback. This machine has no `tc netem`, but it has
network namespaces and `/dev/net/tun`, so the delay is made below TCP:

    namespace <srv> ── TUN <srv_if> ══ this process (holds every IP packet
    namespace <cli> ── TUN <cli_if> ══   `delay_ms`, then writes it across)

Each namespace gets one TUN device with a link-local address (169.254.80.1 on
the server side, .2 on the client side, point to point): addresses that exist
nowhere else, inside namespaces created here and deleted on exit. Packets are
forwarded unchanged in order after the one-way delay, so a TCP connection from
the client namespace to the server namespace has a round trip of twice it, and
`getsockopt(TCP_INFO)` on either end says so.

Sockets belong to the namespace they are created in, whatever thread uses them
later: `DelayLine.listen()` makes a listening socket in the server namespace
(for daphne's `--fd`), `DelayLine.client_socket()` an unconnected one in the
client namespace (for `websockets.connect(sock=...)`). The test process itself
never leaves its own namespace; a short-lived thread enters the other one just
to create the socket.

Needs root (namespaces, TUN): `unavailable()` gives the reason to skip otherwise.
The wire runs in a process of its own (`python -m tests.support.delayline`), so
the clients' GIL adds no jitter; a line on its stdin sets a new one-way delay.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import heapq
import os
import secrets
import select
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLONE_NEWNET = 0x40000000
TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000
SERVER_IP = "169.254.80.1"  # link-local, inside the namespaces made here only
CLIENT_IP = "169.254.80.2"
MTU = 1500

_libc = ctypes.CDLL(None, use_errno=True)


def unavailable() -> str | None:
    """Why a delay line cannot be built here (None: it can)."""
    if os.geteuid() != 0:
        return "the delay line needs root (network namespaces and TUN devices)"
    if not os.path.exists("/dev/net/tun"):
        return "the delay line needs /dev/net/tun"
    if shutil.which("ip") is None:
        return "the delay line needs iproute2's `ip`"
    return None


def _setns(netns: str) -> None:
    """Move the calling thread into the named network namespace."""
    fd = os.open(f"/var/run/netns/{netns}", os.O_RDONLY)
    try:
        if _libc.setns(fd, CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"setns({netns}): {os.strerror(err)}")
    finally:
        os.close(fd)


def _open_tun(name: str) -> int:
    """A TUN device `name` in the calling thread's namespace, raw IP packets (no packet info header)."""
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    os.set_blocking(fd, False)
    return fd


def socket_in(netns: str, family: int = socket.AF_INET, kind: int = socket.SOCK_STREAM) -> socket.socket:
    """A new socket that lives in `netns` (created by a thread that enters it and then ends)."""
    made: list[socket.socket | BaseException] = []

    def make() -> None:
        try:
            _setns(netns)
            made.append(socket.socket(family, kind))
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            made.append(e)

    t = threading.Thread(target=make, name=f"socket-in-{netns}")
    t.start()
    t.join()
    if isinstance(made[0], BaseException):
        raise made[0]
    return made[0]


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


@dataclass
class DelayLine:
    """A running wire between `server_ns` and `client_ns`; `one_way_ms` each way (round trip twice it)."""

    server_ns: str
    client_ns: str
    one_way_ms: float
    proc: subprocess.Popen | None = None
    sockets: list[socket.socket] = field(default_factory=list)

    server_ip: str = SERVER_IP
    client_ip: str = CLIENT_IP

    def set_delay(self, one_way_ms: float) -> None:
        """A new one-way delay for packets read from now on."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(f"{one_way_ms}\n")
        self.proc.stdin.flush()
        self.one_way_ms = one_way_ms
        time.sleep(0.05 + 2 * one_way_ms / 1000)  # packets already on the wire keep their old delay

    def listen(self, port: int = 0, backlog: int = 512) -> socket.socket:
        """A listening TCP socket at `server_ip` in the server namespace (inheritable: daphne `--fd`)."""
        s = socket_in(self.server_ns)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((self.server_ip, port))
        s.listen(backlog)
        s.set_inheritable(True)
        self.sockets.append(s)
        return s

    def client_socket(self) -> socket.socket:
        """An unconnected TCP socket in the client namespace: connect it to `server_ip`."""
        return socket_in(self.client_ns)


def _run_wire(server_ns: str, client_ns: str, server_if: str, client_if: str, one_way_ms: float, control: IO[str]) -> None:
    """The wire itself (in its own process): packets from either TUN go out of the other one_way_ms later."""
    _setns(server_ns)
    fs = _open_tun(server_if)
    _setns(client_ns)
    fc = _open_tun(client_if)
    other = {fs: fc, fc: fs}
    delay = one_way_ms / 1000
    queue: list[tuple[float, int, int, bytes]] = []  # (due, order, out fd, packet)
    order = 0
    print("ready", flush=True)
    ctl = control.fileno()
    while True:
        timeout = max(0.0, queue[0][0] - time.monotonic()) if queue else None
        ready, _, _ = select.select([fs, fc, ctl], [], [], timeout)
        now = time.monotonic()
        for fd in ready:
            if fd == ctl:
                line = control.readline()
                if not line:
                    return  # the test ended: the devices go with the descriptors
                delay = float(line) / 1000
                continue
            while True:
                try:
                    packet = os.read(fd, MTU + 64)
                except BlockingIOError:
                    break
                heapq.heappush(queue, (now + delay, order, other[fd], packet))
                order += 1
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, out, packet = heapq.heappop(queue)
            with contextlib.suppress(OSError):  # a device going down: the packet is lost, as on a wire
                os.write(out, packet)


@contextlib.contextmanager
def delay_line(one_way_ms: float) -> Iterator[DelayLine]:
    """Two fresh namespaces, the wire between them, addresses up; everything removed on exit."""
    reason = unavailable()
    if reason is not None:
        raise RuntimeError(reason)
    tag = secrets.token_hex(3)
    srv, cli = f"dls{tag}", f"dlc{tag}"
    srv_if, cli_if = f"tuns{tag}", f"tunc{tag}"
    _ip("netns", "add", srv)
    line = DelayLine(server_ns=srv, client_ns=cli, one_way_ms=one_way_ms)
    try:
        _ip("netns", "add", cli)
        line.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.delayline", srv, cli, srv_if, cli_if, str(one_way_ms)],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        assert line.proc.stdout is not None
        if line.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("the delay line did not start")
        for ns, dev, mine, peer in ((srv, srv_if, SERVER_IP, CLIENT_IP), (cli, cli_if, CLIENT_IP, SERVER_IP)):
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "addr", "add", mine, "peer", peer, "dev", dev)
            _ip("-n", ns, "link", "set", dev, "up")
        yield line
    finally:
        for s in line.sockets:
            s.close()
        if line.proc is not None:
            with contextlib.suppress(Exception):
                assert line.proc.stdin is not None
                line.proc.stdin.close()
            try:
                line.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                line.proc.kill()
                line.proc.wait(timeout=5)
        for ns in (srv, cli):
            subprocess.run(["ip", "netns", "del", ns], check=False, capture_output=True)



@pytest.fixture
def delayline() -> Iterator[DelayLine]:
    """A fresh delay line of 40 ms each way (80 ms round trip); skips, saying why, only without root or TUN.

    A test module uses it with `from tests.support.delayline import delayline  # noqa: F401`.
    """
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    with delay_line(40.0) as line:
        yield line


if __name__ == "__main__":
    _run_wire(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), sys.stdin)
