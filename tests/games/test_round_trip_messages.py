"""Round trips moving reach the table at most once per gap from a web process (live.broadcast.table_round_trips_changed).

The table payload shows every player's round trip; written for each socket that moved, it
went to every socket of the table each time. Here three writes in a row make one message at
once and one more at the end of the gap, which reads the figures as they then stand.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.services.presence import presence_rtt_set, presence_rtt_set_async
from live import async_db, broadcast
from live.broadcast import table_group
from tests.games.factories import started_table
from tests.support import presence

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def messages_within(layer: Any, channel: str, seconds: float) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while (left := deadline - loop.time()) > 0:
        try:
            out.append(await asyncio.wait_for(layer.receive(channel), left))
        except TimeoutError:
            break
    return [m for m in out if m["type"] == "table.changed"]


async def test_three_round_trips_moving_make_one_message_now_and_one_at_the_end_of_the_gap(monkeypatch: Any) -> None:
    monkeypatch.setattr(broadcast, "ROUND_TRIPS_GAP_S", 0.6)

    @database_sync_to_async
    def make() -> int:
        table, _, humans = started_table(players=3)
        for i, h in enumerate(humans):
            presence.socket_open(table.pk, h.pk, f"ch-{i}")
        return table.pk

    table_id = await make()
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(table_group(table_id), channel)
    for i, rtt in enumerate([40, 55, 70]):
        await database_sync_to_async(presence_rtt_set)(channel_name=f"ch-{i}", rtt_ms=rtt, table_id=table_id)
    first = await messages_within(layer, channel, 0.4)
    assert len(first) == 1, "the first goes at once, the others wait for the gap's end"
    later = await messages_within(layer, channel, 0.8)
    assert len(later) == 1, "one message for the two that waited"
    shown = sorted(p["rtt_ms"] for p in later[0]["table"]["players"])
    assert shown == [40, 55, 70], "it reads every round trip as it stands"
    assert await messages_within(layer, channel, 0.8) == [], "nothing more without a change"


@pytest.mark.skipif(not async_db.enabled(), reason="the event loop's connection is PostgreSQL's (run through .ci/run)")
async def test_a_round_trip_written_from_the_event_loop_is_the_same_write_and_reaches_the_table(monkeypatch: Any) -> None:
    monkeypatch.setattr(broadcast, "ROUND_TRIPS_GAP_S", 0.6)

    @database_sync_to_async
    def make() -> int:
        table, _, humans = started_table(players=2)
        presence.socket_open(table.pk, humans[0].pk, "ch-loop")
        return table.pk

    table_id = await make()
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(table_group(table_id), channel)
    assert await presence_rtt_set_async(channel_name="ch-loop", rtt_ms=-5, table_id=table_id)
    assert not await presence_rtt_set_async(channel_name="ch-none", rtt_ms=40, table_id=table_id), "no row: False"
    (message,) = await messages_within(layer, channel, 0.4)
    assert [p["rtt_ms"] for p in message["table"]["players"] if p["rtt_ms"] is not None] == [0], "clamped, as the thread's write"
