"""Real processes for integration tests: daphne web processes and a Celery worker.

Each stack gets its own database (a temporary SQLite file, or a fresh
PostgreSQL database when DATABASE_URL points at a server) and its own
`VAR_DIR`, so it never touches the pytest test database or the developer's.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


_ADOPT = (
    "import os, sys; os.dup2(int(sys.argv[1]), 3); os.environ.update(LISTEN_PID=str(os.getpid()), LISTEN_FDS='1', LISTEN_FDNAMES='web'); "
    "os.execv(sys.argv[2], sys.argv[2:])"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Stack:
    env: dict[str, str]
    ports: list[int] = field(default_factory=list)
    web: list[subprocess.Popen] = field(default_factory=list)
    worker: subprocess.Popen | None = None
    logs: Path = Path(".")

    def url(self, i: int = 0) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def ws(self, i: int = 0) -> str:
        return f"ws://127.0.0.1:{self.ports[i]}"

    def start_web(self, port: int | None = None, fd: int | None = None) -> int:
        """A daphne on 127.0.0.1:`port`, and also on the listening socket `fd` when given (another namespace's)."""
        port = port or free_port()
        log = open(self.logs / f"daphne-{port}.log", "ab")
        cmd = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
        if fd is not None:
            # Twisted adopts an inherited listening socket the systemd way (fd 3, LISTEN_PID, LISTEN_FDS, _FDNAMES): a small
            # exec wrapper puts it there under daphne's own pid.
            cmd[-1:] = ["-e", "systemd:domain=INET:index=0", "config.asgi:application"]
            cmd = [PYTHON, "-c", _ADOPT, str(fd), *cmd]
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, pass_fds=() if fd is None else (fd,),
        )
        self.web.append(proc)
        self.ports.append(port)
        wait_http(f"http://127.0.0.1:{port}/health/")
        return port

    def start_worker(self) -> None:
        env = dict(self.env)
        if not env.get("REDIS_URL"):
            env["CHANNEL_RELAY_URL"] = f"{self.url(0)}/internal/relay/"
        log = open(self.logs / "worker.log", "ab")
        self.worker = subprocess.Popen(
            [PYTHON, "-m", "celery", "-A", "config", "worker", "--beat", "--loglevel", "info", "--concurrency", "2",
             "--schedule", str(Path(env["VAR_DIR"]) / "beat-schedule")],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its pool and beat children go with it (killpg)
        )

    def stop_worker(self, sig: int = signal.SIGKILL) -> None:
        if self.worker is not None:
            try:
                os.killpg(self.worker.pid, sig)
            except ProcessLookupError:
                pass
            self.worker.wait(timeout=30)
            self.worker = None

    def manage(self, *args: str) -> str:
        return subprocess.run(
            [PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, check=True, capture_output=True, text=True
        ).stdout

    def log_text(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-4000:]}" for p in sorted(self.logs.glob("*.log")))


def wait_http(url: str, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except (OSError, urllib.error.URLError):
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer")


def _fresh_postgres(url: str) -> tuple[str, str]:
    import psycopg

    name = f"cardtables_e2e_{os.getpid()}_{int(time.time() * 1000) % 100000}"
    base, _, _ = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}", name


def _drop_postgres(url: str, name: str) -> None:
    import psycopg

    base, _, _ = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def stack(services: bool, web: int = 1, worker: bool = True) -> Iterator[Stack]:
    """`services`: PostgreSQL + Redis from the environment; otherwise the embedded default."""
    tmp = Path(tempfile.mkdtemp(prefix="cardtables-e2e-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CHANNEL_RELAY_URL")}
    env.update(VAR_DIR=str(tmp), PYTHONUNBUFFERED="1", LOG_LEVEL="INFO")
    # Every test player signs up and logs in from 127.0.0.1: the per-address rates (tested in
    # tests/security) would stop a session's worth of them.
    env.update(SIGNUP_RATE="100000/hour", LOGIN_RATE="100000/hour")
    pg: tuple[str, str] | None = None
    if not services:
        # As bin/run on a fresh machine: no SECRET_KEY, the processes share the one generated in VAR_DIR.
        env.pop("SECRET_KEY", None)
    else:
        env.setdefault("SECRET_KEY", f"test-{secrets.token_urlsafe(40)}")  # production refuses to start without
        pg = _fresh_postgres(os.environ["DATABASE_URL"])
        redis = os.environ["REDIS_URL"].rsplit("/", 1)[0]
        # Databases of its own, so stacks started side by side do not take each other's tasks.
        # STACK_REDIS_DBS="a,b" pins them (parallel runs on one machine must not share a DB).
        pinned = os.environ.get("STACK_REDIS_DBS")
        layer_db, broker_db = (int(x) for x in pinned.split(",")) if pinned else random.sample(range(2, 16), 2)
        env.update(DATABASE_URL=pg[0], REDIS_URL=f"{redis}/{layer_db}", CELERY_BROKER_URL=f"{redis}/{broker_db}")
        subprocess.run(["redis-cli", "-u", f"{redis}/{broker_db}", "flushdb"], check=False, capture_output=True)
    s = Stack(env=env, logs=tmp)
    failed = False
    try:
        s.manage("migrate", "--noinput", "-v0")
        for _ in range(web):
            s.start_web()
        if worker:
            s.start_worker()
        yield s
    except BaseException:
        failed = True  # keep the logs and the database file for a look
        raise
    finally:
        s.stop_worker()
        for p in s.web:
            p.kill()
            p.wait(timeout=30)
        if pg is not None:
            _drop_postgres(os.environ["DATABASE_URL"], pg[1])
        if not failed:
            shutil.rmtree(tmp, ignore_errors=True)


def api(base: str, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(), headers=headers, method=method)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def register(base: str, name: str) -> str:
    return api(base, "POST", "/api/auth/register/", {"username": name, "password": "correct horse 42"})["token"]
