"""A TCP proxy that delays every byte by a fixed one-way time: a far player's line, without root.

`tc netem` needs network namespaces and privileges a CI runner may not give;
this gives the same thing for one client: bytes read from either side are
written to the other `delay_ms` later, in order (a line with latency and no
loss, like a long but healthy internet path). `delayed` runs it in a process
of its own (an event loop in a thread of the clients' process would wait for
their GIL and add jitter of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class DelayProxy:
    """Listens on 127.0.0.1:`port` and forwards to `target_port`, each direction `delay_ms` late."""

    def __init__(self, target_port: int, delay_ms: float, host: str = "127.0.0.1") -> None:
        self.target = (host, target_port)
        self.delay_s = max(0.0, delay_ms) / 1000
        self.host = host
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name=f"delay-proxy-{delay_ms}ms", daemon=True)
        self.ready = threading.Event()
        self.server: asyncio.AbstractServer | None = None

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._client, self.host, 0))
        self.port = self.server.sockets[0].getsockname()[1]
        self.ready.set()
        self.loop.run_forever()

    async def _client(self, down_r: asyncio.StreamReader, down_w: asyncio.StreamWriter) -> None:
        try:
            up_r, up_w = await asyncio.open_connection(*self.target)
        except OSError:
            down_w.close()
            return
        with contextlib.suppress(asyncio.CancelledError):  # the proxy is shutting down
            await asyncio.gather(self._pipe(down_r, up_w), self._pipe(up_r, down_w), return_exceptions=True)
        for w in (up_w, down_w):
            with contextlib.suppress(Exception):
                w.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Copy one direction; each chunk leaves `delay_s` after it came in (a queue keeps the order)."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()
            with contextlib.suppress(Exception):
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                writer.close()

        sender = asyncio.create_task(send())
        try:
            while True:
                data = await reader.read(65536)
                queue.put_nowait((time.monotonic() + self.delay_s, data))
                if not data:
                    break
        except (ConnectionError, OSError):
            queue.put_nowait((time.monotonic(), b""))
        with contextlib.suppress(Exception):
            await sender

    def start(self) -> DelayProxy:
        self.thread.start()
        self.ready.wait(10)
        return self

    async def _shutdown(self) -> None:
        if self.server is not None:
            self.server.close()
        tasks = [t for t in asyncio.all_tasks(self.loop) if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.loop.stop()

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop)
        self.thread.join(10)
        if not self.thread.is_alive():
            self.loop.close()


@dataclass
class ProxyProcess:
    """The proxy in a process of its own: the clients' own work (and their GIL) cannot hold its bytes up."""

    port: int
    process: subprocess.Popen[str]


@contextlib.contextmanager
def delayed(target_port: int, delay_ms: float) -> Iterator[ProxyProcess]:
    """A proxy for the block: `proxy.port` reaches `target_port` with `delay_ms` each way."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.delayproxy", str(target_port), str(delay_ms)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    try:
        line = process.stdout.readline() if process.stdout else ""
        if not line.strip().isdigit():
            raise RuntimeError(f"the delay proxy did not start: {line!r}")
        yield ProxyProcess(int(line), process)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


if __name__ == "__main__":  # python -m tests.support.delayproxy TARGET_PORT DELAY_MS: prints its port, runs until killed
    proxy = DelayProxy(int(sys.argv[1]), float(sys.argv[2])).start()
    print(proxy.port, flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    proxy.stop()
