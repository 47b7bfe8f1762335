"""Hole 2 "Forged relay messages", as the attacks.

Before: `/internal/relay/` took any group message signed with a key derived from a
SECRET_KEY written in the source, from "loopback" (every client of a proxy on the same
host), and delivered it as is; `websocket.close` closed sockets and a forged
`table.changed` made a watcher a seat's player (its hidden cards, its moves). Now the
key is the installation's own, the relay carries only the platform's message types
with their shapes, sealed bodies are not replayable, the endpoint exists only on the
embedded default, and a socket's seat comes from the database only.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import RequestFactory
from django.utils.crypto import salted_hmac

from games import selectors
from games.services.chat import chat_post
from games.services.tables import table_create, table_leave
from live import broadcast, relay_endpoint
from live.relay_layer import RelayChannelLayer
from live.relay_protocol import MESSAGES, RELAY_SALT, SIGNATURE_HEADER, Replays, open_sealed
from tests.games.factories import started_table, user
from tests.support.simulate import visible_ids

pytestmark = [pytest.mark.core]

PUBLISHED_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production"  # the old default in config/settings.py
ROOT = Path(__file__).resolve().parents[2]


def seal_with(key: str, group: str, message: dict[str, Any], *, sent_at: float | None = None, nonce: str | None = None) -> tuple[bytes, str]:
    """A relay body as live/relay_protocol.seal makes it, but under any key, time and nonce."""
    envelope = {"group": group, "message": message, "sent_at": time.time() if sent_at is None else sent_at, "nonce": nonce or secrets.token_hex(16)}
    body = json.dumps(envelope).encode()
    return body, salted_hmac(RELAY_SALT, body, secret=key, algorithm="sha256").hexdigest()


def old_scheme(key: str, group: str, message: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    """What the old endpoint accepted: a fixed token derived from SECRET_KEY, any body."""
    token = hmac.new(key.encode(), b"channel-relay", hashlib.sha256).hexdigest()
    return json.dumps({"group": group, "message": message}).encode(), {"X-Relay-Token": token}


def chat(text: str) -> dict[str, Any]:
    return {"type": "chat.message", "message": {"user": "system", "text": text, "at": "2025-01-01T00:00:00+00:00"}}


@pytest.fixture
def memory_layer(settings: Any) -> Any:
    """The embedded default's layer, whatever the run's configuration (the endpoint only exists there)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return get_channel_layer()


async def post(body: bytes, headers: dict[str, str], remote: str = "127.0.0.1") -> int:
    meta = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
    request = RequestFactory().post("/internal/relay/", data=body, content_type="application/json", REMOTE_ADDR=remote, **meta)
    return (await relay_endpoint.channel_relay(request)).status_code


async def next_delivered(layer: Any, channel: str, group: str) -> dict[str, Any]:
    """The first message waiting on `channel`, after a marker sent now: a forgery delivered earlier comes first."""
    await layer.group_send(group, chat("marker"))
    return await asyncio.wait_for(layer.receive(channel), 5)


async def subscribed(layer: Any, group: str) -> str:
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


# --- the endpoint --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_old_token_of_the_published_key_closes_no_socket(memory_layer: Any) -> None:
    channel = await subscribed(memory_layer, "table-1")
    body, headers = old_scheme(PUBLISHED_KEY, "table-1", {"type": "websocket.close", "code": 1000})
    assert await post(body, headers) == 403
    assert (await next_delivered(memory_layer, channel, "table-1"))["message"]["text"] == "marker"


@pytest.mark.asyncio
@pytest.mark.parametrize("key", [PUBLISHED_KEY, "a-guessed-key", ""])
async def test_a_body_sealed_without_the_installations_key_is_refused(memory_layer: Any, key: str) -> None:
    channel = await subscribed(memory_layer, "table-1")
    body, signature = seal_with(key, "table-1", chat("forged"))
    assert await post(body, {SIGNATURE_HEADER: signature}) == 403
    assert await post(body, {}) == 403
    assert (await next_delivered(memory_layer, channel, "table-1"))["message"]["text"] == "marker"


TABLE = {"id": 1, "players": [{"seat": 0, "username": "mallory", "bot": False}], "match": None}

FORGERIES = {
    "close a socket": ("table-1", {"type": "websocket.close", "code": 1000}),
    "raw frame": ("table-1", {"type": "websocket.send", "text": "{\"type\":\"events\"}"}),
    "accept": ("table-1", {"type": "websocket.accept"}),
    "unknown type": ("table-1", {"type": "admin.grant", "user": "mallory"}),
    "no type": ("table-1", {"table": TABLE}),
    "another table's players": ("table-1", {"type": "table.changed", "table": {**TABLE, "id": 2}}),
    "table message to the lobby group": ("lobby", {"type": "chat.message", "message": chat("x")["message"]}),
    "a group the platform has not": ("admins", {"type": "lobby.removed", "table_id": 1}),
    "an extra field": ("table-1", {**chat("x"), "seat": 0}),
    "a seat in the chat": ("table-1", {"type": "chat.message", "message": {**chat("x")["message"], "seat": 0}}),
    "events out of order": ("table-1", {"type": "match.events", "match": 1, "events": [{"seq": 3, "kind": "a"}, {"seq": 2, "kind": "b"}], "state": {}}),
    "no events": ("table-1", {"type": "match.events", "match": 1, "events": [], "state": {}}),
    "a boolean id": ("lobby", {"type": "lobby.removed", "table_id": True}),
}


@pytest.mark.asyncio
@pytest.mark.parametrize("name", sorted(FORGERIES))
async def test_even_with_the_key_only_the_platforms_messages_pass(memory_layer: Any, settings: Any, name: str) -> None:
    group, message = FORGERIES[name]
    channel = await subscribed(memory_layer, group)
    body, signature = seal_with(settings.SECRET_KEY, group, message)
    assert await post(body, {SIGNATURE_HEADER: signature}) == 403
    assert (await next_delivered(memory_layer, channel, group))["message"]["text"] == "marker"


@pytest.mark.asyncio
async def test_a_captured_body_cannot_be_played_again(memory_layer: Any, settings: Any) -> None:
    channel = await subscribed(memory_layer, "table-1")
    body, signature = seal_with(settings.SECRET_KEY, "table-1", chat("once"))
    assert await post(body, {SIGNATURE_HEADER: signature}) == 200
    assert (await asyncio.wait_for(memory_layer.receive(channel), 5))["message"]["text"] == "once"
    assert await post(body, {SIGNATURE_HEADER: signature}) == 403
    assert (await next_delivered(memory_layer, channel, "table-1"))["message"]["text"] == "marker"


@pytest.mark.asyncio
@pytest.mark.parametrize("age_s", [3600, -3600])
async def test_an_old_or_future_body_is_refused(memory_layer: Any, settings: Any, age_s: float) -> None:
    channel = await subscribed(memory_layer, "table-1")
    body, signature = seal_with(settings.SECRET_KEY, "table-1", chat("late"), sent_at=time.time() - age_s)
    assert await post(body, {SIGNATURE_HEADER: signature}) == 403
    assert (await next_delivered(memory_layer, channel, "table-1"))["message"]["text"] == "marker"


@pytest.mark.asyncio
async def test_another_machine_is_refused_even_with_a_sealed_body(memory_layer: Any, settings: Any) -> None:
    channel = await subscribed(memory_layer, "table-1")
    body, signature = seal_with(settings.SECRET_KEY, "table-1", chat("remote"))
    assert await post(body, {SIGNATURE_HEADER: signature}, remote="203.0.113.5") == 403
    assert (await next_delivered(memory_layer, channel, "table-1"))["message"]["text"] == "marker"


def _serve_relay_probe(extra_env: dict[str, str], tmp_path: Path) -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CHANNEL_RELAY_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(tmp_path), SECRET_KEY="probe-" + secrets.token_hex(20), **extra_env)
    code = "import django\ndjango.setup()\nfrom django.test import Client\nprint(Client().post('/internal/relay/', '{}', content_type='application/json').status_code)\n"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.strip().splitlines()[-1])


def test_the_endpoint_exists_only_on_the_embedded_default(tmp_path: Path) -> None:
    assert _serve_relay_probe({"REDIS_URL": "redis://127.0.0.1:6379/15"}, tmp_path) == 404
    assert _serve_relay_probe({}, tmp_path) == 403  # mounted there, and it refuses the unsigned body


# --- the sending side: what the platform itself sends passes ---------------------------


@pytest.mark.django_db(transaction=True)
def test_every_group_message_the_platform_sends_passes_the_relay(settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: Any, clock: Any) -> None:
    """The worker's layer relays the real messages of a match, a chat, the lobby and a tournament, and the endpoint opens each."""
    from tests.conftest import run_jobs
    from tests.tournaments.factories import bot_tournament
    from tournaments import services as tournament_services

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "live.relay_layer.RelayChannelLayer", "CONFIG": {"url": "http://127.0.0.1:9/internal/relay/"}}}
    sent: list[tuple[bytes, str]] = []
    monkeypatch.setattr(RelayChannelLayer, "_post", lambda self, body, signature: sent.append((body, signature)))

    table, match, humans = started_table(players=1, bots=1)
    chat_post(table_id=table.pk, user=humans[0], text="hello")
    run_jobs(clock, max_jobs=200)  # the bot moves and the timers fire, as in the worker
    host = user("leaver")
    open_table = table_create(host=host, game="tiny", seats=2, options={})
    table_leave(table_id=open_table.pk, user=host)  # lobby.removed
    t = bot_tournament("swiss", 2, table_size=3, rounds=1)
    tournament_services.tournament_register(tournament_id=t.pk, user=user("entrant"))
    tournament_services.tournament_start(tournament_id=t.pk, by=t.organiser)
    run_jobs(clock, max_jobs=2000)

    assert not [r for r in caplog.records if "failed" in r.getMessage()], "a platform message was refused by the relay layer"
    replays = Replays()
    kinds = {open_sealed(body, signature, replays)[1]["type"] for body, signature in sent}
    assert kinds == set(MESSAGES)


# --- the consumer: a seat never comes from a group message ------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_watcher_named_in_a_forged_table_message_still_cannot_act_or_see(memory_layer: Any) -> None:
    from accounts.services import token_for
    from tests.games.test_consumers import connect, reload

    @database_sync_to_async
    def setup() -> tuple[Any, Any, str, dict[str, Any]]:
        table, match, _ = started_table(players=2)
        watcher = user("watcher")
        payload = selectors.table_payload(table)
        payload["players"][0]["username"] = watcher.username  # the forgery: "seat 0 is the watcher"
        return table, match, token_for(user=watcher), payload

    table, match, token, forged = await setup()
    watcher, hello = await connect(table.pk, token)
    assert hello["seat"] is None
    await memory_layer.group_send(broadcast.table_group(table.pk), {"type": "table.changed", "table": forged})
    assert (await watcher.receive_json_from(timeout=5))["type"] == "table"

    card = match.state["hands"][0][0]["id"]  # seat 0's card on seat 0's turn
    await watcher.send_json_to({"type": "act", "id": "x", "action": {"kind": "play", "card": card}})
    answer = await watcher.receive_json_from(timeout=5)
    assert answer["type"] == "error" and answer["code"] == "not_seated"
    assert (await reload(match)).seq == match.seq
    await watcher.send_json_to({"type": "sync", "since": 0})
    synced = await watcher.receive_json_from(timeout=5)
    assert synced["type"] == "events" and synced["view"]["hand"] is None
    assert visible_ids(synced) == set(), "seat 0's hidden cards reached the watcher"
    await watcher.disconnect()


# --- a bin/run stack: forged posts reach no socket ------------------------------------


def _post_http(url: str, body: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json", **headers}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.mark.processes
def test_forged_posts_to_a_bin_run_stack_reach_no_socket() -> None:
    """Embedded default as bin/run starts it (no SECRET_KEY: one generated in VAR_DIR); the attacker is on the same host."""
    import websockets

    from tests.integration.stack import api, register, stack

    with stack(services=False, worker=False) as s:
        key_file = Path(s.env["VAR_DIR"]) / "secret_key"
        assert "SECRET_KEY" not in s.env and key_file.stat().st_mode & 0o777 == 0o600
        real_key = key_file.read_text().strip()
        token = register(s.url(), "host")
        table = api(s.url(), "POST", "/api/tables/", {"game": "smackit", "seats": 3}, token)
        group, relay = f"table-{table['id']}", f"{s.url()}/internal/relay/"
        forged_table = {**table, "players": [{"seat": 1, "username": "host", "bot": False}]}

        async def attack() -> list[dict[str, Any]]:
            async with websockets.connect(f"{s.ws()}/ws/tables/{table['id']}/?token={token}") as ws:
                assert json.loads(await ws.recv())["type"] == "hello"
                for key in (PUBLISHED_KEY, "a-guessed-key"):
                    body, headers = old_scheme(key, group, {"type": "websocket.close", "code": 1000})
                    assert _post_http(relay, body, headers) == 403
                    for message in (chat("forged"), {"type": "table.changed", "table": forged_table}):
                        body, signature = seal_with(key, group, message)
                        assert _post_http(relay, body, {SIGNATURE_HEADER: signature}) == 403
                body, signature = seal_with(real_key, group, {"type": "websocket.close", "code": 1000})
                assert _post_http(relay, body, {SIGNATURE_HEADER: signature}) == 403  # even with the key
                body, signature = seal_with(real_key, group, chat("genuine"))
                assert _post_http(relay, body, {SIGNATURE_HEADER: signature}) == 200  # the control: delivery is seen
                async def next_message() -> dict[str, Any]:  # the server's round-trip pings (Fair races) aside
                    while (m := json.loads(await asyncio.wait_for(ws.recv(), 30))).get("type") == "ping":
                        pass
                    return m

                received = []  # everything up to the genuine message (the platform's own `table` on connect, say)
                while not received or received[-1].get("type") != "chat":
                    received.append(await next_message())
                await ws.send(json.dumps({"type": "ping"}))
                received.append(await next_message())
                return received

        try:
            received = asyncio.run(attack())
        except BaseException:
            print(s.log_text())
            raise
        *platform, genuine, pong = received
        assert genuine == {"type": "chat", "message": chat("genuine")["message"]}, f"a forgery reached the socket: {genuine}"
        assert pong == {"type": "pong"}, "the socket was closed or fed a forgery"
        for message in platform:
            assert message["type"] == "table" and [p["seat"] for p in message["table"]["players"]] == [0], f"forged: {message}"
