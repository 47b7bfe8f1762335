"""Every change to a match goes through `action_submit`: one transaction that
locks the match row, decides, folds, appends the events and saves. What
others must hear of it (sockets, timers, bots, end of match) is sent with
`transaction.on_commit` only, so nothing is pushed for a rollback (Zulip's
actions pattern: `action_check`, the transaction, `action_notify`). On
PostgreSQL an action of its own is two messages to the database, its
transaction opened and committed by hand (games/services/action_sql.ActionTransaction:
the same lock, durability and after-commit guarantees as `atomic`), or one
when this process committed the match's last action (games/services/match_cache.py:
decided on that state, the row's guard validates it), sent from the table
socket's event loop (`action_submit_cached`, live/async_db.py). Bots plan here
too: a bot's move is an action scheduled for later."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import logging
import random
import secrets
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.utils import timezone

from games import errors, selectors
from games.engine import BotContext, RuleError, Timing
from games.first_hour.experience import human_experience
from games.kit.latency import compensation_ms
from games.kit.registry import get_bot, get_rules
from games.kit.resignation import RESIGN
from games.models import (
    Match,
    Snapshot,
    Table,
)
from games.services import action_sql, match_cache
from live import async_db, bus, wire
from ops import metrics

# (lag_cap_ms, round trip per seat, min_reaction_ms): selectors.seat_round_trips; a pair without the floor means 0
RoundTrips = tuple[int, dict[int, int], int] | tuple[int, dict[int, int]]

log = logging.getLogger(__name__)


SNAPSHOT_EVERY = 100


MAX_ACTION_ID = 64


class LazyRandom:
    """The `rng` handed to `rules.decide`: a `random.Random` made on first use.

    Why: seeding a Mersenne Twister costs about 12 µs, and most actions draw nothing (a flip,
    a smack, a stale timer): seeded only when the rules ask for a number. Unseeded (`seed`
    None), it draws from the system's entropy as before.
    """

    __slots__ = ("_rng", "_seed")

    def __init__(self, seed: int | str | None = None) -> None:
        self._seed = seed
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:
        if self._rng is None:
            self._rng = random.Random(secrets.randbits(64) if self._seed is None else self._seed)
        return getattr(self._rng, name)


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
    (games.kit.latency; the consumer passes it). Only for an action kind in
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
    if seat is None and action["kind"] not in ("timer", RESIGN):  # the system's: timers, and resignations (tables.table_resign)
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
            tx.on_commit(functools.partial(metrics.action_committed, game=match.game, path="locked"))
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
    """An action decided on the cached state (games/services/match_cache.py), ready to be sent as the one message."""

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
    received_at: datetime.datetime | None, round_trips: RoundTrips | None = None,
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
    """The action decided on this process's last commit of the match and sent in one message (games/services/match_cache.py).

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
    metrics.action_committed(game=entry.game, path="cached")
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
            round_trips = await selectors.seat_round_trips_async(conn=conn, table_id=entry.table_id) if entry.table_id else (0, {}, 0)
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
    metrics.action_committed(game=entry.game, path="loop")
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
            if (replaced := t["data"].get("replaces")) is not None:
                writes.timer_fired(match_id, str(replaced))  # superseded for good (engine.timer_event)
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
    round_trips: RoundTrips | None = None,
) -> list[dict[str, Any]]:
    """The rules' events, a race claim timed by `race_timing` (every path: the locked row's state or the cache's)."""
    rng: Any = LazyRandom()
    if seat is not None and action["kind"] in getattr(rules, "races", ()):
        received = None if received_at is None else int((received_at - started_at).total_seconds() * 1000)
        timing = race_timing(
            table_id=table_id, seats=seats, seat=seat, now=now, rtt_ms=rtt_ms, received_ms=received, round_trips=round_trips
        )
        events = rules.decide(state, seat, action, now, rng, timing=timing)
        metrics.race_claimed(game=rules.slug, compensation_ms=timing.comp_ms[seat])  # its own round trip, capped
        return events
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
    experience = human_experience(match_id=match_id)  # bots go easy on newcomers (games/first_hour/experience.py)
    planned = 0
    for seat, level in seats:
        ctx = BotContext(
            seat=seat, level=level, view=rules.view(match.state, seat), history=selectors.redact_for(rules, history, seat), now_ms=now,
            experience=experience,
        )
        move = bot.choose(ctx, rng)
        if move is None:
            continue
        bus.schedule("games.bot_act", (match_id, seat, seq, move.action), max(0, move.at_ms - now) / 1000)
        planned += 1
    return planned


def race_timing(
    *, table_id: int | None, seats: int, seat: int, now: int, rtt_ms: int | None, received_ms: int | None = None,
    round_trips: RoundTrips | None = None,
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
        round_trips = selectors.seat_round_trips(table_id=table_id) if table_id else (0, {}, 0)
    lag_cap, seat_rtts = round_trips[0], round_trips[1]
    floor = round_trips[2] if len(round_trips) > 2 else 0  # the table's human floor (PROTOCOL "Fair play")
    own = compensation_ms(rtt_ms, lag_cap)
    # A race waits comp[s] - own after this claim; the result must reach the screens within
    # lag_cap_ms, settlement and delivery included, so the wait keeps RACE_SETTLE_MARGIN_MS of
    # the cap for them. Only a seat near the cap is cut, and only at the very edge of its window.
    wait_limit = own + max(0, lag_cap - settings.RACE_SETTLE_MARGIN_MS)
    comps = [min(compensation_ms(seat_rtts.get(s), lag_cap), wait_limit) for s in range(seats)]
    if 0 <= seat < len(comps):
        comps[seat] = own
    reached = now if received_ms is None else max(0, min(now, received_ms))
    return Timing(arrival_ms=now, judged_ms=reached - own, comp_ms=tuple(comps), min_reaction_ms=floor)


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
        if hold and (replaced := t["data"].get("replaces")) is not None:
            bus.timer_drop(match_id=match_id, timer_id=str(replaced))  # its row is marked fired in this commit
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
