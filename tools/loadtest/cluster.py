"""The production configuration as real processes, for the load benchmark and the fault tests.

Builds on tests/integration/stack.py (its `Stack`, fresh-database and HTTP
helpers) and adds what measuring and breaking the platform needs:

- the worker's log level and concurrency are chosen (a benchmark must not
  spend its CPU writing a line per task);
- a web process can be SIGKILLed and the worker restarted;
- Redis may be a private `redis-server` on a free port (`RedisServer`), so a
  test can restart it without touching the shared one on 6379;
- the processes may reach PostgreSQL through a different address than the
  one used to create the database (a cuttable proxy, `PgProxy`).

Only loopback addresses are used anywhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.integration.stack import PYTHON, ROOT, Stack, _drop_postgres, _fresh_postgres, free_port, wait_http

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/cardtables"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def services_available() -> bool:
    """PostgreSQL and Redis are configured (DATABASE_URL, REDIS_URL) as the `services` tests need."""
    return os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(os.environ.get("REDIS_URL"))


@dataclass
class Cluster(Stack):
    worker_loglevel: str = "warning"
    worker_concurrency: int = 2
    web_env: dict[str, str] | None = None  # the web processes' own environment (a proxied DATABASE_URL)

    def start_web(self, port: int | None = None) -> int:
        if self.web_env is None:
            return super().start_web(port)
        shared, self.env = self.env, self.web_env
        try:
            return super().start_web(port)
        finally:
            self.env = shared

    def start_worker(self) -> None:
        env = dict(self.env)
        log = open(self.logs / "worker.log", "ab")
        self.worker = subprocess.Popen(
            [PYTHON, "-m", "celery", "-A", "config", "worker", "--beat", "--loglevel", self.worker_loglevel,
             "--concurrency", str(self.worker_concurrency), "--schedule", str(Path(env["VAR_DIR"]) / "beat-schedule")],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )

    def kill_worker(self) -> None:
        """SIGKILL the Celery worker as in a crash, with its pool and its beat (a child that would outlive it)."""
        if self.worker is None:
            return
        import psutil

        try:
            family = psutil.Process(self.worker.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            family = []
        for _ in range(3):
            self.worker.kill()
            try:
                self.worker.wait(timeout=20)
                break
            except subprocess.TimeoutExpired:
                continue
        self.worker = None
        for child in family:
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()
        psutil.wait_procs(family, timeout=10)

    def stop_worker(self, sig: int = signal.SIGKILL) -> None:
        self.kill_worker()

    def kill_web(self, i: int) -> None:
        """SIGKILL web process `i`: no close frames, no disconnect handlers, as in a crash."""
        proc = self.web[i]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)

    def pids(self) -> dict[str, list[int]]:
        out = {"daphne": [p.pid for p in self.web if p.poll() is None]}
        if self.worker is not None and self.worker.poll() is None:
            out["celery"] = [self.worker.pid]
        return out


class RedisServer:
    """A private redis-server on a free loopback port; `restart` loses everything it held."""

    def __init__(self, logs: Path) -> None:
        self.port = free_port()
        self.logs = logs
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        log = open(self.logs / f"redis-{self.port}.log", "ab")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=log, stderr=subprocess.STDOUT,
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise TimeoutError(f"redis-server on {self.port} did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None

    def restart(self, down_s: float = 0.5) -> None:
        self.stop()
        time.sleep(down_s)
        self.start()


class PgProxy:
    """A TCP relay between the web processes and PostgreSQL that a test can cut.

    `arm(pattern)` cuts the first connection whose client sends bytes
    containing `pattern` (for example the `FOR UPDATE` of `action_submit`),
    before those bytes reach the server: the transaction dies mid-action and
    PostgreSQL rolls it back. `cut_all()` drops every open connection.
    """

    def __init__(self, target_port: int = 5432) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        self.armed: bytes | None = None
        self.cuts = 0
        self.stopping = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def arm(self, pattern: bytes) -> None:
        with self.lock:
            self.armed = pattern

    def _serve(self) -> None:
        sel = selectors.DefaultSelector()
        sel.register(self.listener, selectors.EVENT_READ, None)
        while not self.stopping:
            for key, _ in sel.select(timeout=0.1):
                if key.data is None:
                    client, _ = self.listener.accept()
                    try:
                        server = socket.create_connection(self.target, timeout=5)
                    except OSError:
                        client.close()
                        continue
                    with self.lock:
                        self.pairs.append((client, server))
                    sel.register(client, selectors.EVENT_READ, (client, server, True))
                    sel.register(server, selectors.EVENT_READ, (server, client, False))
                    continue
                src, dst, upstream = key.data
                try:
                    data = src.recv(65536)
                except OSError:
                    data = b""
                if data and upstream:
                    with self.lock:
                        hit = self.armed is not None and self.armed in data
                        if hit:
                            self.armed = None
                            self.cuts += 1
                    if hit:
                        data = b""
                if not data:
                    self._close(sel, src, dst)
                    continue
                try:
                    dst.sendall(data)
                except OSError:
                    self._close(sel, src, dst)
        sel.close()

    def _close(self, sel: selectors.BaseSelector, a: socket.socket, b: socket.socket) -> None:
        for s in (a, b):
            with contextlib.suppress(KeyError, ValueError, OSError):
                sel.unregister(s)
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        with self.lock:
            self.pairs = [p for p in self.pairs if a not in p]

    def cut_all(self) -> None:
        with self.lock:
            pairs = list(self.pairs)
        for a, b in pairs:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.stopping = True
        self.thread.join(timeout=5)
        self.listener.close()


@contextlib.contextmanager
def cluster(
    *,
    web: int = 1,
    worker: bool = True,
    database_url: str | None = None,
    redis_url: str | None = None,
    private_redis: bool = True,
    pg_proxy: bool = False,
    worker_loglevel: str = "warning",
    worker_concurrency: int = 2,
    log_level: str = "WARNING",
    extra_env: dict[str, str] | None = None,
    keep_logs: bool = False,
) -> Iterator[tuple[Cluster, RedisServer | None, PgProxy | None]]:
    """PostgreSQL (a fresh database, dropped afterwards) + Redis + daphne x `web` + a Celery worker with beat.

    Redis is a private redis-server by default: clusters (and other engineers' test
    stacks) sharing one Redis database would hear each other's `table-1` groups and
    Celery tasks.
    """
    database_url = database_url or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = redis_url or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    tmp = Path(tempfile.mkdtemp(prefix="cardtables-cluster-"))
    redis: RedisServer | None = None
    proxy: PgProxy | None = None
    pg = _fresh_postgres(database_url)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CHANNEL_RELAY_URL")}
    env.update(VAR_DIR=str(tmp), PYTHONUNBUFFERED="1", LOG_LEVEL=log_level)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env.setdefault("SECRET_KEY", f"test-{secrets.token_urlsafe(40)}")  # the production configuration needs one
    # One load client on one address stands for thousands of players on as many lines: the per-address
    # caps (docs/security.md "Limits") would refuse it after 60 sockets. Per-socket and per-account limits stay.
    env.setdefault("WS_MAX_SOCKETS_PER_ADDRESS", "1000000")
    env.setdefault("WS_ADDRESS_MESSAGES_PER_SECOND", "0")
    if private_redis:
        redis = RedisServer(tmp)
        redis.start()
        base = redis.url
    else:
        base = redis_url.rsplit("/", 1)[0]
    env.update(DATABASE_URL=pg[0], REDIS_URL=f"{base}/5", CELERY_BROKER_URL=f"{base}/6")
    env.update(extra_env or {})
    subprocess.run(["redis-cli", "-u", f"{base}/6", "flushdb"], check=False, capture_output=True)
    s = Cluster(env=env, logs=tmp, worker_loglevel=worker_loglevel, worker_concurrency=worker_concurrency)
    try:
        s.manage("migrate", "--noinput", "-v0")
        if pg_proxy:
            parts = urlsplit(pg[0])
            proxy = PgProxy(parts.port or 5432)
            userinfo = parts.netloc.rpartition("@")[0]
            netloc = f"{userinfo}@127.0.0.1:{proxy.port}" if userinfo else f"127.0.0.1:{proxy.port}"
            s.web_env = dict(s.env, DATABASE_URL=urlunsplit(parts._replace(netloc=netloc)))
        for _ in range(web):
            s.start_web()
        if worker:
            s.start_worker()
        yield s, redis, proxy
    except BaseException:
        keep_logs = True
        print(s.log_text(), file=sys.stderr)
        raise
    finally:
        s.stop_worker()
        for p in s.web:
            if p.poll() is None:
                p.kill()
            p.wait(timeout=30)
        if proxy is not None:
            proxy.close()
        if redis is not None:
            redis.stop()
        _drop_postgres(database_url, pg[1])
        if not keep_logs:
            shutil.rmtree(tmp, ignore_errors=True)


def run_script(s: Stack, code: str, timeout: float = 300) -> str:
    """Run Python with Django set up in the cluster's environment (bulk fixtures); returns stdout."""
    prologue = "import django\ndjango.setup()\n"
    out = subprocess.run([PYTHON, "-c", prologue + code], cwd=ROOT, env=s.env, check=True, capture_output=True, text=True, timeout=timeout)
    return out.stdout


USERS_SCRIPT = """
import json
from accounts.models import User
from rest_framework.authtoken.models import Token
users = User.objects.bulk_create([User(username=f"{PREFIX}{i}", password="!") for i in range(N)])
tokens = Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in users])
print(json.dumps([t.key for t in tokens]))
"""


def make_tokens(s: Stack, n: int, prefix: str = "load") -> list[str]:
    """n players with API tokens, made in bulk (a thousand sign-ups over HTTP would time password hashing)."""
    code = f"N, PREFIX = {n}, {prefix!r}\n" + USERS_SCRIPT
    return json.loads(run_script(s, code).strip().splitlines()[-1])


def wait_until(predicate: Callable[[], bool], timeout: float, interval: float = 0.1) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


__all__ = ["Cluster", "make_tokens", "PgProxy", "RedisServer", "cluster", "free_port", "run_script", "services_available", "wait_http", "wait_until"]
