"""Presence: one connection row per open socket, each web process's heartbeat lease,
round trips, the sweeper, and zombie seats (players away too long play on as bots)."""

from __future__ import annotations

import datetime
import logging
import uuid

from django.db import IntegrityError, connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games import hooks, selectors
from games.models import (
    Match,
    Seat,
    Table,
    TableConnection,
    WebProcess,
)
from live import async_db, bus

log = logging.getLogger(__name__)


def presence_open(*, table_id: int, user_id: int, channel_name: str, process_id: uuid.UUID) -> None:
    """A signed-in user's socket on this table is open; it counts while its process beats.

    If the user holds a seat, its player is back: a zombie seat is theirs again,
    unless they were withdrawn (a reconnect does not undo that).
    """
    now = timezone.now()
    try:
        with transaction.atomic():
            TableConnection.objects.bulk_create(
                [TableConnection(table_id=table_id, user_id=user_id, channel_name=channel_name, process_id=process_id, opened_at=now)],
                ignore_conflicts=True,  # the process's heartbeat may have written it back already
            )
            seat = Seat.objects.select_for_update().filter(table_id=table_id, user_id=user_id, bot_level="").first()
            if seat is None:
                return
            back = seat.zombie and not seat.withdrawn
            first = seat.seen_at is None
            if back or first:
                seat.zombie = seat.zombie and not back
                seat.seen_at = now
                seat.save(update_fields=["zombie", "seen_at"])
            if back:
                bus.table_changed(table_id)
            if first:  # a tournament table waiting for its players is dealt when the last one comes
                hooks.run_seat_arrived(table_id)
    except IntegrityError:
        return  # the table (or the user) was deleted meanwhile: nothing to be present at


def presence_close(*, table_id: int, user_id: int, channel_name: str) -> None:
    """A socket closed: its row goes, and the seat's player (if any) is away from now on,
    unless another socket of theirs is still live (the check looks at every live row)."""
    now = timezone.now()
    with transaction.atomic():
        TableConnection.objects.filter(channel_name=channel_name).delete()
        seat = (
            Seat.objects.select_for_update(of=("self",)).select_related("table")
            .filter(table_id=table_id, user_id=user_id, bot_level="").first()
        )
        if seat is None:
            return  # not (or no longer) seated here: whoever holds a seat now is not concerned
        seat.seen_at = now
        seat.save(update_fields=["seen_at"])
    if seat.table.status == Table.Status.PLAYING and not seat.zombie:
        bus.schedule("games.zombie_check", (table_id,), seat.table.zombie_seconds)


_RTT_SET = f"UPDATE {TableConnection._meta.db_table} SET rtt_ms = %s WHERE channel_name = %s"


def presence_rtt_set(*, channel_name: str, rtt_ms: int, table_id: int | None = None) -> bool:
    """Store a socket's measured round trip on its presence row (Fair races); False when it has no row (yet).

    Written only when the estimate moved noticeably (games.kit.latency), so a row is
    written about once per connection, not once per ping. With `table_id` the
    table hears of it (every player's ping is on the table page), at most once
    per gap (live.bus.table_round_trips_changed).
    """
    with connection.cursor() as cursor:  # by hand: the ORM's update cost a busy web process 3 % of its CPU
        cursor.execute(_RTT_SET, [max(0, int(rtt_ms)), channel_name])
        changed = cursor.rowcount > 0
    if changed and table_id is not None:
        bus.table_round_trips_changed(table_id)
    return changed


async def presence_rtt_set_async(*, channel_name: str, rtt_ms: int, table_id: int | None = None) -> bool:
    """`presence_rtt_set` from the event loop's own connection (live/async_db.py): no thread.

    At 1,000 sockets about a hundred of these a second each took a database thread and
    its hop (docs/performance.md); the one autocommitted UPDATE is the same.
    """
    async with async_db.connection() as conn, conn.cursor() as cursor:
        await cursor.execute(_RTT_SET, [max(0, int(rtt_ms)), channel_name])
        changed = cursor.rowcount > 0
    if changed and table_id is not None:
        bus.table_round_trips_changed(table_id, committed=True)
    return changed


def web_process_beat(
    *, process_id: uuid.UUID, name: str, sockets: dict[str, tuple[int, int]], taken_at: datetime.datetime
) -> int:
    """One heartbeat of a web process (`sockets`: its open sockets, channel -> (table, user), as of `taken_at`).

    Normally one UPDATE of the process's row and one read of its connection rows.
    When the row was stale or gone (the process stalled past its lease, or could
    not reach the database, and the sweeper took it for dead) or the rows differ
    from the open sockets (a close that could not be written), the beat writes
    back what is true: missing rows again (their zombie seats back to their
    players, who never left), rows of sockets it no longer holds closed. Returns
    how many rows it put right.
    """
    now = timezone.now()
    with transaction.atomic():
        if not WebProcess.objects.filter(pk=process_id, seen_at__gte=selectors.lease_cutoff()).update(seen_at=now):
            WebProcess.objects.update_or_create(pk=process_id, defaults={"seen_at": now, "name": name[:100]})
        stored = {
            channel: (table_id, user_id, opened_at)
            for channel, table_id, user_id, opened_at in TableConnection.objects.filter(process_id=process_id).values_list(
                "channel_name", "table_id", "user_id", "opened_at"
            )
        }
    missing = [c for c in sockets if c not in stored]
    # A row opened after the snapshot belongs to a socket the snapshot could not know yet.
    gone = [c for c, (_, _, opened_at) in stored.items() if c not in sockets and opened_at < taken_at]
    for channel in missing:
        table_id, user_id = sockets[channel]
        presence_open(table_id=table_id, user_id=user_id, channel_name=channel, process_id=process_id)
    for channel in gone:
        table_id, user_id, _ = stored[channel]
        presence_close(table_id=table_id, user_id=user_id, channel_name=channel)
    return len(missing) + len(gone)


def presence_sweep() -> dict[str, int]:
    """Celery beat `games.sweep_presence` (every 5 s): the connections of dead processes go, away players become zombies.

    A connection whose process has not beaten within the lease is removed;
    its player's away time counts from that process's last beat (`seen_at`),
    so a player whose web process died is a zombie `zombie_seconds` after the
    crash (or once the lease is over, if that is later), give or take a sweep.
    It also catches a `games.zombie_check` a lost worker dropped.
    """
    cutoff = selectors.lease_cutoff()
    with transaction.atomic():
        fresh = WebProcess.objects.filter(seen_at__gte=cutoff).values("pk")
        dead = list(
            TableConnection.objects.exclude(process_id__in=fresh).values_list("pk", "table_id", "user_id", "process_id", "opened_at")
        )
        if dead:
            beats = dict(WebProcess.objects.filter(pk__in={d[3] for d in dead}).values_list("pk", "seen_at"))
            last: dict[tuple[int, int], datetime.datetime] = {}
            for _, table_id, user_id, process_id, opened_at in dead:
                at = max(beats.get(process_id, opened_at), opened_at)
                last[(table_id, user_id)] = max(last.get((table_id, user_id), at), at)
            for (table_id, user_id), at in last.items():
                Seat.objects.filter(table_id=table_id, user_id=user_id, bot_level="").filter(
                    Q(seen_at__isnull=True) | Q(seen_at__lt=at)
                ).update(seen_at=at)
            TableConnection.objects.filter(pk__in=[d[0] for d in dead]).delete()
        WebProcess.objects.filter(seen_at__lt=cutoff).delete()
    zombies = _zombie_the_away(selectors.away_seats())
    return {"connections_removed": len(dead), "zombies": zombies}


def table_zombie_check(*, table_id: int) -> int:
    """Celery `games.zombie_check`, `zombie_seconds` after a socket closed: who is still away becomes a zombie."""
    return _zombie_the_away(selectors.away_seats(table_id=table_id))


def _zombie_the_away(candidates: QuerySet[Seat]) -> int:
    """A player away at least their table's `zombie_seconds` is played by a normal bot until back."""
    now = timezone.now()
    made = 0
    for candidate in candidates.select_related("table"):
        if (now - candidate.seen_at).total_seconds() + 0.05 < candidate.table.zombie_seconds:
            continue
        with transaction.atomic():
            # Lock first, then look for a live socket in a statement of its own: presence_open
            # takes this lock after writing its row, so one of the two sees the other.
            seat = Seat.objects.select_for_update(of=("self",)).select_related("table").filter(pk=candidate.pk).first()
            if seat is None or seat.zombie or seat.seen_at is None or seat.table.status != Table.Status.PLAYING:
                continue
            if (now - seat.seen_at).total_seconds() + 0.05 < seat.table.zombie_seconds:
                continue
            if selectors.alive_connections().filter(table_id=seat.table_id, user_id=seat.user_id).exists():
                continue
            seat.zombie = True
            seat.save(update_fields=["zombie"])
            match = Match.objects.filter(pk=seat.table.current_match_id).values_list("pk", "seq", "status").first()
            bus.table_changed(seat.table_id)
        made += 1
        if match is not None and match[2] == Match.Status.LIVE:
            bus.schedule("games.plan_bots", (match[0], match[1]), 0)
    return made
