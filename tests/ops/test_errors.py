"""Error reporting: nothing without SENTRY_DSN; with it, an error reaches the DSN's server (a real HTTP one here)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (
    "import django; django.setup(); import sentry_sdk; "
    "print('client', sentry_sdk.get_client().is_active()); "
    "sentry_sdk.capture_exception(RuntimeError('reported-by-test')); sentry_sdk.flush(5)"
)


class Inbox(BaseHTTPRequestHandler):
    received: list[tuple[str, bytes]] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        Inbox.received.append((self.path, body))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


def run(**env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SENTRY_")}
    environment.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=environment, capture_output=True, text=True, check=True, timeout=60).stdout


def test_no_dsn_no_reporting() -> None:
    assert "client False" in run()


def test_an_error_reaches_the_dsn() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Inbox)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        Inbox.received.clear()
        out = run(SENTRY_DSN=f"http://publickey@127.0.0.1:{server.server_port}/42", SENTRY_ENVIRONMENT="test")
    finally:
        server.shutdown()
    assert "client True" in out
    assert any(path.startswith("/api/42/") and b"reported-by-test" in body for path, body in Inbox.received), Inbox.received
