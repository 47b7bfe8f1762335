"""A muted player's chat is refused with a clear error, on the service and on the table socket."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from games import errors
from games.models import ChatMessage
from games.services.chat import chat_post
from moderation.models import Standing
from tests.games.factories import started_table


@pytest.mark.django_db
def test_a_muted_player_cannot_chat_until_cleared() -> None:
    table, _, (ada, bea) = started_table(players=2)
    Standing.objects.create(user=ada, muted=True)
    with pytest.raises(errors.PlatformError) as refused:
        chat_post(table_id=table.pk, user=ada, text="hello")
    assert (refused.value.code, refused.value.status) == ("muted", 403)
    assert "muted" in refused.value.message
    chat_post(table_id=table.pk, user=bea, text="hello")  # the others chat on
    assert list(ChatMessage.objects.values_list("user__username", flat=True)) == [bea.username]
    Standing.objects.filter(user=ada).update(muted=False)
    chat_post(table_id=table.pk, user=ada, text="sorry")
    assert ChatMessage.objects.count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_table_socket_answers_a_muted_chat_with_an_error() -> None:
    table, _, (ada, _bea) = await database_sync_to_async(started_table)(players=2)
    await database_sync_to_async(Standing.objects.create)(user=ada, muted=True)
    token = await database_sync_to_async(token_for)(user=ada)
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/?token={token}")
    assert (await comm.connect())[0]
    assert (await comm.receive_json_from(timeout=5))["type"] == "hello"
    await comm.send_json_to({"type": "chat", "text": "hello"})
    while True:
        msg = await comm.receive_json_from(timeout=5)
        if msg["type"] in ("error", "chat"):
            break
    assert msg["type"] == "error" and msg["code"] == "muted", msg
    assert "muted" in msg["message"]
    assert not await database_sync_to_async(ChatMessage.objects.exists)()
    await comm.disconnect()
