"""Attacks on presence: who counts as connected decides when a bot takes over a person's seat.

Presence was a counter per seat number: a player who had left a seat and
closed an old socket marked the seat's new occupant away (and after
`zombie_seconds` a bot played for a connected person), and a web process that
died left its players "connected" for ever (their seats never went to a bot).
Now it is one row per socket, keyed by user, counting while its web process's
heartbeat is fresh. Time is the virtual clock; each step beats the processes
that are alive and runs what beat and the worker would run.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from games import selectors
from games.models import MatchEvent, Seat, Table, TableConnection, WebProcess
from games.services.presence import presence_sweep, web_process_beat
from games.services.tables import table_create, table_join, table_leave, table_start
from live import heartbeat
from tests.conftest import Clock, run_jobs
from tests.games.factories import started_table, user
from tests.support import presence
from tests.support.manual_queue import MANUAL

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.core]

SWEEP_S = 5  # CELERY_BEAT_SCHEDULE "sweep-presence"


def tick(clock: Clock, seconds: float) -> None:
    """Let `seconds` of virtual time pass, running the jobs that fall due."""
    clock.advance(seconds)
    MANUAL.clock_s += seconds
    run_jobs(clock, until_s=MANUAL.clock_s)


def zombie(table_id: int, seat: int) -> bool:
    return Seat.objects.get(table_id=table_id, seat=seat).zombie


def connected(table_id: int, seat: int) -> bool:
    payload = selectors.table_payload(Table.objects.select_related("host").get(pk=table_id))
    return next(p for p in payload["players"] if p["seat"] == seat)["connected"]


async def connect(table_id: int, token: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/?token={token}")
    ok, _ = await comm.connect()
    assert ok
    assert (await comm.receive_json_from(timeout=5))["type"] == "hello"
    return comm


def db(fn: Callable[..., Any]) -> Callable[..., Any]:
    return database_sync_to_async(fn)


@pytest.mark.asyncio
async def test_closing_an_old_socket_of_a_left_seat_does_not_make_its_new_occupant_away(clock: Clock) -> None:
    host, alice, bob = [await db(user)(n) for n in ("host", "alice", "bob")]
    table = await db(table_create)(host=host, game="tiny", seats=2, options={"turn_seconds": 600})
    await db(table_join)(table_id=table.pk, user=alice, seat=1)
    alice_socket = await connect(table.pk, await db(token_for)(user=alice))
    await db(table_leave)(table_id=table.pk, user=alice)
    await db(table_join)(table_id=table.pk, user=bob, seat=1)  # bob takes alice's seat number
    bob_socket = await connect(table.pk, await db(token_for)(user=bob))
    await db(table_start)(table_id=table.pk, by=host)

    await alice_socket.disconnect()  # the attack: alice closes the socket she opened on seat 1
    for _ in range(12):  # a minute: past zombie_seconds (45) with the web process beating
        await db(tick)(clock, SWEEP_S)
        await heartbeat.beat()
        await db(presence_sweep)()
        assert not await db(zombie)(table.pk, 1), "bob is connected: no bot plays for him"
        assert await db(connected)(table.pk, 1)
    assert await db(lambda: TableConnection.objects.filter(table=table, user=bob, process_id=heartbeat.PROCESS_ID).exists())()

    await bob_socket.disconnect()  # and when bob does leave, his seat does go to a bot in time
    for _ in range(10):
        await db(tick)(clock, SWEEP_S)
        await heartbeat.beat()
        await db(presence_sweep)()
    assert await db(zombie)(table.pk, 1) and not await db(connected)(table.pk, 1)


@pytest.mark.parametrize(("zombie_seconds", "earliest", "latest"), [(20, 20, 20 + SWEEP_S), (3, 3, 10 + SWEEP_S)])
def test_players_of_a_web_process_that_stops_beating_become_zombies_in_time(
    clock: Clock, zombie_seconds: int, earliest: float, latest: float
) -> None:
    """A crashed process writes nothing: its sockets stop counting when its lease (10 s) ends,
    and its players are away from its last beat."""
    table, match, humans = started_table(players=2, options={"turn_seconds": 600})
    Table.objects.filter(pk=table.pk).update(zombie_seconds=zombie_seconds)
    crashed, alive = uuid.UUID(int=7), uuid.UUID(int=8)
    presence.socket_open(table.pk, humans[0].pk, "on-crashed", process=crashed)
    presence.socket_open(table.pk, humans[1].pk, "on-alive", process=alive)
    zombied_at = None
    for second in range(1, 41):
        tick(clock, 1)
        presence.beat(alive)  # the crashed process never beats again
        if second % SWEEP_S == 0:
            presence_sweep()
        if zombied_at is None and zombie(table.pk, 0):
            zombied_at = second
    assert zombied_at is not None, "the crashed process's player was never handed to a bot"
    assert earliest <= zombied_at <= latest, zombied_at
    assert not zombie(table.pk, 1), "the player on the live process is still theirs"
    assert not TableConnection.objects.filter(process_id=crashed).exists()
    assert not WebProcess.objects.filter(pk=crashed).exists()
    run_jobs(clock, until_s=MANUAL.clock_s + 30)
    assert MatchEvent.objects.filter(match=match, kind="played", seat=0).exists(), "a bot plays the seat"


def test_a_process_that_beats_again_after_a_stall_gives_its_players_their_seats_back(clock: Clock) -> None:
    """The sweeper took a stalled process for dead; its sockets were open all along."""
    table, _, humans = started_table(players=2, options={"turn_seconds": 600})
    Table.objects.filter(pk=table.pk).update(zombie_seconds=5)
    stalled = uuid.UUID(int=9)
    presence.socket_open(table.pk, humans[0].pk, "kept", process=stalled)
    for _ in range(6):
        tick(clock, SWEEP_S)
        presence_sweep()
    assert zombie(table.pk, 0) and not connected(table.pk, 0)
    # It beats again, with the sockets it holds: rows written back, the seat its player's again.
    fixed = web_process_beat(
        process_id=stalled, name="stalled", sockets={"kept": (table.pk, humans[0].pk)}, taken_at=clock.now()
    )
    assert fixed == 1
    assert not zombie(table.pk, 0) and connected(table.pk, 0)
    for _ in range(4):
        tick(clock, 2)
        web_process_beat(process_id=stalled, name="stalled", sockets={"kept": (table.pk, humans[0].pk)}, taken_at=clock.now())
        presence_sweep()
    assert not zombie(table.pk, 0)


def test_a_close_that_was_not_written_does_not_keep_a_player_present_for_ever(clock: Clock) -> None:
    """The socket closed while the database was out of reach: its row stayed. The next beat of
    its process (which no longer holds it) closes it, and the seat goes to a bot in time."""
    table, _, humans = started_table(players=2, options={"turn_seconds": 600})
    Table.objects.filter(pk=table.pk).update(zombie_seconds=10)
    process = uuid.UUID(int=10)
    presence.socket_open(table.pk, humans[0].pk, "lost-close", process=process)
    tick(clock, 1)
    assert connected(table.pk, 0)
    for _ in range(5):
        tick(clock, 3)
        web_process_beat(process_id=process, name="web", sockets={}, taken_at=clock.now())
        presence_sweep()
    assert not TableConnection.objects.filter(channel_name="lost-close").exists()
    assert zombie(table.pk, 0)


@pytest.mark.asyncio
async def test_a_watcher_who_sits_down_is_present_and_sockets_leave_no_rows() -> None:
    host, carol = await db(user)("host2"), await db(user)("carol")
    table = await db(table_create)(host=host, game="tiny", seats=2)
    watching = await connect(table.pk, await db(token_for)(user=carol))
    assert await db(lambda: WebProcess.objects.filter(pk=heartbeat.PROCESS_ID).exists())()
    await db(table_join)(table_id=table.pk, user=carol, seat=1)
    assert await db(connected)(table.pk, 1), "the socket she opened as a watcher counts for her seat"
    assert not await db(connected)(table.pk, 0), "the host never opened the table"
    await watching.disconnect()
    assert not await db(lambda: TableConnection.objects.exists())()
    assert not await db(connected)(table.pk, 1)
