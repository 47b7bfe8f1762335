"""A stack (daphne + Celery) reachable directly on 127.0.0.1 and through a namespace delay line.

Shared by the race benchmarks (`tools.loadtest.races`, `tools.loadtest.fair_play`): the delay line
(tests/support/delayline.py) gives the kernel's TCP a real round trip, which an application-level
proxy would hide from the server's transport bound.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.integration import stack as stack_module
from tests.integration.stack import Stack, stack
from tests.support.delayline import DelayLine, delay_line

ONE_WAY_MS = 40.0


@dataclass
class Platform:
    """A running stack whose daphne also listens in the delay line's server namespace."""

    s: Stack
    line: DelayLine
    line_port: int

    @property
    def line_ws(self) -> str:
        return f"ws://{self.line.server_ip}:{self.line_port}"

    def line_socket(self) -> Callable[[], socket.socket]:
        def connect() -> socket.socket:
            sock = self.line.client_socket()
            sock.connect((self.line.server_ip, self.line_port))
            return sock

        return connect

    def rtt_inflated(self, username: str) -> int:
        """The player's fair-play record's `rtt_inflated`, read in the stack's own database."""
        code = (
            "from moderation.models import FairPlayRecord; "
            f"print(FairPlayRecord.objects.filter(user__username={username!r}).values_list('rtt_inflated', flat=True).first() or 0)"
        )
        try:
            return int(self.s.manage("shell", "-c", code).strip().splitlines()[-1])
        except Exception:  # noqa: BLE001 - an older checkout has no such record
            return -1


@contextlib.contextmanager
def platform(services: bool, root: Path | None = None) -> Iterator[Platform]:
    """The stack (daphne + Celery) reachable directly on 127.0.0.1 and through an 80 ms delay line."""
    if root is not None:
        stack_module.ROOT = root
    before = os.environ.get("ALLOWED_HOSTS")
    os.environ["ALLOWED_HOSTS"] = "localhost,127.0.0.1,[::1],testserver,169.254.80.1"  # the stack's env is a copy
    try:
        with delay_line(ONE_WAY_MS) as line:
            listener = line.listen()
            with stack(services=services, web=0, worker=False) as s:
                try:
                    s.start_web(fd=listener.fileno())
                    s.start_worker()
                    yield Platform(s=s, line=line, line_port=listener.getsockname()[1])
                except BaseException:
                    print(s.log_text(), file=sys.stderr)
                    raise
    finally:
        if before is None:
            os.environ.pop("ALLOWED_HOSTS", None)
        else:
            os.environ["ALLOWED_HOSTS"] = before
