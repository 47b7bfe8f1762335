"""Writes for tables and matches (HackSoft style: `<noun>_<verb>`, keyword-only).

Every change to a match goes through `action_submit`: one transaction that
locks the match row, decides, folds, appends the events and saves. What
others must hear of it (sockets, timers, bots, end of match) is sent with
`transaction.on_commit` only, so nothing is pushed for a rollback (Zulip's
actions pattern: `action_check`, the transaction, `action_notify`). On
PostgreSQL an action of its own is two messages to the database, its
transaction opened and committed by hand (games/action_sql.ActionTransaction:
the same lock, durability and after-commit guarantees as `atomic`), or one
when this process committed the match's last action (games/match_cache.py:
decided on that state, the row's guard validates it), sent from the table
socket's event loop (`action_submit_cached`, live/async_db.py).
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import logging
import random
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from accounts.services import bot_free_number, bot_user
from games import action_sql, errors, match_cache, selectors
from games.engine import BOT_LEVELS, BotContext, RuleError, Timing, resolve_options
from games.latency import compensation_ms
from games.models import (
    ChatMessage,
    Match,
    MatchEvent,
    MatchPlayer,
    PendingTimer,
    Seat,
    Snapshot,
    Table,
    TableConnection,
    WebProcess,
)
from games.registry import get_bot, get_rules, public_slugs
from games.table_options import table_options_resolve
from live import async_db, bus, wire

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 100
MAX_ACTION_ID = 64


@dataclass
class SubmitResult:
    seq: int
    events: list[dict[str, Any]]
    duplicate: bool = False
    state: Any = None  # the state after `events`: the acting socket is answered without reading it back


def now_ms(match: Match) -> int:
    """Milliseconds since the match began, by the server clock, never running backwards."""
    elapsed = int((timezone.now() - match.started_at).total_seconds() * 1000)
    return max(elapsed, match.last_t_ms)


# --- tables ------------------------------------------------------------------


def _rules_or_400(game: str) -> Any:
    if game not in public_slugs():
        try:
            return get_rules(game)
        except KeyError:
            raise errors.bad_request(f"unknown game {game!r}", "unknown_game") from None
    return get_rules(game)


def table_create(
    *,
    host: User,
    game: str,
    seats: int,
    options: dict[str, Any] | None = None,
    ranked: bool = False,
    sit: bool = True,
    capped: bool = True,
    zombie_seconds: int | None = None,
    lag_cap_ms: int | None = None,
) -> Table:
    """A new open table; the host sits at seat 0 unless `sit` is false (a table of bots to watch).

    A person hosts at most MAX_OPEN_TABLES_PER_USER open tables at once (409 `too_many_tables`):
    unbounded, one account fills the lobby with tables nobody can tell from real ones. Tables the
    platform organises (`table_create_for`, `capped=False`) start at once and are not a person's.
    `zombie_seconds` (games/table_options.py; None: the default) is how long a player may be away
    before a bot plays for them; `lag_cap_ms` how much of a player's round trip a race compensates.
    """
    rules = _rules_or_400(game)
    if isinstance(seats, bool) or not isinstance(seats, int) or not rules.min_seats <= seats <= rules.max_seats:
        raise errors.bad_request(f"{rules.name} is played by {rules.min_seats} to {rules.max_seats} players", "bad_seats")
    options = dict(options or {})
    internal = sorted(name for name in options if rules.options.get(name) and rules.options[name].internal)
    if internal:
        raise errors.bad_request(f"option(s) {', '.join(internal)} are set by the platform", "bad_option")
    try:
        resolve_options(rules.options, options, seats)
        # Some rules refuse a combination only at setup (ZIGZAG's 5 seats): try it now.
        rules.setup(seats, options, random.Random(0))
    except RuleError as e:
        raise errors.bad_request(e.message, e.code) from None
    own = table_options_resolve({"zombie_seconds": zombie_seconds, "lag_cap_ms": lag_cap_ms})
    with transaction.atomic():
        if capped:
            _open_tables_cap(host)
        table = Table.objects.create(
            game=game, seats=seats, options=options, ranked=bool(ranked), host=host, zombie_seconds=own["zombie_seconds"],
            lag_cap_ms=own["lag_cap_ms"],
        )
        if sit:
            Seat.objects.create(table=table, seat=0, user=host)
    bus.table_changed(table.pk)
    return table


def _open_tables_cap(host: User) -> None:
    """Refuse one more open table past the cap; the host's row is locked so a burst cannot all pass the count."""
    User.objects.select_for_update().filter(pk=host.pk).first()
    cap = settings.MAX_OPEN_TABLES_PER_USER
    if Table.objects.filter(host=host, status=Table.Status.OPEN).count() >= cap:
        raise errors.conflict(f"you already host {cap} open tables: start or leave one first", "too_many_tables")


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise errors.not_found("no such table") from None


def _free_seat(table: Table, seat: int | None) -> int:
    taken = set(table.seat_set.values_list("seat", flat=True))
    if seat is None:
        free = [s for s in range(table.seats) if s not in taken]
        if not free:
            raise errors.conflict("the table is full", "full")
        return free[0]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.seats:
        raise errors.bad_request(f"seat must be a number from 0 to {table.seats - 1}", "bad_seat")
    if seat in taken:
        raise errors.conflict(f"seat {seat} is taken", "seat_taken")
    return seat


def table_join(*, table_id: int, user: User, seat: int | None = None) -> Table:
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status != Table.Status.OPEN:
            raise errors.conflict("the table has started", "started")
        if table.seat_set.filter(user=user).exists():
            raise errors.conflict("you are already seated at this table", "already_seated")
        number = _free_seat(table, seat)
        try:
            with transaction.atomic():
                Seat.objects.create(table=table, seat=number, user=user)
        except IntegrityError:
            raise errors.conflict(f"seat {number} is taken", "seat_taken") from None
    bus.table_changed(table.pk)
    return table


def table_join_by_invite(*, code: str, user: User) -> Table:
    """Accepting an invitation (a POST from its confirmation page, never the link's GET: a link
    any site can make a browser open must not seat anyone): a free seat if there is one, else they watch."""
    table = selectors.table_by_invite(code=code)
    if table.status == Table.Status.OPEN and not table.seat_set.filter(user=user).exists():
        try:
            table_join(table_id=table.pk, user=user)
        except errors.PlatformError as e:
            if e.status != 409:
                raise
    return table


def table_leave(*, table_id: int, user: User) -> Table:
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status != Table.Status.OPEN:
            raise errors.conflict("you cannot leave a table once it has started", "started")
        seat = table.seat_set.filter(user=user, bot_level="").first()
        if seat is None:
            raise errors.conflict("you are not seated at this table", "not_seated")
        seat.delete()
        if table.host_id == user.pk:
            # The next human becomes host; an empty table closes.
            successor = table.seat_set.filter(bot_level="").order_by("seat").first()
            if successor is None:
                table.delete()
                bus.table_removed(table_id)
                return table
            table.host = successor.user
            table.save(update_fields=["host"])
    bus.table_changed(table.pk)
    return table


def table_add_bot(*, table_id: int, by: User, seat: int | None = None, level: str = "normal") -> Table:
    if level not in BOT_LEVELS:
        raise errors.bad_request(f"level must be one of {', '.join(BOT_LEVELS)}", "bad_level")
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.host_id != by.pk:
            raise errors.forbidden("only the host adds bots", "not_host")
        if table.status != Table.Status.OPEN:
            raise errors.conflict("the table has started", "started")
        number = _free_seat(table, seat)
        Seat.objects.create(table=table, seat=number, user=_table_bot(table, level), bot_level=level)
    bus.table_changed(table.pk)
    return table


def _table_bot(table: Table, level: str) -> User:
    """A bot of this level not yet at the table: each bot seat its own account, name and rating."""
    seated = list(table.seat_set.filter(user__is_bot=True, user__bot_game=table.game).values_list("user__bot_level", "user__bot_number"))
    return bot_user(slug=table.game, level=level, number=bot_free_number(slug=table.game, level=level, seated=seated))


PLAY_NOW_SEATS = 4  # a familiar table: you and three bots (or the game's nearest allowed size)


def table_play_now(*, user: User, game: str, level: str = "normal") -> Table:
    """The lobby's "Play now against bots": `user` at a started, casual table of `game`, the other
    seats bots of `level` (each its own account). One click from the lobby to a dealt hand.

    A table of this kind the player still plays (every other seat a bot) is handed back instead of a new
    one: a second click, or a reload, does not leave a trail of abandoned matches for the bots to play.
    Casual by decision: ratings come from tables people chose to rank.
    """
    if game not in public_slugs():
        raise errors.bad_request(f"unknown game {game!r}", "unknown_game")
    rules = get_rules(game)
    if level not in BOT_LEVELS:
        raise errors.bad_request(f"level must be one of {', '.join(BOT_LEVELS)}", "bad_level")
    mine = Table.objects.filter(game=game, status=Table.Status.PLAYING, host=user, seat_set__user=user).order_by("-pk")
    for table in mine[:5]:
        if not table.seat_set.exclude(user=user).filter(user__is_bot=False).exists():
            return table
    seats = min(max(PLAY_NOW_SEATS, rules.min_seats), rules.max_seats)
    with transaction.atomic():
        table = table_create(host=user, game=game, seats=seats, capped=False)
        table = _lock_table(table.pk)
        for _ in range(seats - 1):
            Seat.objects.create(table=table, seat=_free_seat(table, None), user=_table_bot(table, level), bot_level=level)
        table_start(table_id=table.pk, by=user)
    return Table.objects.get(pk=table.pk)


def _match_options(table: Table, rules: Any, seats: list[Seat]) -> dict[str, Any]:
    options = dict(table.options)
    if "dealer" in rules.options:
        options["dealer"] = table.dealer
    if "beginners" in rules.options:
        options["beginners"] = [
            s.seat for s in seats if not s.is_bot and selectors.wins_count(user=s.user, game=table.game) < 2
        ]
    if table.ranked:  # beginner help that plays part of the game (ZIGZAG's hand_hint) is off in ranked play
        for name in getattr(rules, "unranked_off", ()):
            options[name] = False
    return options


def table_start(*, table_id: int, by: User, seed: str | None = None) -> Match:
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.host_id != by.pk:
            raise errors.forbidden("only the host starts the table", "not_host")
        if table.status == Table.Status.PLAYING:
            raise errors.conflict("the table is already playing", "started")
        seats = list(table.seat_set.select_related("user"))
        if len(seats) != table.seats:
            raise errors.conflict(f"every seat must be filled ({len(seats)} of {table.seats})", "not_full")
        match = _match_create(table=table, seats=seats, seed=seed)
    bus.table_changed(table.pk)
    return match


def table_rematch(*, table_id: int, by: User) -> Match:
    """Play again at the same table: the dealer moves one seat left."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if not table.seat_set.filter(user=by).exists() and table.host_id != by.pk:
            raise errors.forbidden("only the players of this table start a rematch", "not_seated")
        if table.status != Table.Status.FINISHED:
            raise errors.conflict("the match is not over", "not_finished")
        last = -1 if table.dealer < 0 else table.dealer
        table.dealer = ((table.seats - 1 if last < 0 else last) + 1) % table.seats
        seats = list(table.seat_set.select_related("user"))
        match = _match_create(table=table, seats=seats, seed=None)
    bus.table_changed(table.pk)
    return match


def _match_create(*, table: Table, seats: list[Seat], seed: str | None) -> Match:
    rules = get_rules(table.game)
    options = _match_options(table, rules, seats)
    seed = seed or secrets.token_hex(16)
    try:
        setup_events = rules.setup(table.seats, options, random.Random(seed))
    except RuleError as e:
        raise errors.bad_request(e.message, e.code) from None
    state = None
    for e in setup_events:
        state = rules.fold(state, e)
    match = Match.objects.create(
        table=table,
        game=table.game,
        seats=table.seats,
        options=options,
        ranked=table.ranked,
        state=state,
        seq=len(setup_events),
        started_at=timezone.now(),
        seed=seed,
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, seat=s.seat, user=s.user, bot_level=s.bot_level) for s in seats
    )
    stored = [
        MatchEvent(match=match, seq=i + 1, t_ms=0, kind=e["kind"], seat=e.get("seat"), data=e.get("data", {}))
        for i, e in enumerate(setup_events)
    ]
    MatchEvent.objects.bulk_create(stored)
    timers = [e for e in setup_events if e["kind"] == "timer"]
    writes = action_sql.Writes()
    for t in timers:
        writes.timer_pending(match.pk, str(t["data"]["id"]), int(t["data"]["due_ms"]))
    writes.flush()
    table.status = Table.Status.PLAYING
    table.current_match = match
    table.save(update_fields=["status", "current_match", "dealer"])
    events = [e.as_event() for e in stored]
    match_id, table_id = match.pk, table.pk
    transaction.on_commit(
        lambda: action_notify(match_id=match_id, table_id=table_id, events=events, state=state, timers=timers, finished=False, now=0)
    )
    return match


# --- actions -----------------------------------------------------------------


def action_check(*, action: Any, action_id: Any, id_required: bool = False) -> None:
    """Refuse, before any transaction, what no rules could decide or the database could not store.

    The one shape check of an action, whoever submits it: the table socket calls it on the event
    loop before its hop to a database thread (then `action_submit(checked=True)`), `action_submit`
    for everyone else. The id is stored as text and the action reaches rules and events: a NUL or
    a lone surrogate in either (whichever way it got here) would fail in the database or an
    encoder, not as an error. A socket's action always carries an id (`id_required`); a timer's or
    a bot's may not.
    """
    if (id_required or action_id is not None) and (not isinstance(action_id, str) or not 0 < len(action_id) <= MAX_ACTION_ID):
        raise errors.PlatformError("bad_message", f"`id` must be a string of 1 to {MAX_ACTION_ID} characters")
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise errors.PlatformError("bad_message", "`action` must be an object with a string `kind`")
    try:
        if action_id is not None:
            wire.check_text(action_id, "id")
        wire.check(action)
    except wire.WireError as e:
        raise errors.PlatformError("bad_message", e.message) from None


def action_submit(
    *,
    match_id: int,
    seat: int | None,
    action: dict[str, Any],
    action_id: str | None = None,
    by_bot: bool = False,
    rtt_ms: int | None = None,
    received_at: datetime.datetime | None = None,
    checked: bool = False,
    hold_timers: bool = False,
    cache: bool = True,
) -> SubmitResult:
    """Check, apply in one transaction, notify once on commit; raises PlatformError when nothing was applied.

    The three steps of Zulip's actions: `action_check` (the shape; `checked`: the caller made it,
    as the table socket does on its event loop before the hop to a database thread), then the
    transaction here (`_decide` asks the rules), then `action_notify` after the commit.

    `seat` None is the system (timers). The row lock makes commit order the
    authoritative order of actions. `by_bot`: the bot playing the seat acts
    (games.bot_act); the seat's own player may not act once withdrawn.
    `rtt_ms`: the acting socket's round trip as the server measured it
    (games.latency; the consumer passes it). Only for an action kind in
    `rules.races` is a `Timing` computed (`race_timing`) and handed to decide;
    every other action is decided exactly as before. `received_at`: when the
    claim reached the web process (a claim waiting behind the socket's previous
    message is judged from then, not from when its turn came). Who hears of it
    is `action_notify`'s, once, after the commit. `hold_timers`: the timers the
    action arms are held by this web process (live.local_timers: a table
    socket's actions and the timers they chain), else scheduled on Celery.
    `cache` False: the caller already tried the fast path (`action_submit_cached`, on the
    event loop) and this is the locked path's turn.
    """
    if not checked:
        action_check(action=action, action_id=action_id)
    if seat is None and action["kind"] != "timer":
        raise errors.PlatformError("not_seated", "only seated players act")
    if cache and seat is not None and action_id is not None and not by_bot and match_cache.enabled():
        fast = _submit_cached(
            match_id=match_id, seat=seat, action=action, action_id=action_id, hold_timers=hold_timers,
            rtt_ms=rtt_ms, received_at=received_at,
        )
        if fast is not None:
            return fast
    with action_sql.ActionTransaction() as tx:
        try:
            match = action_sql.match_lock(tx=tx, match_id=match_id, seat=seat, action_id=action_id)
        except Match.DoesNotExist:
            raise errors.PlatformError("no_match", "no such match", 404) from None
        if match.done_seq is not None:
            return SubmitResult(seq=match.done_seq, events=[], duplicate=True)
        if match.withdrawn and not by_bot:
            raise errors.PlatformError("withdrawn", "you were withdrawn from this table: a bot plays your seat to the end", 403)
        if match.status != Match.Status.LIVE:
            raise errors.PlatformError("match_over", "the match is over", 409)
        rules = get_rules(match.game)
        now = now_ms(match)
        new_events = _decide(rules, match, seat, action, now, rtt_ms=None if by_bot else rtt_ms, received_at=received_at)
        stored, state = _stored(rules, match.state, new_events, match.seq, now)
        writes = _writes(match.pk, seat, action, action_id, stored, new_events)
        finished = False
        written = None
        if stored:
            if _crosses_snapshot(match.seq, stored):
                Snapshot.objects.create(match=match, seq=match.seq + len(stored), state=state)
            match.seq += len(stored)
            match.state = state
            match.last_t_ms = now
            outcome = rules.outcome(state)
            if outcome is not None:
                finished = True
                _match_finish(match, outcome)
            written = writes.match(match)
        if action_id is not None:
            writes.action_record(match.pk, seat, action_id, match.seq)
        writes.flush(tx)
        if stored:
            bots = not finished and (match.table_id is None or match.bots_play)
            _notify_on_commit(
                tx, match.pk, match.table_id, match.started_at, stored, state, new_events,
                finished=finished, now=now, bots=bots, hold_timers=hold_timers,
            )
            if finished:
                match_cache.drop(match.pk)
                tx.on_commit(functools.partial(match_cache.end, match.pk))
            elif tx.by_hand and written is not None:  # committed now (inside an outer atomic it is not yet)
                match_cache.put(match_cache.Cached(
                    match_id=match.pk, seq=match.seq, state_json=written, last_t_ms=now, started_at=match.started_at,
                    game=match.game, table_id=match.table_id, bots_play=match.bots_play, seats=match.seats,
                ))
    return SubmitResult(seq=match.seq, events=stored, state=state if stored else None)


@dataclass(frozen=True)
class _FastPlan:
    """An action decided on the cached state (games/match_cache.py), ready to be sent as the one message."""

    entry: match_cache.Cached
    seq: int
    now: int
    stored: list[dict[str, Any]]
    state: Any
    new_events: list[dict[str, Any]]
    writes: action_sql.Writes
    written: str  # the new state's JSON, as the guard's next comparison will want it


def _fast_plan(
    entry: match_cache.Cached, *, seat: int, action: dict[str, Any], action_id: str, rtt_ms: int | None,
    received_at: datetime.datetime | None, round_trips: tuple[int, dict[int, int]] | None = None,
) -> _FastPlan | None:
    """The action decided on `entry`, or None when the locked path must decide.

    None for a refusal (the row decides: the match may have moved on), no events, the end of
    the match or a snapshot due. A race claim is timed as on the locked path (`race_timing`,
    with the seats' round trips the caller read, or read here).
    """
    rules = get_rules(entry.game)
    state = orjson.loads(entry.state_json)
    elapsed = int((timezone.now() - entry.started_at).total_seconds() * 1000)
    now = max(elapsed, entry.last_t_ms)
    try:
        new_events = _rules_decide(
            rules, state, seat, action, now, table_id=entry.table_id, seats=entry.seats, started_at=entry.started_at,
            rtt_ms=rtt_ms, received_at=received_at, round_trips=round_trips,
        )
    except RuleError:
        return None
    stored, state = _stored(rules, state, new_events, entry.seq, now)
    if not stored or _crosses_snapshot(entry.seq, stored) or rules.outcome(state) is not None:
        return None
    seq = entry.seq + len(stored)
    writes = _writes(entry.match_id, seat, action, action_id, stored, new_events)
    writes.action_record(entry.match_id, seat, action_id, seq)
    return _FastPlan(entry, seq, now, stored, state, new_events, writes, wire.dumps(state))


def _fast_committed(plan: _FastPlan, bots_play: bool) -> bool:
    """Remember the commit; whether bots are to plan."""
    entry = dataclasses.replace(plan.entry, seq=plan.seq, state_json=plan.written, last_t_ms=plan.now, bots_play=bots_play)
    match_cache.put(entry)
    return entry.table_id is None or bots_play


def _submit_cached(
    *, match_id: int, seat: int, action: dict[str, Any], action_id: str, hold_timers: bool, rtt_ms: int | None,
    received_at: datetime.datetime | None,
) -> SubmitResult | None:
    """The action decided on this process's last commit of the match and sent in one message (games/match_cache.py).

    None when the locked path must decide (`_fast_plan`), or the guard found the match changed.
    A race claim's one read of the seats' round trips is made just before the message instead
    of just after the lock (no lock guards those rows on either path).
    """
    entry = match_cache.get(match_id)
    if entry is None:
        return None
    tx = action_sql.ActionTransaction()
    if not tx.by_hand:
        return None
    plan = _fast_plan(entry, seat=seat, action=action, action_id=action_id, rtt_ms=rtt_ms, received_at=received_at)
    if plan is None:
        return None
    try:
        with tx:
            bots_play = action_sql.fast_commit(
                tx=tx, match_id=match_id, cached_seq=entry.seq, cached_state=entry.state_json, state=plan.written,
                seq=plan.seq, last_t_ms=plan.now, seat=seat, writes=plan.writes,
            )
            bots = _fast_committed(plan, bots_play)
            _notify_on_commit(
                tx, match_id, entry.table_id, entry.started_at, plan.stored, plan.state, plan.new_events,
                finished=False, now=plan.now, bots=bots, hold_timers=hold_timers,
            )
    except action_sql.ConflictError:
        match_cache.contended(match_id)
        return None
    return SubmitResult(seq=plan.seq, events=plan.stored, state=plan.state)


async def action_submit_cached(
    *, match_id: int, seat: int, action: dict[str, Any], action_id: str, rtt_ms: int | None,
    received_at: datetime.datetime | None, channel: str | None = None,
) -> SubmitResult | None:
    """The fast path from the event loop itself (live/async_db.py): no thread, no Django cursor.

    For a table socket's checked action (the consumer made `action_check`); its timers are
    held by this process. The same plan, message, guard and cache as `_submit_cached`, so
    the same guarantees; None when the locked path must decide, which the caller then takes
    in a database thread (`action_submit(..., cache=False)`). Acknowledged only after the
    COMMIT returned; `action_notify` runs once, after it, and its failure does not undo it.
    The idle sockets of the table in this process are handed the events first
    (live/local_sockets.py); the group message skips them and `channel`, the acting
    socket's, which sends its own events with its answer.
    """
    entry = match_cache.get(match_id)
    if entry is None:
        return None
    rules = get_rules(entry.game)
    async with async_db.connection() as conn:
        round_trips = None
        if action["kind"] in getattr(rules, "races", ()):
            round_trips = await selectors.seat_round_trips_async(conn=conn, table_id=entry.table_id) if entry.table_id else (0, {})
        plan = _fast_plan(
            entry, seat=seat, action=action, action_id=action_id, rtt_ms=rtt_ms, received_at=received_at,
            round_trips=round_trips,
        )
        if plan is None:
            return None
        try:
            bots_play = await action_sql.fast_commit_async(
                conn=conn, match_id=match_id, cached_seq=entry.seq, cached_state=entry.state_json, state=plan.written,
                seq=plan.seq, last_t_ms=plan.now, seat=seat, writes=plan.writes,
            )
        except action_sql.ConflictError:
            match_cache.contended(match_id)
            return None
    bots = _fast_committed(plan, bots_play)
    here: frozenset[str] = frozenset() if channel is None else frozenset([channel])
    if entry.table_id is not None:  # the idle sockets of the table here, in this turn of the loop (live/local_sockets.py)
        here |= await bus.deliver_here(
            table_id=entry.table_id, message=bus.match_events_message(match_id, plan.stored, plan.state)
        )
    try:
        action_notify(
            match_id=match_id, table_id=entry.table_id, events=plan.stored, state=plan.state,
            timers=[e for e in plan.new_events if e["kind"] == "timer"], finished=False, now=plan.now, bots=bots,
            held_from=entry.started_at, committed=True, here=here,
        )
    except Exception:  # noqa: BLE001 - the action is committed (as Django's robust on_commit)
        log.exception("after the commit of an action")
    return SubmitResult(seq=plan.seq, events=plan.stored, state=plan.state)


def _stored(rules: Any, state: Any, new_events: list[dict[str, Any]], seq: int, now: int) -> tuple[list[dict[str, Any]], Any]:
    """The new events as stored (seqs after `seq`, the time) and the state they fold to."""
    stored: list[dict[str, Any]] = []
    for e in new_events:
        state = rules.fold(state, e)
        stored.append({"seq": seq + len(stored) + 1, "t_ms": now, "kind": e["kind"], "seat": e.get("seat"), "data": e.get("data", {})})
    return stored, state


def _crosses_snapshot(seq: int, stored: list[dict[str, Any]]) -> bool:
    return (seq // SNAPSHOT_EVERY) != ((seq + len(stored)) // SNAPSHOT_EVERY)


def _writes(
    match_id: int, seat: int | None, action: dict[str, Any], action_id: str | None, stored: list[dict[str, Any]],
    new_events: list[dict[str, Any]],
) -> action_sql.Writes:
    """The events and the timers they arm (and a fired system timer), in the order both paths write them."""
    writes = action_sql.Writes()
    writes.events(match_id, stored)
    for t in new_events:
        if t["kind"] == "timer":
            writes.timer_pending(match_id, str(t["data"]["id"]), int(t["data"]["due_ms"]))
    if seat is None and action.get("kind") == "timer":
        writes.timer_fired(match_id, str(action.get("id")))
    return writes


def _notify_on_commit(
    tx: action_sql.ActionTransaction, match_id: int, table_id: int | None, started_at: datetime.datetime,
    stored: list[dict[str, Any]], state: Any, new_events: list[dict[str, Any]], *,
    finished: bool, now: int, bots: bool, hold_timers: bool,
) -> None:
    """`action_notify` once the action is committed (robust: a failing broker must not turn its ack into an error)."""
    timers = [e for e in new_events if e["kind"] == "timer"]

    def notify() -> None:
        action_notify(
            match_id=match_id, table_id=table_id, events=stored, state=state, timers=timers, finished=finished,
            now=now, bots=bots, held_from=started_at if hold_timers else None,
        )

    tx.on_commit(notify)


def timer_stale_cached(*, match_id: int, timer_id: str, armed_seq: int) -> int | None:
    """The seq of the state this process last committed for the match if it shows this due timer stale, else None.

    Smack It! re-arms its idle timer on every flip, so nearly every held timer is stale
    when due, and `timer_fire` spent a database thread, an ORM read of the whole row and an
    ORM update on each (19 % of a busy daphne's GIL time, README "Performance"). The cached
    entry is a committed state at or after the timer's arming commit (`armed_seq`; entries
    are only replaced by higher seqs), decided on as `timer_fire` decides on the row. The
    caller marks the timer fired only while the row still holds that seq
    (`action_sql.timers_fired_async`), so the answer is `timer_fire`'s on the latest
    committed state: a timer the rules ignore only for now (Smack It!'s idle timer while a
    race is judged) is never marked on an older state. No entry, an older one, events or a
    refusal: None, and the caller fires it the ordinary way. Pure on the cache: no I/O.
    """
    entry = match_cache.get(match_id)
    if entry is None or entry.seq < armed_seq:
        return None
    stale = _timer_is_no_op(entry.game, orjson.loads(entry.state_json), timer_id, entry.started_at, entry.last_t_ms)
    return entry.seq if stale else None


def _timer_is_no_op(game: str, state: Any, timer_id: str, started_at: datetime.datetime, last_t_ms: int) -> bool:
    """Whether the rules answer this timer, due now, with no events on `state` (a refusal is not a no-op)."""
    elapsed = int((timezone.now() - started_at).total_seconds() * 1000)
    try:
        events = get_rules(game).decide(state, None, {"kind": "timer", "id": timer_id}, max(elapsed, last_t_ms), random.Random(0))
    except RuleError:
        return False
    return events == []


def timer_fire(*, match_id: int, timer_id: str, hold_timers: bool = False) -> SubmitResult | None:
    """Fire a due timer: through the locked action path when the rules would do something, else only mark it fired.

    Most timers a match arms are superseded before they are due (Smack It! re-arms its idle
    timer on every flip; a race's Celery backstop arrives after the fast path settled it).
    Each used to take the match row's lock only for the rules to answer "nothing": at a busy
    table as many locking transactions as actions, 10 s late, queued behind the players' own
    (the tail of the flip benchmark, README "Performance"). The rules' answer for a timer on
    the latest committed state, read without the lock, is final when it is no events: a timer
    id becomes live only through the commit that arms it, which is already in that state and
    publishes its own firing, and later commits only make an armed timer stale. So a no-op
    is recorded as fired without the lock; anything else (events, a refusal, a missing or
    finished match) goes the ordinary way and is decided again under the lock.
    """
    row = Match.objects.filter(pk=match_id).values("game", "state", "status", "started_at", "last_t_ms").first()
    if row is not None and row["status"] == Match.Status.LIVE and row["state"] is not None:
        if _timer_is_no_op(row["game"], row["state"], timer_id, row["started_at"], row["last_t_ms"]):
            PendingTimer.objects.filter(match_id=match_id, timer_id=timer_id, fired=False).update(fired=True)
            return None
    return action_submit(
        match_id=match_id, seat=None, action={"kind": "timer", "id": timer_id}, action_id=f"timer:{timer_id}"[:64],
        hold_timers=hold_timers,
    )


TIMER_PRUNE_BATCH = 10_000


def timers_prune(*, batch: int = TIMER_PRUNE_BATCH, max_batches: int = 20) -> int:
    """Delete the timer rows nothing needs any more: fired ones, and every one of a match that is over.

    A row exists so that a timer is durable before anything holds it (the sweeper fires an
    unfired, overdue row of a live match). Once fired, or once its match is over, nothing
    reads it: firing again is idempotent without it (the action id `timer:<id>`, and the
    rules answer a stale timer with nothing). Kept, they grew by one row per Smack It! flip
    (README "Capacity"). Unfired rows of live matches are never touched. In batches, so one
    run never holds a long lock; returns how many rows went.
    """
    gone = 0
    for _ in range(max_batches):
        done = PendingTimer.objects.filter(fired=True) | PendingTimer.objects.exclude(match__status=Match.Status.LIVE)
        ids = list(done.values_list("pk", flat=True)[:batch])
        if not ids:
            break
        gone += PendingTimer.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            break
    return gone


def _decide(
    rules: Any, match: Match, seat: int | None, action: dict[str, Any], now: int, *, rtt_ms: int | None,
    received_at: datetime.datetime | None,
) -> list[dict[str, Any]]:
    """The rules' events for the action on the locked row; a RuleError becomes a refusal."""
    try:
        return _rules_decide(
            rules, match.state, seat, action, now, table_id=match.table_id, seats=match.seats, started_at=match.started_at,
            rtt_ms=rtt_ms, received_at=received_at,
        )
    except RuleError as e:
        raise errors.PlatformError("rule", e.message, 400, rule_code=e.code) from None


def _rules_decide(
    rules: Any, state: Any, seat: int | None, action: dict[str, Any], now: int, *, table_id: int | None, seats: int,
    started_at: datetime.datetime, rtt_ms: int | None, received_at: datetime.datetime | None,
    round_trips: tuple[int, dict[int, int]] | None = None,
) -> list[dict[str, Any]]:
    """The rules' events, a race claim timed by `race_timing` (every path: the locked row's state or the cache's)."""
    rng = random.Random(secrets.randbits(64))
    if seat is not None and action["kind"] in getattr(rules, "races", ()):
        received = None if received_at is None else int((received_at - started_at).total_seconds() * 1000)
        timing = race_timing(
            table_id=table_id, seats=seats, seat=seat, now=now, rtt_ms=rtt_ms, received_ms=received, round_trips=round_trips
        )
        return rules.decide(state, seat, action, now, rng, timing=timing)
    return rules.decide(state, seat, action, now, rng)


def bots_plan(*, match_id: int, seq: int) -> int:
    """Each bot seat looks at its own view and history and plans its next move (Celery `games.plan_bots`).

    A plan made for an older `seq` than the match's is dropped: the table moved on and a newer
    plan exists. Each planned move is a `games.bot_act` at the bot's own time, which re-checks
    the seq and the seat before acting. Returns how many moves were planned.
    """
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None or match.status != Match.Status.LIVE or match.seq != seq:
        return 0
    seats = selectors.bot_seats(match=match)
    if not seats:
        return 0
    rules, bot = get_rules(match.game), get_bot(match.game)
    history = selectors.events_between(match_id=match_id, after=0, upto=seq)
    now = now_ms(match)
    rng = random.Random(f"{match_id}:{seq}:{match.seed}")
    planned = 0
    for seat, level in seats:
        ctx = BotContext(
            seat=seat, level=level, view=rules.view(match.state, seat), history=selectors.redact_for(rules, history, seat), now_ms=now
        )
        move = bot.choose(ctx, rng)
        if move is None:
            continue
        bus.schedule("games.bot_act", (match_id, seat, seq, move.action), max(0, move.at_ms - now) / 1000)
        planned += 1
    return planned


def race_timing(
    *, table_id: int | None, seats: int, seat: int, now: int, rtt_ms: int | None, received_ms: int | None = None,
    round_trips: tuple[int, dict[int, int]] | None = None,
) -> Timing:
    """How a race claim of `seat` arriving at match time `now` is timed (PROTOCOL.md "Fair races").

    Judged at arrival minus the acting socket's own round trip (`rtt_ms`, None
    for a bot or before the first pong: 0), each seat's compensation capped at
    the table's `lag_cap_ms`. The other seats' figures (how long the race must
    wait for a claim of theirs that could still be faster) are the stored
    round trips of their live sockets: one query, made for race actions only.
    Bots, zombie seats and seats without a live socket get 0, as does every
    seat at a table with the cap at 0. No figure comes from the client.
    `received_ms` (match time the claim reached the web process, before it
    waited for its socket's previous message and the match lock): the judged
    time counts from there, so the server's own queueing is nobody's loss.
    """
    if round_trips is None:  # `round_trips`: that query's answer, read by the caller (the event loop's fast path)
        round_trips = selectors.seat_round_trips(table_id=table_id) if table_id else (0, {})
    lag_cap, seat_rtts = round_trips
    own = compensation_ms(rtt_ms, lag_cap)
    # A race waits comp[s] - own after this claim; the result must reach the screens within
    # lag_cap_ms, settlement and delivery included, so the wait keeps RACE_SETTLE_MARGIN_MS of
    # the cap for them. Only a seat near the cap is cut, and only at the very edge of its window.
    wait_limit = own + max(0, lag_cap - settings.RACE_SETTLE_MARGIN_MS)
    comps = [min(compensation_ms(seat_rtts.get(s), lag_cap), wait_limit) for s in range(seats)]
    if 0 <= seat < len(comps):
        comps[seat] = own
    reached = now if received_ms is None else max(0, min(now, received_ms))
    return Timing(arrival_ms=now, judged_ms=reached - own, comp_ms=tuple(comps))


def _match_finish(match: Match, outcome: dict[str, Any]) -> None:
    match.status = Match.Status.FINISHED
    match.outcome = outcome
    match.ended_at = timezone.now()
    places = {p["seat"]: p["place"] for p in outcome.get("placements", [])}
    for player in match.players.all():
        if player.seat in places:
            player.place = places[player.seat]
            player.save(update_fields=["place"])
    if match.table_id:
        Table.objects.filter(pk=match.table_id, current_match=match).update(status=Table.Status.FINISHED)


def action_notify(
    *,
    match_id: int,
    table_id: int | None,
    events: list[dict[str, Any]],
    state: Any,
    timers: list[dict[str, Any]],
    finished: bool,
    now: int,
    bots: bool = True,
    held_from: datetime.datetime | None = None,
    committed: bool = False,
    here: frozenset[str] = frozenset(),
) -> None:
    """Tell the table, then schedule what follows: once per committed action, only after its commit.

    Neither waits here in a web process: the group send is handed to the server's event loop
    (live.broadcast) and the broker publishes to the publisher thread (live.scheduling).
    `held_from` (the match's start, for a table socket's action): its timers are held by this
    web process's event loop (live.local_timers), due at `held_from + due_ms`, when it can.
    `committed`: called after a commit Django's transaction knows nothing of (the event loop's
    fast path), so the table hears of it now rather than on Django's commit; `here`: the
    channels of this process that have the events already (live/local_sockets.py).
    """
    seq = events[-1]["seq"]
    if table_id is not None:
        bus.match_events(table_id, match_id, events, state, committed=committed, here=here)
    hold = held_from is not None and bus.timer_can_hold()
    for t in timers:
        timer_id, due_ms = str(t["data"]["id"]), int(t["data"]["due_ms"])
        if hold:
            assert held_from is not None
            bus.timer_hold(
                match_id=match_id, timer_id=timer_id, due_at=held_from + datetime.timedelta(milliseconds=due_ms), armed_seq=seq,
            )
        if not hold or bus.timer_also_scheduled():
            bus.schedule("games.fire_timer", (match_id, timer_id), (due_ms - now) / 1000)
    if finished:
        if table_id is not None:
            bus.table_changed(table_id)
        bus.schedule("games.match_finished", (match_id,), 0)
    elif bots:
        bus.schedule("games.plan_bots", (match_id, seq), 0)


def match_abort(*, match_id: int, by: User) -> Match:
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if not by.is_staff and (match.table is None or match.table.host_id != by.pk):
            raise errors.forbidden("only the host or staff abort a match", "not_host")
        if match.status != Match.Status.LIVE:
            raise errors.conflict("the match is over", "match_over")
        match.status = Match.Status.ABORTED
        match.ended_at = timezone.now()
        match.save(update_fields=["status", "ended_at"])
        if match.table_id:
            Table.objects.filter(pk=match.table_id).update(status=Table.Status.FINISHED)
        transaction.on_commit(functools.partial(match_cache.end, match.pk))
    if match.table_id:
        bus.table_changed(match.table_id)
    return match


# --- presence, zombies, chat ---------------------------------------------------
#
# Who is at a table: one TableConnection row per open socket of a signed-in user,
# written when the socket opens and closes, counting only while the web process
# that holds it beats (WebProcess, live/heartbeat.py). Nothing is counted per
# seat number: the seat a connection stands for is Seat(table, user), so a player
# who left a seat cannot mark its next occupant away, and a web process that dies
# stops counting for its players by itself. Seat.seen_at keeps when the player was
# last known there; `zombie` follows from it after the table's `zombie_seconds`
# (`table_zombie_check` after a close, `presence_sweep` every 5 s from beat).


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
            if back or seat.seen_at is None:
                seat.zombie = seat.zombie and not back
                seat.seen_at = now
                seat.save(update_fields=["zombie", "seen_at"])
            if back:
                bus.table_changed(table_id)
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

    Written only when the estimate moved noticeably (games.latency), so a row is
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
    its hop (README "Performance"); the one autocommitted UPDATE is the same.
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


def chat_post(*, table_id: int, user: User, text: str) -> ChatMessage:
    from django.core.cache import cache

    if not isinstance(text, str) or not text.strip():
        raise errors.bad_request("a chat message needs text", "bad_message")
    if wire.text_problem(text) is not None:  # stored as text and broadcast: refused here, whoever calls
        raise errors.bad_request(f"chat text contains {wire.text_problem(text)}", "bad_message")
    text = text.strip()
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise errors.bad_request(f"at most {settings.CHAT_MAX_LENGTH} characters", "too_long")
    key = f"chat-rate:{user.pk}"
    cache.add(key, 0, 10)
    try:
        count = cache.incr(key)
    except ValueError:
        cache.set(key, 1, 10)
        count = 1
    if count > settings.CHAT_MAX_PER_10S:
        raise errors.PlatformError("rate_limited", "you are sending messages too fast", 429)
    if not Table.objects.filter(pk=table_id).exists():
        raise errors.not_found("no such table")
    message = ChatMessage.objects.create(table_id=table_id, user=user, text=text)
    bus.chat(table_id, {"user": user.username, "text": text, "at": message.created_at.isoformat()})
    return message


# --- organised tables (tournaments) -------------------------------------------------


def table_create_for(
    *,
    organiser: User,
    game: str,
    players: list[tuple[User | None, str]],
    options: dict[str, Any] | None = None,
    ranked: bool = False,
    seed: str | None = None,
    start: bool = True,
    zombie_seconds: int | None = None,
    lag_cap_ms: int | None = None,
) -> Table:
    """A table whose seats are given: `(user, "")` for a person, `(None, level)` for a bot.

    The organiser hosts without sitting. With `start` the match begins at
    once; `seed` gives several tables the same deal (duplicate tournaments).
    """
    table = table_create(
        host=organiser, game=game, seats=len(players), options=options, ranked=ranked, sit=False, capped=False,
        zombie_seconds=zombie_seconds, lag_cap_ms=lag_cap_ms,
    )
    with transaction.atomic():
        for number, (person, level) in enumerate(players):
            if person is None:
                Seat.objects.create(table=table, seat=number, user=_table_bot(table, level or "normal"), bot_level=level or "normal")
            else:
                Seat.objects.create(table=table, seat=number, user=person, bot_level=level or "")  # (bot account, level): a named bot
    bus.table_changed(table.pk)
    if start:
        table_start(table_id=table.pk, by=organiser, seed=seed)
    return table


def seat_hand_to_bot(*, table_id: int, seat: int) -> None:
    """A normal bot plays this seat from now on, until its player connects (a no-show)."""
    _seat_to_bot(table_id=table_id, seat=seat, withdraw=False)


def seat_withdraw(*, table_id: int, seat: int) -> None:
    """Its player is out (removed from a tournament): a normal bot plays the seat to the end, for good.

    Not a zombie that a reconnect ends: the seat is `withdrawn`, which
    `presence_open` leaves alone and `action_submit` answers with `withdrawn`
    when the player acts. The player may still watch their seat.
    """
    _seat_to_bot(table_id=table_id, seat=seat, withdraw=True)


def _seat_to_bot(*, table_id: int, seat: int, withdraw: bool) -> None:
    with transaction.atomic():
        s = Seat.objects.select_for_update(of=("self",)).select_related("table").filter(table_id=table_id, seat=seat).first()
        if s is None:
            raise errors.not_found(f"seat {seat} is empty")
        if s.is_bot or (s.zombie and (s.withdrawn or not withdraw)):
            return
        planned = s.zombie  # already played by a bot: only the withdrawal is new
        s.zombie = True
        s.withdrawn = s.withdrawn or withdraw
        s.save(update_fields=["zombie", "withdrawn"])
        match = s.table.current_match
        bus.table_changed(table_id)
    if not planned and match is not None and match.status == Match.Status.LIVE:
        bus.schedule("games.plan_bots", (match.pk, match.seq), 0)
