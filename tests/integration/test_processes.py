"""The platform as users run it: real daphne and Celery processes, real sockets.

- embedded default: SQLite, in-memory layer, filesystem broker; timers and bots
  run in the worker process and reach the sockets (the README's run command);
- production services: two daphne processes on PostgreSQL + Redis, the players
  of one table on different processes receive the same consecutive events.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import pytest
import websockets

from tests.integration.stack import api, register, stack

pytestmark = [pytest.mark.processes]

needs_services = pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")),
    reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: run through .ci/run",
)


async def follow(url: str, until_finished: bool, timeout: float, min_events: int = 0) -> dict[str, Any]:
    """Read a table socket; check seqs are consecutive; stop at the end or after `min_events`."""
    events: list[dict[str, Any]] = []
    last = None
    view = None
    async with websockets.connect(url) as ws:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - loop.time())))
            except TimeoutError:
                break
            if msg["type"] == "hello":
                last, view = msg["seq"], msg["view"]
            elif msg["type"] == "events":
                assert msg["events"][0]["seq"] == last + 1, f"gap: {msg['events'][0]['seq']} after {last}"
                assert [e["seq"] for e in msg["events"]] == list(range(last + 1, msg["seq"] + 1))
                events.extend(msg["events"])
                last, view = msg["seq"], msg["view"]
                if until_finished and view.get("finished"):
                    break
                if min_events and len(events) >= min_events:
                    break
    return {"events": events, "last": last, "view": view}


@pytest.mark.core
def test_embedded_default_runs_bots_and_timers_in_the_worker() -> None:
    with stack(services=False) as s:
        try:
            token = register(s.url(), "watcher")
            table = api(s.url(), "POST", "/api/tables/", {"game": "smackit", "seats": 3, "sit": False, "options": {"max_minutes": 1}}, token)
            for level in ("easy", "normal", "hard"):
                api(s.url(), "POST", f"/api/tables/{table['id']}/bots/", {"level": level}, token)
            api(s.url(), "POST", f"/api/tables/{table['id']}/start/", {}, token)
            seen = asyncio.run(follow(f"{s.ws()}/ws/tables/{table['id']}/?token={token}", True, 120))
            assert seen["view"]["finished"], "the one-minute limit (a timer) or the bots end the match"
            assert len(seen["events"]) > 10
            match_id = api(s.url(), "GET", f"/api/tables/{table['id']}/")["match"]
            summary = api(s.url(), "GET", f"/api/matches/{match_id}/")
            assert summary["status"] == "finished" and summary["outcome"]["winners"]
        except BaseException:
            print(s.log_text())
            raise


@needs_services
@pytest.mark.services
def test_two_daphne_processes_deliver_the_same_consecutive_events() -> None:
    with stack(services=True, web=2) as s:
        try:
            host = register(s.url(0), "host")
            guest = register(s.url(1), "guest")
            table = api(s.url(0), "POST", "/api/tables/", {"game": "smackit", "seats": 4, "options": {"max_minutes": 1, "auto_flip_seconds": 1}}, host)
            api(s.url(1), "POST", f"/api/tables/{table['id']}/join/", {}, guest)
            for _ in range(2):
                api(s.url(0), "POST", f"/api/tables/{table['id']}/bots/", {"level": "hard"}, host)

            async def run() -> list[dict[str, Any]]:
                a = asyncio.create_task(follow(f"{s.ws(0)}/ws/tables/{table['id']}/?token={host}", True, 120))
                b = asyncio.create_task(follow(f"{s.ws(1)}/ws/tables/{table['id']}/?token={guest}", True, 120))
                await asyncio.sleep(1.0)
                await asyncio.to_thread(api, s.url(1), "POST", f"/api/tables/{table['id']}/start/", {}, host)
                return [await a, await b]

            a, b = asyncio.run(run())
            assert a["view"]["finished"] and b["view"]["finished"]
            assert [e["seq"] for e in a["events"]] == [e["seq"] for e in b["events"]]
            assert [e.get("kind") for e in a["events"]] == [e.get("kind") for e in b["events"]]
            assert len(a["events"]) > 10
        except BaseException:
            print(s.log_text())
            raise
