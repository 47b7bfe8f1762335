"""Fair races, the platform side: round trips measured by the server, the Timing action_submit passes,
the `lag_cap_ms` table option, and the settlement timer the claiming web process fires itself."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import token_for
from config.asgi import application
from games import errors, selectors
from games.engine import fold_all
from games.kit import latency, registry
from games.kit.latency import RttEstimator, compensation_ms, robust_median
from games.models import Match, MatchEvent, Seat, Table, TableConnection
from games.services.actions import action_submit
from games.services.presence import presence_rtt_set
from games.services.tables import table_add_bot, table_create, table_join, table_start
from live import local_sockets
from tests.conftest import Clock, run_jobs
from tests.games.factories import started_table, user
from tests.support import presence, racegame

# --- the estimator (pure) ---------------------------------------------------------------


def test_a_pong_answers_only_its_own_outstanding_ping_once() -> None:
    est = RttEstimator()
    p = est.ping(10.0)
    assert p == {"type": "ping", "n": 1}
    assert est.pong(99, 10.05) is None  # never sent
    assert est.pong("1", 10.05) is None and est.pong(True, 10.05) is None and est.pong(None, 10.05) is None
    assert est.pong(1, 10.05) == pytest.approx(50.0)
    assert est.pong(1, 10.06) is None  # replayed
    assert est.estimate_ms == 50


def test_huge_or_negative_round_trips_are_no_samples() -> None:
    est = RttEstimator()
    est.ping(100.0)
    assert est.pong(1, 100.0 + latency.MAX_RTT_S + 1) is None
    est.ping(200.0)
    assert est.pong(2, 199.0) is None  # a clock that ran backwards
    assert est.estimate_ms is None


def test_old_pings_are_forgotten_past_the_outstanding_limit() -> None:
    est = RttEstimator()
    for i in range(latency.MAX_OUTSTANDING + 3):
        est.ping(float(i))
    assert len(est.outstanding) == latency.MAX_OUTSTANDING
    assert est.pong(1, 20.0) is None  # the oldest went
    assert est.pong(latency.MAX_OUTSTANDING + 3, latency.MAX_OUTSTANDING + 2.04) == pytest.approx(40.0)


def test_the_estimate_is_the_median_of_the_last_samples_without_slow_outliers() -> None:
    assert robust_median([]) is None
    assert robust_median([40, 42, 41, 400, 43]) == 41.5  # 400 dropped, median of the rest
    assert robust_median([40, 41, 42, 300, 310]) == 41  # two outliers of five: dropped as well
    assert robust_median([5, 6, 7]) == 6
    est = RttEstimator()
    t = 0.0
    for rtt in [30, 31, 500, 29, 32, 30, 31]:
        est.ping(t)
        est.pong(est.next_n - 1, t + rtt / 1000)
        t += 2
    assert len(est.samples) == latency.KEEP
    assert est.estimate_ms in (30, 31)  # median of 29, 30, 31, 32 (the 500 dropped)


def test_an_estimate_is_stored_again_only_when_it_moved_noticeably() -> None:
    est = RttEstimator()
    assert est.worth_storing() is None
    est.samples.extend([80.0])
    assert est.worth_storing() == 80
    est.stored_ms = 80
    est.samples.clear()
    est.samples.extend([82.0])
    assert est.worth_storing() is None  # 2 ms: not worth a write
    est.samples.clear()
    est.samples.extend([95.0])
    assert est.worth_storing() == 95


def test_an_estimate_is_written_at_most_once_per_gap_however_much_it_moves() -> None:
    est = RttEstimator()
    est.samples.extend([80.0])
    assert est.worth_storing(100.0) == 80  # the first at once
    est.stored_ms, est.stored_at = 80, 100.0
    est.samples.clear()
    est.samples.extend([400.0])
    assert est.worth_storing(100.0 + latency.STORE_MIN_GAP_S - 0.1) is None  # moved a lot, but too soon
    assert est.worth_storing(100.0 + latency.STORE_MIN_GAP_S) == 400


def test_compensation_is_the_round_trip_up_to_the_cap_and_nothing_with_the_cap_off() -> None:
    assert compensation_ms(80, 200) == 80
    assert compensation_ms(350, 200) == 200
    assert compensation_ms(80, 0) == 0
    assert compensation_ms(None, 200) == 0


# --- the table option ---------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db(transaction=True)


@pytestmark_db
@pytest.mark.parametrize(("value", "ok"), [(None, True), (0, True), (200, True), (500, True), (-1, False), (501, False), ("fast", False), (True, False)])
def test_lag_cap_ms_is_a_table_option_from_0_to_500(value: Any, ok: bool) -> None:
    host = user("host")
    if ok:
        table = table_create(host=host, game="tiny", seats=2, lag_cap_ms=value)
        assert table.lag_cap_ms == (200 if value is None else value)
        assert selectors.table_payload(table)["lag_cap_ms"] == table.lag_cap_ms
        return
    with pytest.raises(errors.PlatformError) as e:
        table_create(host=host, game="tiny", seats=2, lag_cap_ms=value)
    assert e.value.status == 400 and e.value.code == "bad_option" and "lag_cap_ms" in e.value.message


@pytestmark_db
def test_the_create_table_api_takes_lag_cap_ms() -> None:
    from rest_framework.test import APIClient

    host = user("host")
    client = APIClient()
    client.force_authenticate(host)
    r = client.post("/api/tables/", {"game": "tiny", "seats": 2, "lag_cap_ms": 120}, format="json")
    assert r.status_code == 201 and r.json()["lag_cap_ms"] == 120
    r = client.post("/api/tables/", {"game": "tiny", "seats": 2, "lag_cap_ms": 900}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_option"


# --- action_submit: a Timing for race kinds only ----------------------------------------


@pytest.fixture()
def racey() -> Any:
    registry.register(racegame.RULES)
    yield racegame.RULES
    registry.unregister("racey")


def race_table(
    lag_cap_ms: int | None = None, players: int = 2, bots: int = 0, min_reaction_ms: int = 0
) -> tuple[Table, Match, list[Any]]:
    """A started table of the race test game; `min_reaction_ms` 0 (no human floor): these claims come at once."""
    humans = [user(f"r{i}-{Table.objects.count()}") for i in range(players)]
    table = table_create(
        host=humans[0], game="racey", seats=players + bots, lag_cap_ms=lag_cap_ms, min_reaction_ms=min_reaction_ms
    )
    for h in humans[1:]:
        table_join(table_id=table.pk, user=h)
    for _ in range(bots):
        table_add_bot(table_id=table.pk, by=humans[0])
    match = table_start(table_id=table.pk, by=humans[0])
    return table, match, humans


def events_of(match: Match, kind: str) -> list[dict[str, Any]]:
    return [e.as_event() for e in MatchEvent.objects.filter(match=match, kind=kind).order_by("seq")]


@pytestmark_db
def test_race_kinds_get_a_timing_from_the_measured_round_trips_and_others_none(racey: Any, clock: Clock) -> None:
    table, match, (a, b, c) = race_table(players=3)
    presence.socket_open(table.pk, b.pk, "ch-b")
    presence.socket_open(table.pk, c.pk, "ch-c")
    presence_rtt_set(channel_name="ch-b", rtt_ms=90)
    presence_rtt_set(channel_name="ch-c", rtt_ms=700)  # beyond the cap: counted up to 200
    action_submit(match_id=match.pk, seat=0, action={"kind": "show"}, action_id="s1", rtt_ms=40)
    assert events_of(match, "shown")[0]["data"]["timing_given"] is False  # not a race kind: decided as before
    clock.advance(0.3)
    action_submit(match_id=match.pk, seat=0, action={"kind": "grab"}, action_id="g1", rtt_ms=40)
    claimed = events_of(match, "race_claimed")[0]["data"]
    arrival = claimed["claim"]["arrival_ms"]
    assert claimed["claim"]["judged_ms"] == arrival - 40
    assert claimed["comp_ms"] == [40, 90, 200]
    assert claimed["claim"]["reaction_ms"] == arrival - 40 - events_of(match, "shown")[0]["data"]["race"]["opened_ms"]


@pytestmark_db
def test_a_full_window_keeps_the_settle_margin_of_the_cap_for_delivery(racey: Any, clock: Clock, settings: Any) -> None:
    """A near claimer and a seat at the cap: the race waits cap - margin, so its result can reach the screens in time."""
    settings.RACE_SETTLE_MARGIN_MS = 15
    table, match, (a, b, c) = race_table(players=3)
    presence.socket_open(table.pk, b.pk, "ch-b")
    presence.socket_open(table.pk, c.pk, "ch-c")
    presence_rtt_set(channel_name="ch-b", rtt_ms=190)  # within the margin's reach of the cap
    presence_rtt_set(channel_name="ch-c", rtt_ms=50)  # far from it: waited for in full
    action_submit(match_id=match.pk, seat=0, action={"kind": "show"}, action_id="s1", rtt_ms=4)
    clock.advance(0.3)
    action_submit(match_id=match.pk, seat=0, action={"kind": "grab"}, action_id="g1", rtt_ms=4)
    claimed = events_of(match, "race_claimed")[0]["data"]
    assert claimed["comp_ms"] == [4, 4 + 200 - 15, 50]
    action_submit(match_id=match.pk, seat=1, action={"kind": "grab"}, action_id="g2", rtt_ms=190)
    late = events_of(match, "race_claimed")[1]["data"]
    assert late["comp_ms"][1] == 190 and late["claim"]["judged_ms"] == late["claim"]["arrival_ms"] - 190  # a claimer's own figure is never cut


@pytestmark_db
def test_a_client_cannot_claim_a_time_and_the_cap_off_judges_on_arrival(racey: Any) -> None:
    table, match, (a, b) = race_table(lag_cap_ms=0)
    presence.socket_open(table.pk, b.pk, "ch-b")
    presence_rtt_set(channel_name="ch-b", rtt_ms=90)
    action_submit(match_id=match.pk, seat=0, action={"kind": "show"}, action_id="s1")
    action_submit(
        match_id=match.pk, seat=0, action={"kind": "grab", "judged_ms": 0, "arrival_ms": 0, "rtt_ms": 5000}, action_id="g1", rtt_ms=80
    )
    claim = events_of(match, "race_claimed")[0]["data"]
    assert claim["claim"]["judged_ms"] == claim["claim"]["arrival_ms"] and claim["comp_ms"] == [0, 0]
    assert events_of(match, "race_settled")[0]["data"]["winner"] == 0  # nobody to wait for: settled at once


@pytestmark_db
def test_bots_zombies_and_absent_seats_are_not_compensated(racey: Any) -> None:
    table, match, (a, b) = race_table(players=2, bots=1)
    presence.socket_open(table.pk, a.pk, "ch-a")
    presence_rtt_set(channel_name="ch-a", rtt_ms=60)
    action_submit(match_id=match.pk, seat=0, action={"kind": "show"}, action_id="s1")
    action_submit(match_id=match.pk, seat=2, action={"kind": "grab"}, action_id="bot:1:2", by_bot=True, rtt_ms=999)
    claim = events_of(match, "race_claimed")[0]["data"]
    assert claim["claim"]["judged_ms"] == claim["claim"]["arrival_ms"]  # a bot: round trip 0, whatever is passed
    assert claim["comp_ms"] == [60, 0, 0]  # b has no socket; the bot 0
    Seat.objects.filter(table=table, seat=0).update(zombie=True)
    assert selectors.seat_round_trips(table_id=table.pk) == (200, {}, 0)


@pytestmark_db
def test_a_race_waits_for_a_slower_seat_then_the_timer_settles_it_and_the_log_refolds(racey: Any, clock: Clock) -> None:
    table, match, (a, b) = race_table()
    presence.socket_open(table.pk, b.pk, "ch-b")
    presence_rtt_set(channel_name="ch-b", rtt_ms=150)
    action_submit(match_id=match.pk, seat=0, action={"kind": "show"}, action_id="s1")
    run_jobs(clock, until_s=0)
    clock.advance(0.2)
    action_submit(match_id=match.pk, seat=0, action={"kind": "grab"}, action_id="g1", rtt_ms=2)
    assert not events_of(match, "race_settled")  # b could still be faster for 148 ms
    clock.advance(0.1)  # b's claim, judged 150 ms earlier, beats a's
    action_submit(match_id=match.pk, seat=1, action={"kind": "grab"}, action_id="g2", rtt_ms=150)
    settled = events_of(match, "race_settled")
    assert settled and settled[0]["data"]["winner"] == 1
    assert [c["seat"] for c in settled[0]["data"]["ranking"]] == [1, 0]
    action_submit(match_id=match.pk, seat=0, action={"kind": "show"}, action_id="s2")
    clock.advance(0.1)
    action_submit(match_id=match.pk, seat=0, action={"kind": "grab"}, action_id="g3", rtt_ms=2)
    run_jobs(clock)  # the race:<id> timer, 148 ms later
    assert events_of(match, "race_settled")[-1]["data"]["winner"] == 0
    match.refresh_from_db()
    log = [{"kind": e.kind, "seat": e.seat, "data": e.data} for e in MatchEvent.objects.filter(match=match).order_by("seq")]
    assert fold_all(racey, log) == match.state


# --- the socket -------------------------------------------------------------------------

async def connect(table_id: int, token: str | None) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/" + (f"?token={token}" if token else ""))
    connected, _ = await comm.connect()
    assert connected
    hello = await comm.receive_json_from(timeout=5)
    assert hello["type"] == "hello"
    return comm, hello


async def next_of(comm: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        msg = await comm.receive_json_from(timeout=timeout)
        if msg["type"] == kind:
            return msg


@database_sync_to_async
def tiny_table() -> tuple[Table, Match, list[str]]:
    table, match, humans = started_table(players=2)
    return table, match, [token_for(user=h) for h in humans]


async def pinged_socket(settings: Any, seat: int) -> tuple[Table, Any]:
    """A two-player table and `seat`'s socket, pinged every 2 s (the ping tests' start).

    The in-process communicator has no transport, so nothing bounds its pongs (live/transport_rtt.py): these
    tests stand for a deployment that counts unbounded pongs (RTT_UNBOUNDED_CAP_MS above them).
    """
    settings.WS_PING_SECONDS = 2
    settings.RTT_UNBOUNDED_CAP_MS = 500
    table, _match, tokens = await tiny_table()
    comm, _ = await connect(table.pk, tokens[seat])
    return table, comm


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_server_pings_right_after_hello_and_a_pong_gives_the_round_trip(settings: Any) -> None:
    table, comm = await pinged_socket(settings, 1)
    for _ in range(3):  # the first pings come quickly, so the first race already has an estimate
        ping = await asyncio.wait_for(next_of(comm, "ping"), 2)
        assert isinstance(ping["n"], int)
        await asyncio.sleep(0.06)
        await comm.send_json_to({"type": "pong", "n": ping["n"]})

    @database_sync_to_async
    def stored() -> tuple[int | None, dict[str, Any]]:
        rtt = TableConnection.objects.filter(table=table).values_list("rtt_ms", flat=True).first()
        return rtt, selectors.table_payload(Table.objects.get(pk=table.pk))

    for _ in range(50):
        rtt, payload = await stored()
        if rtt is not None:
            break
        await asyncio.sleep(0.05)
    assert rtt is not None and 55 <= rtt <= 150, rtt
    players = {p["seat"]: p for p in payload["players"]}
    assert players[1]["rtt_ms"] == rtt and players[0]["rtt_ms"] is None  # seat 0 has no socket
    await comm.send_json_to({"type": "ping"})  # the client's own ping is still answered
    assert (await next_of(comm, "pong")) == {"type": "pong"}
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_idle_socket_holds_no_task_and_its_pings_stop_when_it_closes(settings: Any) -> None:
    """Memory per socket (docs/performance.md): between messages a socket has no inbox worker, between pings a timer handle."""
    table, comm = await pinged_socket(settings, 1)
    (consumer,) = list(local_sockets._by_table[table.pk])
    for _ in range(3):
        ping = await next_of(comm, "ping")
        await comm.send_json_to({"type": "pong", "n": ping["n"]})
    await comm.send_json_to({"type": "ping"})  # a message the inbox worker handles
    assert (await next_of(comm, "pong")) == {"type": "pong"}
    await asyncio.sleep(0.05)
    assert consumer.inbox == [] and consumer.inbox_worker is None, "the worker ended with the inbox empty"
    assert isinstance(consumer.pinger, asyncio.TimerHandle) and consumer.pings_sent >= 3
    await comm.send_json_to({"type": "ping"})
    await comm.send_json_to({"type": "ping"})
    assert [await next_of(comm, "pong") for _ in range(2)] == [{"type": "pong"}] * 2, "a new worker for the next ones"
    sent = consumer.pings_sent
    await comm.disconnect()
    assert consumer.pinger is None and consumer.closing
    consumer._ping_due()  # a handle that fired as the socket closed arms nothing
    await asyncio.sleep(0.05)
    assert consumer.pinger is None and consumer.pings_sent == sent


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_forged_replayed_and_malformed_pongs_neither_crash_nor_count(settings: Any) -> None:
    table, comm = await pinged_socket(settings, 0)
    ping = await next_of(comm, "ping")
    for forged in [{"n": ping["n"] + 1000}, {"n": -1}, {"n": 2**53}, {"n": 1.5}]:
        await comm.send_json_to({"type": "pong", **forged})
    await comm.send_json_to({"type": "pong", "n": "7"})
    err = await next_of(comm, "error")
    assert err["code"] == "bad_message"
    await comm.send_json_to({"type": "pong", "n": ping["n"]})
    await comm.send_json_to({"type": "pong", "n": ping["n"]})  # replayed: no second sample
    await comm.send_json_to({"type": "ping"})
    assert (await next_of(comm, "pong")) == {"type": "pong"}  # the socket is alive and well

    @database_sync_to_async
    def samples() -> int | None:
        return TableConnection.objects.filter(table=table).values_list("rtt_ms", flat=True).first()

    await asyncio.sleep(0.2)
    assert (await samples()) is not None and (await samples()) < 1000  # the real pong, not 2**53 or a forged one
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_claiming_process_fires_the_race_timer_itself(settings: Any, racey: Any) -> None:
    """The race result is sent when the window closes, without waiting for the (here: manual) scheduler."""
    settings.WS_PING_SECONDS = 0

    @database_sync_to_async
    def make() -> tuple[Table, Match, list[str]]:
        table, match, humans = race_table()
        presence.socket_open(table.pk, humans[1].pk, "ch-far")
        presence_rtt_set(channel_name="ch-far", rtt_ms=120)
        return table, match, [token_for(user=h) for h in humans]

    table, match, tokens = await make()
    me, _ = await connect(table.pk, tokens[0])
    await me.send_json_to({"type": "act", "id": "s", "action": {"kind": "show"}})
    await next_of(me, "ack")
    await me.send_json_to({"type": "act", "id": "g", "action": {"kind": "grab"}})
    loop = asyncio.get_running_loop()
    started = loop.time()
    claimed = await next_of(me, "events")
    assert [e["kind"] for e in claimed["events"]] == ["race_claimed", "timer"]
    settled = await next_of(me, "events", timeout=3)
    waited = loop.time() - started
    assert [e["kind"] for e in settled["events"]][0] == "race_settled"
    assert settled["events"][0]["data"]["winner"] == 0
    assert 0.1 <= waited <= 1.0, waited  # the 120 ms window, not the scheduler (nobody runs the manual queue here)
    await me.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_pongs_nobody_vouches_for_count_for_nothing_by_default(settings: Any) -> None:
    """No transport bounds an in-process socket (PROTOCOL "Fair play"): with RTT_UNBOUNDED_CAP_MS 0 its late pongs buy 0 ms."""
    settings.WS_PING_SECONDS = 2
    settings.RTT_UNBOUNDED_CAP_MS = 0
    table, _match, tokens = await tiny_table()
    comm, _ = await connect(table.pk, tokens[1])
    for _ in range(3):
        ping = await asyncio.wait_for(next_of(comm, "ping"), 2)
        await asyncio.sleep(0.06)
        await comm.send_json_to({"type": "pong", "n": ping["n"]})

    @database_sync_to_async
    def stored() -> int | None:
        return TableConnection.objects.filter(table=table).values_list("rtt_ms", flat=True).first()

    rtt = None
    for _ in range(50):
        rtt = await stored()
        if rtt is not None:
            break
        await asyncio.sleep(0.05)
    assert rtt == 0, "60 ms of pongs, and nothing the transport measured: nothing compensated"
    await comm.disconnect()
