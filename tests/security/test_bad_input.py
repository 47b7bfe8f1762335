"""Bad input from outside answers a clear refusal, never a 500 or a `server_error`, and applies nothing.

Each test is the attack: deeply nested JSON (json.loads raised RecursionError), NUL characters
(PostgreSQL refuses them in text and jsonb), lone surrogates (json.loads makes them of "\\ud800";
they cannot be encoded to UTF-8), NaN and 1e999 (jsonb refuses them), huge integers (an `offset`
of 10^23 is out of bigint's range) — on the table socket, the read-only sockets, REST bodies,
query parameters, paths and headers, and the services that store chat text and action ids.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.test import APIClient

from accounts.services import token_for
from config.asgi import application
from games import errors
from games.models import ChatMessage, Match, Table
from games.services.actions import action_submit
from games.services.chat import chat_post
from live import wire
from tests.games.factories import started_table, user
from tests.games.test_consumers import connect, reload, setup_table

pytestmark = [pytest.mark.core]

DEEP = "[" * 2000 + "]" * 2000  # under 4 KiB: past the size check, into the parser
DEEP_ACT = '{"type":"act","id":"deep","action":{"kind":"play","card":' + "[" * 1500 + "]" * 1500 + "}}"


# --- the loader itself -----------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [DEEP, "{" + '"a":{' * 2000 + "}" * 2001, '"\\ud800"', '{"\\udfff": 1}', '"a\\u0000b"', "NaN", "[Infinity]", "1e999", str(10**23), "-" + str(2**60)],
)
def test_the_loader_refuses_with_a_wire_error_not_a_crash(raw: str) -> None:
    with pytest.raises(wire.WireError) as refused:
        wire.loads(raw, max_bytes=1 << 20)
    assert "\x00" not in refused.value.message and wire.text_problem(refused.value.message) is None  # never echoes it


def test_the_loader_keeps_ordinary_json() -> None:
    message = {"type": "act", "id": "é-1", "action": {"kind": "play", "cards": [[1, 2.5], [-(2**53) + 1]], "note": "🂡\n\t"}}
    assert wire.loads(json.dumps(message), max_bytes=4096) == message
    assert wire.loads(json.dumps(message).encode(), max_bytes=4096) == message


def test_a_value_nested_past_the_limit_is_refused_without_recursion() -> None:
    value: Any = 1
    for _ in range(100_000):  # far past Python's recursion limit
        value = [value]
    with pytest.raises(wire.WireError, match="nested deeper"):
        wire.check(value)


# --- the table socket ------------------------------------------------------------------------


SOCKET_ATTACKS = [
    pytest.param(DEEP, id="deeply-nested"),
    pytest.param(DEEP_ACT, id="deeply-nested-action"),
    pytest.param('{"type":"act","id":"a\\u0000","action":{"kind":"play","card":1}}', id="nul-in-action-id"),
    pytest.param('{"type":"act","id":"a\\ud800","action":{"kind":"play","card":1}}', id="surrogate-in-action-id"),
    pytest.param('{"type":"act","id":"k","action":{"kind":"pl\\u0000ay"}}', id="nul-in-action-kind"),
    pytest.param('{"type":"act","id":"k","action":{"kind":"play","\\udc00":1}}', id="surrogate-in-action-key"),
    pytest.param('{"type":"act","id":"n","action":{"kind":"play","card":NaN}}', id="nan-in-action"),
    pytest.param('{"type":"act","id":"n","action":{"kind":"play","card":1e999}}', id="infinity-in-action"),
    pytest.param(f'{{"type":"act","id":"n","action":{{"kind":"play","card":{10**23}}}}}', id="huge-int-in-action"),
    pytest.param(f'{{"type":"sync","since":{10**23}}}', id="huge-since"),
    pytest.param('{"type":"chat","text":"hi \\u0000 there"}', id="nul-in-chat"),
    pytest.param('{"type":"chat","text":"hi \\ud83d there"}', id="surrogate-in-chat"),
    pytest.param('{"type\\u0000":"ping"}', id="nul-in-a-key"),
]


async def refused_frame(**frame: Any) -> tuple[Any, Match, dict[str, Any]]:
    """Seat 0's socket at a started table sends `frame` (send_to's text_data or bytes_data): it is answered
    `bad_message`. Returns the socket, the match as it was, and the answer."""
    table, match, tokens = await setup_table()
    me, _ = await connect(table.pk, tokens[0])
    await me.send_to(**frame)
    answer = await me.receive_json_from(timeout=5)
    assert answer["type"] == "error" and answer["code"] == "bad_message", answer
    return me, match, answer


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("raw", SOCKET_ATTACKS)
async def test_table_socket_answers_bad_message_applies_nothing_and_stays_open(raw: str) -> None:
    me, match, answer = await refused_frame(text_data=raw)
    if raw.startswith('{"type":"act","id":"n"'):
        assert answer["id"] == "n"  # a parsed action's own clean id names the refusal: the client knows which one
    await me.send_json_to({"type": "ping"})
    assert (await me.receive_json_from(timeout=5))["type"] == "pong"
    assert (await reload(match)).seq == match.seq  # nothing applied
    assert not await database_sync_to_async(ChatMessage.objects.exists)()
    await me.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("frame", [DEEP.encode(), b"\xff\xfe{}", b'{"type":"act","id":"\\u0000","action":{"kind":"x"}}'])
async def test_table_socket_binary_frames_are_read_by_the_same_loader(frame: bytes) -> None:
    me, match, _ = await refused_frame(bytes_data=frame)
    assert (await reload(match)).seq == match.seq
    await me.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/ws/lobby/", "/ws/tournaments/mine/"])
async def test_read_only_sockets_read_frames_with_the_same_loader(path: str) -> None:
    fan = await database_sync_to_async(user)("fan")
    token = await database_sync_to_async(token_for)(user=fan)
    comm = WebsocketCommunicator(application, f"{path}?token={token}")
    assert (await comm.connect())[0]
    for raw in (DEEP, '{"type":"\\ud800"}', '{"note":"\\u0000","type":"ping"}', "nonsense"):
        await comm.send_to(text_data=raw)
        answer = await comm.receive_json_from(timeout=5)
        assert answer["type"] == "error" and answer["code"] == "bad_message", (raw[:20], answer)
    await comm.send_to(text_data='{"type": "ping"}')
    assert (await comm.receive_json_from(timeout=5)) == {"type": "pong"}
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("query", ["?token=%00", "?token=abc%00def", "?%00=1"])
async def test_a_socket_handshake_with_nul_in_its_url_is_refused_before_authentication(query: str) -> None:
    table, _, _ = await setup_table()
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/{query}")
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4400


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_handshake_with_nul_in_a_header_is_refused() -> None:
    table, _, _ = await setup_table()
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[(b"cookie", b"sessionid=\x00abcdefghijklmnop")])
    connected, code = await comm.connect(timeout=5)
    assert not connected and code == 4400


# --- services: whoever calls them ------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["hi\x00", "hi \ud800", "\udfff"])
def test_chat_post_refuses_text_the_database_cannot_hold(text: str) -> None:
    table, _, humans = started_table(players=2)
    with pytest.raises(errors.PlatformError) as refused:
        chat_post(table_id=table.pk, user=humans[0], text=text)
    assert refused.value.code == "bad_message" and refused.value.status == 400
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("action", "action_id"),
    [
        ({"kind": "play", "card": 1}, "id\x00"),
        ({"kind": "play", "card": 1}, "\ud800"),
        ({"kind": "play\x00", "card": 1}, "a"),
        ({"kind": "play", "card": float("nan")}, "b"),
        ({"kind": "play", "card": 10**23}, "c"),
    ],
)
def test_action_submit_refuses_unstorable_ids_and_actions_before_anything_is_applied(action: dict[str, Any], action_id: str) -> None:
    _, match, _ = started_table(players=2)
    before = match.seq
    with pytest.raises(errors.PlatformError) as refused:
        action_submit(match_id=match.pk, seat=0, action=action, action_id=action_id)
    assert refused.value.code == "bad_message"
    match.refresh_from_db()
    assert match.seq == before


# --- REST bodies -----------------------------------------------------------------------------


def api_as(name: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=user(name))}")
    return client


BODY_ATTACKS = [
    pytest.param("[" * 100_000 + "]" * 100_000, id="deeply-nested"),
    pytest.param('{"game":"zack","seats":4,"options":' + "[" * 900 + "]" * 900 + "}", id="nested-under-the-recursion-limit"),
    pytest.param('{"game":"zack","seats":4,"options":{"\\ud800":1}}', id="surrogate-in-an-options-key"),
    pytest.param('{"game":"zack","seats":4,"options":{"\\u0000":1}}', id="nul-in-an-options-key"),
    pytest.param('{"game":"zack","seats":4,"options":{"target":"\\u0000"}}', id="nul-in-an-option-value"),
    pytest.param('{"game":"zack","seats":4,"options":{"target":1e999}}', id="infinity"),
    pytest.param(f'{{"game":"zack","seats":{10**23}}}', id="huge-int"),
    pytest.param('{"game":"zack\\u0000","seats":4}', id="nul-in-a-field"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("body", BODY_ATTACKS)
def test_rest_bodies_answer_400_bad_json_and_create_nothing(body: str) -> None:
    client = api_as("poster")
    for path in ("/api/tables/", "/api/tournaments/"):
        r = client.post(path, body, content_type="application/json")
        assert r.status_code == 400, (path, r.status_code, r.content[:200])
        assert r.json()["code"] == "bad_json" and r.json()["detail"], r.json()
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_a_bad_body_names_where_it_is_bad() -> None:
    r = api_as("poster").post("/api/tables/", '{"game":"zack","seats":4,"options":{"deal":["a","b\\u0000"]}}', content_type="application/json")
    assert r.status_code == 400 and "options.deal[1]" in r.json()["detail"] and "NUL" in r.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/auth/register/", '{"username":"ann","password":"a long password \\ud800"}'),
        ("/api/auth/token/", '{"username":"ann\\u0000","password":"x"}'),
        ("/api/auth/register/", "[" * 5000 + "]" * 5000),
    ],
)
def test_account_bodies_are_read_by_the_same_parser(path: str, body: str) -> None:
    r = APIClient().post(path, body, content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "bad_json"


@pytest.mark.django_db
def test_a_form_body_is_held_to_the_same_text_rule() -> None:
    r = api_as("former").post("/api/tables/", "game=zack&seats=4&options.target=%00", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 400 and r.json()["code"] == "bad_json"
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_an_oversized_body_is_refused(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    r = api_as("big").post("/api/tables/", json.dumps({"game": "zack", "seats": 4, "pad": "x" * 2000}), content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "bad_json" and "DATA_UPLOAD_MAX_MEMORY_SIZE" in r.json()["detail"]


# --- query parameters, paths, headers --------------------------------------------------------


QUERY_ATTACKS = [
    ("/api/tables/?game=%00", "bad_game"),
    ("/api/matches/?player=%00", "bad_player"),
    ("/api/tournaments/?game=%00", "bad_game"),
    ("/api/leaderboards/zack/?offset=100000000000000000000000", "bad_offset"),
    ("/api/leaderboards/zack/?limit=100000000000000000000000", "bad_limit"),
    ("/api/leaderboards/zack/?offset=-1", "bad_offset"),
    ("/api/leaderboards/zack/?offset=1.5", "bad_offset"),
    ("/api/leaderboards/zack/?offset=%2B1", "bad_offset"),
    ("/api/leaderboards/zack/?offset=1_000", "bad_offset"),
    ("/api/leaderboards/zack/?provisional=perhaps", "bad_provisional"),
    ("/api/stats/players/{name}/?history=100000000000000000000000", "bad_history"),
    ("/api/matches/?offset=100000000000000000000000", "bad_offset"),
    ("/api/matches/?limit=100000000000000000000000", "bad_limit"),
    ("/api/matches/{match}/timeline/?from=100000000000000000000000", "bad_from"),
    ("/api/matches/{match}/timeline/?limit=100000000000000000000000", "bad_limit"),
    ("/api/matches/{match}/timeline/?perspective=%00", "bad_perspective"),
    ("/api/matches/{match}/state/?at=100000000000000000000000", "bad_at"),
    ("/api/stats/players/%00/", "bad_path"),
    ("/api/tables/?%00=1", "bad_query"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "code"), QUERY_ATTACKS)
def test_bad_query_parameters_answer_400_naming_them(url: str, code: str) -> None:
    _, match, humans = started_table(players=2)
    r = api_as("asker").get(url.format(match=match.pk, name=humans[0].username))
    assert r.status_code == 400, (url, r.status_code, r.content[:200])
    body = r.json()
    assert body["code"] == code and body["detail"]
    name = code.removeprefix("bad_")
    assert name in body["detail"] or name in ("path", "query"), body


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/u/%00/", "/invite/%00/", "/matches/?player=%00", "/matches/?page=%00", "/leaderboards/zack/?page=%00", "/login/?next=%00", "/tournaments/?x=%00"],
)
def test_pages_answer_400_to_nul_in_the_url(url: str) -> None:
    client = Client()
    client.force_login(user("browser"))
    assert client.get(url).status_code == 400


@pytest.mark.django_db
def test_huge_page_numbers_are_not_a_server_error() -> None:
    assert Client().get("/matches/?page=100000000000000000000000").status_code == 200


@pytest.mark.django_db
def test_a_nul_in_a_header_is_refused_before_authentication() -> None:
    r = APIClient().get("/api/tables/", HTTP_AUTHORIZATION="Token \x00")
    assert r.status_code == 400 and r.json()["code"] == "bad_header" and "Authorization" in r.json()["detail"]
    assert Client().get("/", HTTP_COOKIE="sessionid=\x00abcdefghijklmnop").status_code == 400


@pytest.mark.django_db
def test_ordinary_queries_still_answer() -> None:
    _, match, _ = started_table(players=2)
    client = api_as("reader")
    assert client.get("/api/leaderboards/zack/?limit=5&offset=0&provisional=true").status_code == 200
    assert client.get("/api/tables/?status=open&game=zack").status_code == 200
    assert client.get(f"/api/matches/{match.pk}/timeline/?from=0&limit=1").json()["events"][0]["seq"] == 1
    assert client.get("/api/matches/?player=&game=&limit=2&offset=0").status_code == 200
