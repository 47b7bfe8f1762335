"""The live table socket, exactly as PROTOCOL.md: hello, events, ack, error, table, sync."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from games.models import Match
from games.services.actions import action_submit
from games.services.tables import table_add_bot, table_create, table_start
from live import broadcast, sessions
from tests.games.factories import started_table, user
from tests.support.simulate import visible_ids
from tests.support.waiting import until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.core]


async def connect(table_id: int, token: str | None = None) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    path = f"/ws/tables/{table_id}/" + (f"?token={token}" if token else "")
    comm = WebsocketCommunicator(application, path)
    connected, _ = await comm.connect()
    assert connected
    hello = await comm.receive_json_from(timeout=5)
    assert hello["type"] == "hello"
    return comm, hello


async def receive_until(comm: WebsocketCommunicator, kind: str, timeout: float = 5) -> list[dict[str, Any]]:
    """Messages up to and including the first of type `kind`."""
    out = []
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        out.append(msg)
        if msg["type"] == kind:
            return out


@database_sync_to_async
def setup_table(players: int = 2, bots: int = 0, **kw: Any) -> tuple[Any, Match, list[str]]:
    table, match, humans = started_table(players=players, bots=bots, **kw)
    return table, match, [token_for(user=h) for h in humans]


@database_sync_to_async
def reload(match: Match) -> Match:
    match.refresh_from_db()
    return match


async def test_hello_gives_seat_seq_and_own_view() -> None:
    table, match, tokens = await setup_table()
    comm, hello = await connect(table.pk, tokens[1])
    assert hello["seat"] == 1 and hello["seq"] == match.seq and hello["table"]["id"] == table.pk
    assert hello["view"]["hand"] == match.state["hands"][1]
    spectator, hello = await connect(table.pk)
    assert hello["seat"] is None and hello["view"]["hand"] is None
    assert visible_ids(hello) == set()  # no hidden card reaches a spectator
    await comm.disconnect()
    await spectator.disconnect()


async def test_act_sends_redacted_events_to_every_socket_then_ack() -> None:
    table, match, tokens = await setup_table()
    me, _ = await connect(table.pk, tokens[0])
    other, _ = await connect(table.pk, tokens[1])
    watcher, _ = await connect(table.pk)
    card = match.state["hands"][0][0]
    await me.send_json_to({"type": "act", "id": "a1", "action": {"kind": "play", "card": card["id"]}})
    mine = await receive_until(me, "ack")
    assert [m["type"] for m in mine] == ["events", "ack"]
    assert [e["seq"] for e in mine[0]["events"]] == [match.seq + 1, match.seq + 2]
    assert mine[1] == {"type": "ack", "id": "a1", "seq": match.seq + 2}
    for sock in (other, watcher):
        msg = await sock.receive_json_from(timeout=5)
        assert msg["type"] == "events" and msg["events"][0]["seq"] == match.seq + 1
        assert msg["events"][0]["data"]["card"] == card  # played face up: public
        hidden = {c["id"] for c in match.state["hands"][0][1:]}
        assert not (visible_ids(msg) & hidden)
    for c in (me, other, watcher):
        await c.disconnect()


async def test_repeated_id_answers_the_same_ack_and_applies_nothing() -> None:
    table, match, tokens = await setup_table()
    me, _ = await connect(table.pk, tokens[0])
    card = match.state["hands"][0][0]["id"]
    await me.send_json_to({"type": "act", "id": "dup", "action": {"kind": "play", "card": card}})
    first = (await receive_until(me, "ack"))[-1]
    await me.send_json_to({"type": "act", "id": "dup", "action": {"kind": "play", "card": card}})
    again = await me.receive_json_from(timeout=5)
    assert again == first
    assert (await reload(match)).seq == first["seq"]
    await me.disconnect()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"id": "x"}), "bad_message"),
        (json.dumps({"type": 5}), "bad_message"),
        (json.dumps({"type": "act", "id": 7, "action": {"kind": "play"}}), "bad_message"),
        (json.dumps({"type": "act", "id": "x", "action": "play"}), "bad_message"),
        (json.dumps({"type": "act", "id": "x", "action": {"kind": ["play"]}}), "bad_message"),
        (json.dumps({"type": "act", "id": "x", "action": {"kind": "fly"}}), "rule"),
        (json.dumps({"type": "act", "id": "x", "seat": 1, "action": {"kind": "slap"}}), "not_seated"),
        (json.dumps({"type": "act", "id": "x", "action": {"kind": "play", "card": "🂡"}}), "rule"),
        (json.dumps({"type": "sync", "since": "zero"}), "bad_message"),
        (json.dumps({"type": "dance"}), "bad_message"),
        (json.dumps({"type": "act", "id": "x", "action": {"kind": "play", "pad": "x" * 5000}}), "bad_message"),
    ],
)
async def test_bad_input_gets_an_error_and_the_socket_stays_open(raw: str, code: str) -> None:
    table, match, tokens = await setup_table()
    me, _ = await connect(table.pk, tokens[0])
    await me.send_to(text_data=raw)
    err = await me.receive_json_from(timeout=5)
    assert err["type"] == "error" and err["code"] == code and err["message"]
    await me.send_json_to({"type": "ping"})
    assert (await me.receive_json_from(timeout=5))["type"] == "pong"
    assert (await reload(match)).seq == match.seq  # nothing applied
    await me.disconnect()


async def test_spectator_cannot_act_and_no_match_is_reported() -> None:
    table, match, tokens = await setup_table()
    watcher, _ = await connect(table.pk)
    await watcher.send_json_to({"type": "act", "id": "w", "action": {"kind": "slap"}})
    assert (await watcher.receive_json_from(timeout=5))["code"] == "not_seated"
    host = await database_sync_to_async(user)("lonely")
    open_table = await database_sync_to_async(table_create)(host=host, game="tiny", seats=2)
    token = await database_sync_to_async(token_for)(user=host)
    comm, hello = await connect(open_table.pk, token)
    assert hello["view"] is None and hello["seat"] == 0
    await comm.send_json_to({"type": "act", "id": "n", "action": {"kind": "slap"}})
    assert (await comm.receive_json_from(timeout=5))["code"] == "no_match"
    await watcher.disconnect()
    await comm.disconnect()


async def test_acting_in_a_finished_match_is_match_over() -> None:
    table, match, tokens = await setup_table(options={"hand": 1})
    me, _ = await connect(table.pk, tokens[0])
    card = match.state["hands"][0][0]["id"]
    await me.send_json_to({"type": "act", "id": "win", "action": {"kind": "play", "card": card}})
    await receive_until(me, "ack")
    await me.send_json_to({"type": "act", "id": "late", "action": {"kind": "slap"}})
    msgs = await receive_until(me, "error")
    assert msgs[-1]["code"] == "match_over" and msgs[-1]["id"] == "late"
    await me.disconnect()


async def test_a_flood_is_rate_limited_without_closing(settings) -> None:
    settings.WS_MAX_ACTIONS_PER_SECOND = 5
    table, _, tokens = await setup_table()
    me, _ = await connect(table.pk, tokens[1])
    for i in range(12):
        await me.send_json_to({"type": "ping", "n": i})
    answers = [await me.receive_json_from(timeout=5) for _ in range(12)]
    codes = [a.get("code") for a in answers if a["type"] == "error"]
    assert "rate_limited" in codes and any(a["type"] == "pong" for a in answers)
    await me.disconnect()


async def test_sync_sends_every_event_since_with_the_view() -> None:
    table, match, tokens = await setup_table()
    me, _ = await connect(table.pk, tokens[0])
    await me.send_json_to({"type": "sync", "since": 0})
    msg = await me.receive_json_from(timeout=5)
    assert msg["type"] == "events" and [e["seq"] for e in msg["events"]] == list(range(1, match.seq + 1))
    dealt = msg["events"][0]
    assert dealt["kind"] == "dealt" and dealt["data"]["hands"][1] == len(match.state["hands"][1])
    assert msg["view"]["hand"] == match.state["hands"][0]
    await me.disconnect()


async def test_a_lost_group_message_is_filled_from_the_database(monkeypatch) -> None:
    table, match, tokens = await setup_table()
    other, _ = await connect(table.pk, tokens[1])
    real = broadcast.send
    dropped = []

    def drop_first(group: str, message: dict[str, Any]) -> None:
        if message["type"] == "match.events" and not dropped:
            dropped.append(message)
            return
        real(group, message)

    monkeypatch.setattr(broadcast, "send", drop_first)
    hands = match.state["hands"]

    @database_sync_to_async
    def play(seat: int, card: int, aid: str) -> None:
        action_submit(match_id=match.pk, seat=seat, action={"kind": "play", "card": card}, action_id=aid)

    await play(0, hands[0][0]["id"], "a")
    await play(1, hands[1][0]["id"], "b")
    msg = await other.receive_json_from(timeout=5)
    assert [e["seq"] for e in msg["events"]] == list(range(match.seq + 1, match.seq + 5))
    assert msg["view"]["turn"] == 0 and dropped
    await other.disconnect()


async def test_session_cookie_authenticates_the_socket(client) -> None:
    table, match, _ = await setup_table()

    @database_sync_to_async
    def login_as_seat_one() -> str:
        from games.models import Seat

        seat = Seat.objects.get(table=table, seat=1)
        client.force_login(seat.user)
        return client.cookies["sessionid"].value

    session = await login_as_seat_one()
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[(b"cookie", f"sessionid={session}".encode())])
    assert (await comm.connect())[0]
    assert (await comm.receive_json_from(timeout=5))["seat"] == 1
    await comm.disconnect()


async def test_foreign_origin_is_refused() -> None:
    table, _, _ = await setup_table()
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[(b"origin", b"https://evil.example")])
    connected, _ = await comm.connect()
    assert not connected


async def test_table_changes_and_chat_reach_the_table() -> None:
    host = await database_sync_to_async(user)("hosty")
    table = await database_sync_to_async(table_create)(host=host, game="tiny", seats=2)
    token = await database_sync_to_async(token_for)(user=host)
    comm, _ = await connect(table.pk, token)
    await database_sync_to_async(table_add_bot)(table_id=table.pk, by=host, level="easy")
    msg = await comm.receive_json_from(timeout=5)
    assert msg["type"] == "table" and [p["bot"] for p in msg["table"]["players"]] == [False, True]
    await comm.send_json_to({"type": "chat", "text": "<b>hello</b>"})
    chat = await comm.receive_json_from(timeout=5)
    assert chat == {"type": "chat", "message": {**chat["message"], "user": "hosty", "text": "<b>hello</b>"}}
    await database_sync_to_async(table_start)(table_id=table.pk, by=host)
    msgs = await receive_until(comm, "hello")
    assert msgs[-1]["view"] is not None and msgs[-1]["seat"] == 0
    await comm.disconnect()


async def test_frames_are_taken_as_daphne_puts_them() -> None:
    """A table socket takes each frame inside daphne's put (live/lean_queue.py): nothing is left
    queued for Channels' reader, and every frame is answered, in order."""
    table, match, tokens = await setup_table()
    comm, _ = await connect(table.pk, tokens[0])
    card = match.state["hands"][0][0]
    await comm.send_json_to({"type": "ping"})
    assert comm.input_queue.qsize() == 0
    await comm.send_json_to({"type": "act", "id": "t1", "action": {"kind": "play", "card": card["id"]}})
    await comm.send_json_to({"type": "sync", "since": match.seq})
    got = [await comm.receive_json_from(timeout=5) for _ in range(4)]
    assert [m["type"] for m in got] == ["pong", "events", "ack", "events"]
    await comm.disconnect()


async def test_a_sockets_frames_skip_the_session_wrapper_that_only_acts_on_http() -> None:
    from channels.sessions import InstanceSessionWrapper

    from games.socket.consumers import session_free_send

    async def server_send(message: dict[str, Any]) -> None:
        return None

    wrapper = InstanceSessionWrapper.__new__(InstanceSessionWrapper)
    wrapper.real_send = server_send
    assert session_free_send(wrapper.send) is server_send
    acting = InstanceSessionWrapper.__new__(InstanceSessionWrapper)
    acting.real_send = server_send
    acting.save_message_types = ["websocket.send"]  # a wrapper that would act on a socket's frames is kept
    assert session_free_send(acting.send) == acting.send
    assert session_free_send(server_send) is server_send


def _reader_coroutines() -> Counter[str]:
    """The tasks reading a socket's sources: Channels' `await_many_dispatch` makes one per source."""
    return Counter(
        name for t in asyncio.all_tasks() if (name := t.get_coro().__qualname__) in ("_async_proxy", "LeanQueue.get")
    )


async def test_with_the_redis_layer_a_table_socket_holds_no_reader_task() -> None:
    """With daphne's LeanQueue tapped and the pub/sub layer's `tap_channel`, a socket's frames and
    group messages go into its inbox as they are put: no reader task per source (Channels'
    `await_many_dispatch`), every message still handled, and the channel forgotten when the
    socket ends, as Channels' cancelled reader does."""
    from channels.layers import get_channel_layer

    if not hasattr(get_channel_layer(), "tap_channel"):
        pytest.skip("needs the Redis pub/sub layer (REDIS_URL)")
    before = _reader_coroutines()
    table, match, tokens = await setup_table()
    comm, _ = await connect(table.pk, tokens[0])
    other, _ = await connect(table.pk, tokens[1])
    layer = get_channel_layer()._get_layer()
    channels = set(layer.channels) - {sessions.listener_channel}  # the process's sessions channel outlives sockets
    assert sum((_reader_coroutines() - before).values()) == 0
    await database_sync_to_async(broadcast.table_changed)(table.pk)  # a group message to both sockets
    assert [m["type"] for m in await receive_until(other, "table")][-1] == "table"
    assert [m["type"] for m in await receive_until(comm, "table")][-1] == "table"
    card = match.state["hands"][0][0]
    await comm.send_json_to({"type": "act", "id": "r1", "action": {"kind": "play", "card": card["id"]}})
    assert [m["type"] for m in await receive_until(comm, "ack")][-2:] == ["events", "ack"]
    assert (await receive_until(other, "events"))[-1]["events"][0]["seq"] == match.seq + 1
    await comm.disconnect()
    await other.disconnect()
    assert await until(lambda: not channels & set(layer.channels), 1.0), "each socket's channel is gone when it ends"
