"""A session ends on every web process at once: two daphne processes on PostgreSQL + Redis.

The player's sockets are open on both processes; the log-out (or the password change) is
answered by the first; the sockets on both close with 4401 within a second, through the one
process-wide group every process listens on (live/sessions.py). Before: only a new connection
was refused; the open sockets played on.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import urllib.request
from typing import Any

import pytest
import websockets

from tests.integration.stack import api, register, stack

pytestmark = [pytest.mark.processes]

needs_services = pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")),
    reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL",
)


def status_of(base: str, method: str, path: str, body: dict[str, Any] | None, token: str) -> int:
    """A REST call's status (a 204 has no body for `api` to read)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"Token {token}"}
    with urllib.request.urlopen(urllib.request.Request(base + path, data=data, headers=headers, method=method), timeout=30) as r:
        return r.status


@needs_services
def test_log_out_and_a_password_change_close_the_sockets_on_both_processes() -> None:
    with stack(services=True, web=2, worker=False) as s:
        try:
            token = register(s.url(0), "leaver")
            other = register(s.url(0), "stayer")
            table = api(s.url(0), "POST", "/api/tables/", {"game": "zack", "seats": 3}, token)
            api(s.url(0), "POST", f"/api/tables/{table['id']}/join/", {}, other)

            async def run(token: str, trigger: Any) -> list[tuple[int | None, float]]:
                # One socket on each process, opened first; then the trigger; both must close.
                sockets = [await websockets.connect(f"{s.ws(i)}/ws/tables/{table['id']}/?token={token}") for i in (0, 1)]
                watcher = await websockets.connect(f"{s.ws(1)}/ws/tables/{table['id']}/?token={other}")
                for ws in (*sockets, watcher):
                    while '"hello"' not in await asyncio.wait_for(ws.recv(), 10):
                        pass
                await asyncio.sleep(0.3)  # both processes' listeners joined the group
                started = time.monotonic()
                await asyncio.to_thread(trigger)
                out = []
                for ws in sockets:
                    try:
                        while True:
                            await asyncio.wait_for(ws.recv(), 5)
                    except websockets.ConnectionClosed as e:
                        out.append((e.rcvd.code if e.rcvd else None, time.monotonic() - started))
                await watcher.send('{"type": "ping"}')  # the other player's socket on process 1 stays open
                while '"pong"' not in await asyncio.wait_for(watcher.recv(), 5):
                    pass
                await watcher.close()
                return out

            closed = asyncio.run(run(token, lambda: status_of(s.url(0), "POST", "/api/auth/logout/", None, token)))
            assert [code for code, _ in closed] == [4401, 4401] and all(t < 1.0 for _, t in closed), closed

            fresh = api(s.url(1), "POST", "/api/auth/token/", {"username": "leaver", "password": "correct horse 42"})["token"]
            change = {"old_password": "correct horse 42", "new_password": "another horse 43"}
            closed = asyncio.run(run(fresh, lambda: api(s.url(0), "POST", "/api/me/password/", change, fresh)))
            assert [code for code, _ in closed] == [4401, 4401] and all(t < 1.0 for _, t in closed), closed
        except BaseException:
            print(s.log_text())
            raise
