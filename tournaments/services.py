"""Writes for tournaments (HackSoft style: `<noun>_<verb>`, keyword-only).

Zulip's pattern: validate, do it in one transaction holding the tournament
row, and tell the world only on commit (the live page's group, each seated
player's own group, the next Celery task). The algorithms (table sizes,
seating, points, standings) are the pure modules beside this one.

The tournament runs itself: starting seats round 1; every finished match
reaches `tournament_table_finished` (through games.hooks and the task
`tournaments.table_finished`); the last table of a round schedules
`tournaments.next_round`, which seats the next one or ends the tournament.
A watchdog task (`tournaments.watch`, every minute while running) repairs
anything a lost task or an aborted match left behind.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.services import bot_user
from games import errors
from games import selectors as game_selectors
from games.engine import BOT_LEVELS, RuleError, resolve_options
from games.kit.registry import get_rules
from games.models import Match, Seat
from games.services.matches import match_abort
from games.services.tables import seat_hand_to_bot, seat_withdraw, table_create_for, table_start
from live.bus import publish as send_group
from live.bus import schedule
from tournaments import formats, seating, selectors
from tournaments.models import Entry, Round, Tournament, TournamentSeat, TournamentTable, derived_seed

log = logging.getLogger(__name__)

ROUND_BREAK_SECONDS = 5  # between the last table of a round and the next round: time to read the standings
WATCH_SECONDS = 60
MAX_BOTS_AT_ONCE = 64
MAX_NO_SHOW_SECONDS = 3600


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def player_group(user_id: int) -> str:
    return f"tournament-player-{user_id}"


# --- validation ------------------------------------------------------------------------


def _rules(game: Any) -> Any:
    if not isinstance(game, str):
        raise errors.bad_request("game must be a game's slug", "unknown_game")
    try:
        return get_rules(game)
    except KeyError:
        raise errors.bad_request(f"unknown game {game!r}", "unknown_game") from None


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise errors.bad_request(f"{name} must be a whole number from {low} to {high}", f"bad_{name}")
    return value


def _lock(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise errors.not_found("no such tournament")
    return t


def _organiser_only(t: Tournament, by: User, what: str) -> None:
    if t.organiser_id != by.pk and not by.is_staff:
        raise errors.forbidden(f"only the organiser {what}", "not_organiser")


# --- creation and registration -----------------------------------------------------------


def tournament_create(
    *,
    organiser: User,
    name: str,
    game: str,
    format: str,  # noqa: A002 - the protocol's field name
    table_size: int,
    rounds: int | None = None,
    duration_minutes: int | None = None,
    options: dict[str, Any] | None = None,
    ranked: bool = False,
    duplicate: bool = False,
    starts_at: dt.datetime | None = None,
    no_show_seconds: int = 120,
    open_registration: bool = True,
) -> Tournament:
    """A new tournament; registration opens at once unless `open_registration` is false."""
    name = (name or "").strip() if isinstance(name, str) else ""
    if not name or len(name) > 100:
        raise errors.bad_request("a tournament needs a name of at most 100 characters", "bad_name")
    rules = _rules(game)
    if format not in formats.FORMATS:
        raise errors.bad_request(f"format must be one of {', '.join(formats.FORMATS)}", "bad_format")
    options = dict(options or {}) if isinstance(options, dict) or options is None else None
    if options is None:
        raise errors.bad_request("options must be an object", "bad_option")
    internal = sorted(k for k in options if k in rules.options and rules.options[k].internal)
    if internal:
        raise errors.bad_request(f"option(s) {', '.join(internal)} are set by the platform", "bad_option")
    _check_int("table_size", table_size, rules.min_seats, rules.max_seats)
    try:
        resolve_options(rules.options, options, table_size)
    except RuleError as e:
        raise errors.bad_request(e.message, "bad_option") from None
    try:
        rules.setup(table_size, options, random.Random(0))  # some games refuse a size only here (ZIGZAG's 5)
    except RuleError as e:
        raise errors.bad_request(e.message, "bad_table_size") from None
    if format == Tournament.Format.SWISS:
        rounds = _check_int("rounds", 3 if rounds is None else rounds, 1, formats.MAX_ROUNDS)
    elif format == Tournament.Format.ROUND_ROBIN:
        rounds = None if rounds is None else _check_int("rounds", rounds, 1, formats.MAX_ROUNDS)
    else:
        rounds = None
    if format == Tournament.Format.ARENA:
        if duration_minutes is None:
            raise errors.bad_request("an arena needs duration_minutes", "bad_duration_minutes")
        duration_minutes = _check_int("duration_minutes", duration_minutes, 1, formats.MAX_ARENA_MINUTES)
    else:
        duration_minutes = None
    no_show_seconds = _check_int("no_show_seconds", no_show_seconds, 0, MAX_NO_SHOW_SECONDS)
    if starts_at is not None and starts_at <= timezone.now():
        raise errors.bad_request("starts_at must be in the future", "bad_starts_at")
    with transaction.atomic():
        t = Tournament.objects.create(
            name=name,
            game=game,
            format=format,
            table_size=table_size,
            rounds=rounds,
            duration_minutes=duration_minutes,
            options=options,
            ranked=bool(ranked),
            duplicate=bool(duplicate),
            starts_at=starts_at,
            no_show_seconds=no_show_seconds,
            organiser=organiser,
            status=Tournament.Status.REGISTERING if open_registration else Tournament.Status.DRAFT,
        )
        if open_registration:
            _schedule_start(t)
    return t


def _schedule_start(t: Tournament) -> None:
    if t.starts_at is None:
        return
    delay = max(0.0, (t.starts_at - timezone.now()).total_seconds())
    tid = t.pk
    transaction.on_commit(lambda: schedule("tournaments.start_due", (tid,), delay))


def _status_change(
    tournament_id: int, by: User, doing: str, expected: str, to: str, *, refusal: tuple[str, str],
    then: Callable[[Tournament], None] | None = None,
) -> Tournament:
    """An organiser's move from one status to the next, in one transaction: the row locked, the organiser
    checked, a 409 (`refusal`: message with `{status}`, code) from any other status; then what the new
    status sets going (`then`), and the change broadcast."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _organiser_only(t, by, doing)
        if t.status != expected:
            raise errors.conflict(refusal[0].format(status=t.status), refusal[1])
        t.status = to
        t.save(update_fields=["status"])
        if then is not None:
            then(t)
        _changed(t.pk)
    return t


def tournament_open(*, tournament_id: int, by: User) -> Tournament:
    """Open registration of a tournament created as a draft."""
    return _status_change(
        tournament_id, by, "opens registration", Tournament.Status.DRAFT, Tournament.Status.REGISTERING,
        refusal=("registration is already open", "already_open"), then=_schedule_start,
    )


def _registration_open(t: Tournament) -> None:
    if t.status == Tournament.Status.DRAFT:
        raise errors.conflict("registration is not open yet", "not_open")
    if t.status != Tournament.Status.REGISTERING:
        raise errors.conflict(f"registration is closed: the tournament is {t.status}", "registration_closed")


def tournament_register(*, tournament_id: int, user: User) -> Entry:
    with transaction.atomic():
        t = _lock(tournament_id)
        _registration_open(t)
        if user.is_bot:
            raise errors.bad_request("bots are added by the organiser", "bot_account")
        if t.entries.filter(user=user).exists():
            raise errors.conflict("you are already registered", "already_registered")
        entry = Entry.objects.create(tournament=t, user=user)
        _changed(t.pk)
    return entry


def tournament_unregister(*, tournament_id: int, user: User) -> None:
    with transaction.atomic():
        t = _lock(tournament_id)
        _registration_open(t)
        deleted, _ = t.entries.filter(user=user).delete()
        if not deleted:
            raise errors.conflict("you are not registered", "not_registered")
        _changed(t.pk)


def tournament_add_bots(*, tournament_id: int, by: User, level: str = "normal", count: int = 1) -> list[Entry]:
    """Register `count` bots: distinct named accounts `bot-<game>-<level>-<n>`, reused across tournaments.

    The platform's own bot account is one per game and level; a tournament
    needs distinct entrants, each with their own standings line and history.
    """
    if level not in BOT_LEVELS:
        raise errors.bad_request(f"level must be one of {', '.join(BOT_LEVELS)}", "bad_level")
    count = _check_int("count", count, 1, MAX_BOTS_AT_ONCE)
    with transaction.atomic():
        t = _lock(tournament_id)
        _organiser_only(t, by, "adds bots")
        if t.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTERING):
            raise errors.conflict(f"registration is closed: the tournament is {t.status}", "registration_closed")
        # By bot identity, never by name: a name is what a person could have taken (accounts.services.bot_user).
        taken = set(
            t.entries.filter(user__is_bot=True, user__bot_game=t.game, user__bot_level=level).values_list("user__bot_number", flat=True)
        )
        out, n = [], 0
        while len(out) < count:
            n += 1
            if n not in taken:
                out.append(Entry.objects.create(tournament=t, user=bot_user(slug=t.game, level=level, number=n), bot_level=level))
        _changed(t.pk)
    return out


def tournament_remove_player(*, tournament_id: int, by: User, username: str) -> None:
    """The organiser removes a player: before the start the entry goes; later they are withdrawn
    (kept in the standings, seated no more) and a bot finishes their current table."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _organiser_only(t, by, "removes players")
        entry = t.entries.filter(user__username=username).select_related("user").first()
        if entry is None:
            raise errors.not_found(f"{username!r} is not registered")
        if t.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTERING):
            entry.delete()
        elif t.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
            if entry.withdrawn:
                raise errors.conflict(f"{username} is already withdrawn", "already_withdrawn")
            entry.withdrawn = True
            entry.waiting_since = None
            entry.save(update_fields=["withdrawn", "waiting_since"])
            for ts in _live_seats_of(t, entry.user):
                _withdraw(ts)
        else:
            raise errors.conflict(f"the tournament is {t.status}", "over")
        _changed(t.pk)


def _live_seats_of(t: Tournament, user: User) -> list[TournamentSeat]:
    return list(
        TournamentSeat.objects.filter(tournament_table__round__tournament=t, tournament_table__done=False, user=user)
        .select_related("tournament_table")
    )


def _hand_to_bot(ts: TournamentSeat) -> None:
    """A no-show: a bot plays the seat until the player comes (then it is theirs again)."""
    seat_hand_to_bot(table_id=ts.tournament_table.table_id, seat=ts.seat)
    _mark_replaced(ts)


def _withdraw(ts: TournamentSeat) -> None:
    """A removed player: a bot plays the seat to the end; coming back does not give it back."""
    seat_withdraw(table_id=ts.tournament_table.table_id, seat=ts.seat)
    _mark_replaced(ts)


def _mark_replaced(ts: TournamentSeat) -> None:
    if not ts.replaced:
        ts.replaced = True
        ts.save(update_fields=["replaced"])


def tournament_replace_player(*, tournament_id: int, by: User, username: str) -> None:
    """The organiser hands a player's live seat to a bot now (a no-show, without waiting)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _organiser_only(t, by, "replaces players")
        user = User.objects.filter(username=username).first()
        seats = _live_seats_of(t, user) if user is not None else []
        if not seats:
            raise errors.conflict(f"{username!r} is not at a live table of this tournament", "not_seated")
        for ts in seats:
            _hand_to_bot(ts)
        _changed(t.pk)


# --- organiser controls ------------------------------------------------------------------


def tournament_start(*, tournament_id: int, by: User) -> Tournament:
    with transaction.atomic():
        t = _lock(tournament_id)
        _organiser_only(t, by, "starts the tournament")
        if t.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTERING):
            raise errors.conflict(f"the tournament is already {t.status}", "already_started")
        problem = _start_problem(t)
        if problem is not None:
            raise errors.conflict(*problem)
        _begin(t)
    return t


def _start_problem(t: Tournament) -> tuple[str, str] | None:
    players = t.entries.count()
    need = formats.min_players(t.table_size)
    if players < need:
        return f"at least {need} players are needed to start ({players} registered)", "too_few_players"
    if t.format == Tournament.Format.ROUND_ROBIN and players > formats.ROUND_ROBIN_MAX_PLAYERS:
        return (
            f"a round robin takes at most {formats.ROUND_ROBIN_MAX_PLAYERS} players ({players} registered); try swiss",
            "too_many_players",
        )
    return None


def tournament_start_due(*, tournament_id: int) -> bool:
    """The scheduled start (Celery at `starts_at`); too few players leaves it registering, with a note."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None or t.status != Tournament.Status.REGISTERING or t.starts_at is None:
            return False
        early = (t.starts_at - timezone.now()).total_seconds()
        if early > 1:
            tid = t.pk
            transaction.on_commit(lambda: schedule("tournaments.start_due", (tid,), early))
            return False
        problem = _start_problem(t)
        if problem is not None:
            t.note = problem[0][:200]
            t.save(update_fields=["note"])
            _changed(t.pk)
            return False
        _begin(t)
    return True


def _begin(t: Tournament) -> None:
    now = timezone.now()
    t.status = Tournament.Status.RUNNING
    t.started_at = now
    t.note = ""
    if t.format == Tournament.Format.ROUND_ROBIN and t.rounds is None:
        t.rounds = formats.round_robin_rounds(t.entries.count(), t.table_size, _context(t)[2])
    if t.format == Tournament.Format.ARENA:
        t.ends_at = now + dt.timedelta(minutes=t.duration_minutes or 1)
        t.entries.update(waiting_since=now)
        tid = t.pk
        delay = (t.ends_at - now).total_seconds()
        transaction.on_commit(lambda: schedule("tournaments.arena_end", (tid,), delay))
    t.save(update_fields=["status", "started_at", "note", "rounds", "ends_at"])
    if t.format == Tournament.Format.ARENA:
        _arena_seat(t)
    else:
        _seat_round(t, 1)
    _watch(t.pk)
    _changed(t.pk)


def _watch(tournament_id: int) -> None:
    transaction.on_commit(lambda: schedule("tournaments.watch", (tournament_id,), WATCH_SECONDS))


def tournament_pause(*, tournament_id: int, by: User) -> Tournament:
    """No new round or arena table starts while paused; tables already playing finish."""
    return _status_change(
        tournament_id, by, "pauses the tournament", Tournament.Status.RUNNING, Tournament.Status.PAUSED,
        refusal=("only a running tournament pauses (it is {status})", "not_running"),
    )


def tournament_resume(*, tournament_id: int, by: User) -> Tournament:
    """Running again: what waited while paused goes on, and the watch restarts."""

    def go_on(t: Tournament) -> None:
        _progress(t)
        _watch(t.pk)

    return _status_change(
        tournament_id, by, "resumes the tournament", Tournament.Status.PAUSED, Tournament.Status.RUNNING,
        refusal=("only a paused tournament resumes (it is {status})", "not_paused"), then=go_on,
    )


def tournament_cancel(*, tournament_id: int, by: User) -> Tournament:
    """Stop for good: live tables are aborted, the standings so far stay readable."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _organiser_only(t, by, "cancels the tournament")
        if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise errors.conflict(f"the tournament is already {t.status}", "over")
        t.status = Tournament.Status.CANCELLED
        t.ended_at = timezone.now()
        t.save(update_fields=["status", "ended_at"])
        live = Match.objects.filter(
            pk__in=TournamentTable.objects.filter(round__tournament=t, done=False).values("match_id"), status=Match.Status.LIVE
        )
        for match in live:
            match_abort(match_id=match.pk, by=t.organiser)
        _changed(t.pk)
    return t


# --- rounds --------------------------------------------------------------------------------


def _context(t: Tournament) -> tuple[Any, bool, list[int]]:
    rules = get_rules(t.game)
    return rules, bool(getattr(rules, "teams", False)), selectors.allowed_sizes(rules, t.options, t.table_size)


def _rng(t: Tournament, label: str) -> random.Random:
    return random.Random(f"{t.seed}:{label}")


def _round_seed(t: Tournament, number: int) -> str:
    """Duplicate: the deal of round `number`, one-way from the master seed (see `derived_seed`); else none."""
    return derived_seed(t.seed, f"round-{number}") if t.duplicate else ""


def _seat_round(t: Tournament, number: int) -> Round | None:
    """Seat round `number` of a swiss, round robin or knockout (the tournament row is locked)."""
    _rules_, teams, allowed = _context(t)
    entries = selectors.active_entries(t)
    players = [e.user_id for e in entries]
    rng = _rng(t, f"round-{number}")
    rows = selectors.standings_rows(t)
    rank = {row.player: i for i, row in enumerate(rows)}
    points = {row.player: row.points for row in rows}
    byes_so_far: dict[int, int] = {row.player: row.byes for row in rows}
    sizes, bye_count = formats.table_sizes(len(players), t.table_size, allowed)
    if not sizes:
        return None
    if t.format == Tournament.Format.KNOCKOUT:
        if number == 1:
            ratings = selectors.player_ratings(game=t.game, user_ids=players)
            shuffled = list(players)
            rng.shuffle(shuffled)
            order = sorted(shuffled, key=lambda p: -ratings.get(p, 0.0))
        else:
            order = sorted(players, key=lambda p: rank.get(p, len(rank)))
        byes = order[:bye_count]  # the best-placed go through without playing
        tables = seating.seat_knockout(order[bye_count:], sizes, rng)
    else:
        if number == 1:
            order = list(players)
            rng.shuffle(order)
        else:
            order = sorted(players, key=lambda p: rank.get(p, len(rank)))
        # Byes go to those with the fewest byes so far, the lowest-placed first.
        by_need = sorted(reversed(order), key=lambda p: byes_so_far.get(p, 0))
        byes = by_need[:bye_count]
        seated = [p for p in order if p not in set(byes)]
        met = selectors.meetings_of(t)
        if t.format == Tournament.Format.ROUND_ROBIN:
            tables = seating.seat_round_robin(seated, sizes, met, rng, round_index=number - 1)
        else:
            tables = seating.seat_swiss(seated, sizes, met, points if number > 1 else None, rng)
    rnd = Round.objects.create(tournament=t, number=number, byes=list(byes), seed=_round_seed(t, number))
    _create_tables(t, rnd, tables, {e.user_id: e for e in entries})
    return rnd


def _table_seed(rnd: Round, size: int) -> str | None:
    return derived_seed(rnd.seed, f"table-{size}") if rnd.seed else None  # same size, same deal


def _create_tables(t: Tournament, rnd: Round, tables: list[list[int]], entries: dict[int, Entry]) -> None:
    """The game tables of one round (or one arena batch), players told where to go.

    A table with a person at it is dealt once every person has come to it, or after
    TOURNAMENT_SEAT_GRACE_SECONDS at the latest (`tournament_table_deal`): dealt at once, the
    match ran (its turn timers, the bots) while a newcomer was still finding the table. A table
    of bots only is dealt at once.
    """
    grace = settings.TOURNAMENT_SEAT_GRACE_SECONDS
    seated: list[tuple[int, int]] = []
    for players in tables:
        humans = [p for p in players if not entries[p].bot_level]
        deal_now = not humans or grace <= 0
        table = table_create_for(
            organiser=t.organiser,
            game=t.game,
            players=[(entries[p].user, entries[p].bot_level) for p in players],
            options=t.options,
            ranked=t.ranked,
            seed=_table_seed(rnd, len(players)),
            start=deal_now,
        )
        table.refresh_from_db(fields=["current_match"])
        tt = TournamentTable.objects.create(round=rnd, table=table, match_id=table.current_match_id)
        TournamentSeat.objects.bulk_create(TournamentSeat(tournament_table=tt, seat=s, user_id=p) for s, p in enumerate(players))
        if not deal_now:
            transaction.on_commit(lambda tt_id=tt.pk: schedule("tournaments.table_deal", (tt_id,), grace))
        elif humans:
            _no_show_after(t, tt.pk)
        seated.extend((p, table.pk) for p in humans)
    message = {"tournament": t.pk, "name": t.name, "round": rnd.number}
    for user_id, table_id in seated:
        note = dict(message, table=table_id, url=f"/tables/{table_id}/")
        transaction.on_commit(lambda u=user_id, n=note: send_group(player_group(u), {"type": "tournament.seated", "seated": n}))


def _finish(t: Tournament) -> None:
    t.status = Tournament.Status.FINISHED
    t.ended_at = timezone.now()
    t.save(update_fields=["status", "ended_at"])
    t.entries.update(waiting_since=None)


def _progress(t: Tournament) -> None:
    """Whatever comes next, if its time has come (the tournament row is locked)."""
    if t.status != Tournament.Status.RUNNING:
        return
    if t.format == Tournament.Format.ARENA:
        _arena_seat(t)
        return
    last = t.round_set.order_by("-number").first()
    if last is None:
        _seat_round(t, 1)
        return
    if last.status != Round.Status.FINISHED:
        return
    if t.format == Tournament.Format.KNOCKOUT:
        remaining = len(selectors.active_entries(t))
        _r, _teams, allowed = _context(t)
        if last.tables.count() <= 1 or remaining < (allowed[0] if allowed else 2):
            _finish(t)
            return
    elif last.number >= (t.rounds or 1) or len(selectors.active_entries(t)) < 2:
        _finish(t)
        return
    if _seat_round(t, last.number + 1) is None:
        _finish(t)


def _close_round_if_done(t: Tournament, rnd: Round) -> bool:
    if rnd.status == Round.Status.FINISHED or rnd.tables.filter(done=False).exists():
        return False
    rnd.status = Round.Status.FINISHED
    rnd.ended_at = timezone.now()
    rnd.save(update_fields=["status", "ended_at"])
    if t.format == Tournament.Format.KNOCKOUT:
        _eliminate(t, rnd)
    return True


def _eliminate(t: Tournament, rnd: Round) -> None:
    """Knockout: the top of each table goes on; the rest leave in this round."""
    _rules_, teams, allowed = _context(t)
    tables = list(rnd.tables.prefetch_related("seats"))
    if len(tables) <= 1:
        return  # the final table: nobody leaves, its places are the podium
    units = [formats.units_at(tt.seats.count(), teams) for tt in tables]
    per_table = formats.knockout_advancing(
        units, table_size=t.table_size, teams=teams, min_units=formats.units_at(allowed[0] if allowed else 2, teams)
    )
    rank = {row.player: i for i, row in enumerate(selectors.standings_rows(t))}
    out: list[int] = []
    for tt, advance in zip(tables, per_table, strict=True):
        seats = list(tt.seats.all())
        out.extend(formats.knockout_losers([s.user_id for s in seats], [s.place for s in seats], advance, teams=teams, rank=rank))
    Entry.objects.filter(tournament=t, user_id__in=out, eliminated_in__isnull=True).update(eliminated_in=rnd.number)


def tournament_next_round(*, tournament_id: int) -> None:
    """Celery `tournaments.next_round`: seat the next round once the last one is over."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None:
            return
        before = (t.status, t.round_set.count())
        _progress(t)
        if (t.status, t.round_set.count()) != before:
            _changed(t.pk)


def tournament_table_finished(*, match_id: int) -> bool:
    """A tournament table's match ended (or was aborted): record places, move the tournament on."""
    tt = TournamentTable.objects.filter(match_id=match_id).select_related("round").first()
    if tt is None:
        return False
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tt.round.tournament_id)
        return _record_table(t, TournamentTable.objects.select_related("round", "match").get(pk=tt.pk))


def _record_table(t: Tournament, tt: TournamentTable) -> bool:
    match = tt.match
    if tt.done or match is None or match.status == Match.Status.LIVE:
        return False
    places = dict(match.players.values_list("seat", "place")) if match.status == Match.Status.FINISHED else {}
    seats_now = {s.seat: s for s in Seat.objects.filter(table_id=tt.table_id)}
    for ts in tt.seats.all():
        ts.place = places.get(ts.seat)
        live = seats_now.get(ts.seat)
        never_connected = live is not None and live.seen_at is None  # set by the first socket the player opened
        ts.forfeit = ts.replaced and never_connected
        ts.save(update_fields=["place", "forfeit"])
    tt.done = True
    tt.save(update_fields=["done"])
    if t.format == Tournament.Format.ARENA:
        now = timezone.now()
        Entry.objects.filter(
            tournament=t, user_id__in=[ts.user_id for ts in tt.seats.all()], withdrawn=False
        ).update(waiting_since=now)
        _close_round_if_done(t, tt.round)
        if t.ends_at is not None and now >= t.ends_at:
            if not TournamentTable.objects.filter(round__tournament=t, done=False).exists() and t.status in (
                Tournament.Status.RUNNING, Tournament.Status.PAUSED
            ):
                _finish(t)
        else:
            _arena_seat(t)
    elif _close_round_if_done(t, tt.round) and t.status == Tournament.Status.RUNNING:
        tid = t.pk
        transaction.on_commit(lambda: schedule("tournaments.next_round", (tid,), ROUND_BREAK_SECONDS))
    _changed(t.pk)
    return True


def _no_show_after(t: Tournament, tt_id: int) -> None:
    """A no-show's seat goes to a bot `no_show_seconds` after the deal (0: never)."""
    if t.no_show_seconds:
        delay = t.no_show_seconds
        transaction.on_commit(lambda: schedule("tournaments.no_show_check", (tt_id,), delay))


def tournament_table_deal(*, tournament_table_id: int) -> bool:
    """Celery `tournaments.table_deal`: deal a tournament table's match (once; False when there is nothing to do).

    Scheduled TOURNAMENT_SEAT_GRACE_SECONDS after the table was seated, and at once when its last
    person arrives (`seat_arrived`, a games.hooks listener). The no-show time counts from here.
    """
    with transaction.atomic():
        tt = (
            TournamentTable.objects.select_for_update(of=("self",)).select_related("table", "round__tournament")
            .filter(pk=tournament_table_id).first()
        )
        if tt is None or tt.done or tt.match_id is not None:
            return False
        t = tt.round.tournament
        if t.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
            return False
        if tt.table.current_match_id is not None:  # the organiser pressed Start on the table: adopt its match
            tt.match_id = tt.table.current_match_id
        else:
            tt.match = table_start(table_id=tt.table_id, by=t.organiser, seed=_table_seed(tt.round, tt.table.seats))
        tt.save(update_fields=["match"])
        _no_show_after(t, tt.pk)
        _changed(t.pk)
    return True


def seat_arrived(table_id: int) -> None:
    """games.hooks listener: a person came to a table for the first time; the last of a tournament table's deals it now."""
    tt = TournamentTable.objects.filter(table_id=table_id, match__isnull=True, done=False).values_list("pk", flat=True).first()
    if tt is None:
        return
    if Seat.objects.filter(table_id=table_id, bot_level="", seen_at__isnull=True).exists():
        return
    transaction.on_commit(lambda: schedule("tournaments.table_deal", (tt,), 0))


def seat_leave_refusal(table_id: int) -> str | None:
    """games.hooks leave check: a tournament's table waiting for its deal keeps its players (they resign once it plays)."""
    if TournamentTable.objects.filter(table_id=table_id).exists():
        return "the organiser seated you here: the match starts soon"
    return None


def tournament_no_show_check(*, tournament_table_id: int) -> int:
    """Celery `tournaments.no_show_check`: hand the seats of players who never connected to bots."""
    tt = TournamentTable.objects.select_related("table", "round__tournament").filter(pk=tournament_table_id).first()
    if tt is None or tt.done or tt.round.tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        return 0
    replaced = 0
    with transaction.atomic():
        live = {s.seat: s for s in Seat.objects.filter(table_id=tt.table_id)}
        here = game_selectors.present_user_ids(table_id=tt.table_id)
        for ts in tt.seats.select_related("user"):
            s = live.get(ts.seat)
            if s is None or s.is_bot or s.zombie or ts.replaced:
                continue
            if s.seen_at is None and s.user_id not in here:  # never came (one who came and left is a zombie case)
                _hand_to_bot(ts)
                replaced += 1
        if replaced:
            _changed(tt.round.tournament_id)
    return replaced


# --- arena ---------------------------------------------------------------------------------


def _arena_seat(t: Tournament) -> None:
    """Seat whoever waits, as the pure arena rule says (the tournament row is locked)."""
    if t.status != Tournament.Status.RUNNING or (t.ends_at is not None and timezone.now() >= t.ends_at):
        return
    _rules_, _teams, allowed = _context(t)
    waiting = list(
        t.entries.filter(withdrawn=False, waiting_since__isnull=False).order_by("waiting_since", "id").select_related("user")
    )
    if not waiting:
        return
    playing = TournamentTable.objects.filter(round__tournament=t, done=False).exists()
    rows = selectors.standings_rows(t)
    number = (t.round_set.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    rng = _rng(t, f"arena-{number}")
    # Longest waiting first; those who finished together: fewest tables played first, then by lot.
    played = {row.player: row.played for row in rows}
    lots = {e.user_id: rng.random() for e in waiting}
    waiting.sort(key=lambda e: (e.waiting_since, played.get(e.user_id, 0), lots[e.user_id]))
    tables, _still = seating.seat_arena(
        [e.user_id for e in waiting],
        table_size=t.table_size,
        allowed=allowed,
        points={row.player: row.points for row in rows},
        met=selectors.meetings_of(t),
        anyone_playing=playing,
        rng=rng,
    )
    if not tables:
        return
    rnd = Round.objects.create(tournament=t, number=number, seed=_round_seed(t, number))
    seated = [p for table in tables for p in table]
    Entry.objects.filter(tournament=t, user_id__in=seated).update(waiting_since=None)
    _create_tables(t, rnd, tables, {e.user_id: e for e in waiting})


def tournament_arena_end(*, tournament_id: int) -> None:
    """Celery `tournaments.arena_end` at `ends_at`: no new table from now; over once the last ends."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None or t.format != Tournament.Format.ARENA or t.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
            return
        if t.ends_at is not None and timezone.now() < t.ends_at - dt.timedelta(seconds=1):
            tid, delay = t.pk, (t.ends_at - timezone.now()).total_seconds()
            transaction.on_commit(lambda: schedule("tournaments.arena_end", (tid,), delay))
            return
        t.entries.update(waiting_since=None)
        if not TournamentTable.objects.filter(round__tournament=t, done=False).exists():
            _finish(t)
        _changed(t.pk)


def tournament_watch(*, tournament_id: int) -> None:
    """Celery `tournaments.watch`, every minute while running: record tables whose end was missed
    (an aborted match fires no hook; a worker may have died), then move on."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None or t.status != Tournament.Status.RUNNING:
        return
    late = timezone.now() - dt.timedelta(seconds=settings.TOURNAMENT_SEAT_GRACE_SECONDS)
    for tt_id in TournamentTable.objects.filter(round__tournament=t, done=False, match__isnull=True, round__started_at__lt=late).values_list("pk", flat=True):
        tournament_table_deal(tournament_table_id=tt_id)  # its deal task was lost
    stale = TournamentTable.objects.filter(round__tournament=t, done=False).exclude(match__status=Match.Status.LIVE)
    for tt in stale.values_list("match_id", flat=True):
        if tt is not None:
            tournament_table_finished(match_id=tt)
    tournament_next_round(tournament_id=tournament_id)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.status == Tournament.Status.RUNNING:
            _watch(t.pk)


def _changed(tournament_id: int) -> None:
    """Send the live page the whole tournament once this transaction commits."""

    def send() -> None:
        payload = selectors.tournament_payload_or_none(tournament_id)
        if payload is not None:
            send_group(tournament_group(tournament_id), {"type": "tournament.changed", "tournament": payload})

    transaction.on_commit(send)
