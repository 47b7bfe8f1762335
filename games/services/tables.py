"""Tables: create, join, leave, seat bots, start and rematch; a seat handed to a bot or withdrawn."""

from __future__ import annotations

import logging
import random
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.services import bot_free_number, bot_user
from games import errors, hooks, selectors
from games.engine import BOT_LEVELS, RuleError, resolve_options
from games.kit.registry import get_rules, public_slugs
from games.kit.resignation import RESIGN
from games.models import (
    Match,
    Seat,
    Table,
)
from games.services.actions import action_submit
from games.services.matches import _match_create
from games.table_options import table_options_check_ranked, table_options_resolve
from live import bus
from people.selectors import blocked_between

log = logging.getLogger(__name__)


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
    min_reaction_ms: int | None = None,
) -> Table:
    """A new open table; the host sits at seat 0 unless `sit` is false (a table of bots to watch).

    A person hosts at most MAX_OPEN_TABLES_PER_USER open tables at once (409 `too_many_tables`):
    unbounded, one account fills the lobby with tables nobody can tell from real ones. Tables the
    platform organises (`table_create_for`, `capped=False`) start at once and are not a person's.
    `zombie_seconds` (games/table_options.py; None: the default) is how long a player may be away
    before a bot plays for them; `lag_cap_ms` how much of a player's round trip a race compensates;
    `min_reaction_ms` the human floor of its races (0, no floor, only at an unranked table: 400 `bad_option`).
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
    own = table_options_resolve({"zombie_seconds": zombie_seconds, "lag_cap_ms": lag_cap_ms, "min_reaction_ms": min_reaction_ms})
    table_options_check_ranked(options=own, ranked=bool(ranked))
    with transaction.atomic():
        if capped:
            _open_tables_cap(host)
        table = Table.objects.create(
            game=game, seats=seats, options=options, ranked=bool(ranked), host=host, zombie_seconds=own["zombie_seconds"],
            lag_cap_ms=own["lag_cap_ms"], min_reaction_ms=own["min_reaction_ms"],
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


def _bot_matches_cap(host: User, table: Table, seats: list[Seat]) -> None:
    """Refuse one more live match of bots only past MAX_BOT_MATCHES_PER_HOST (409 `too_many_bot_matches`).

    A bot match costs the platform every move of every seat and nobody plays it: 36 started at once
    by one account slowed the bot tables people play at (docs/security.md "Limits"). The host's row
    is locked so a burst of starts cannot all pass the count. A tournament's tables are the platform's
    (their organiser starts a round of them at once) and neither count nor are refused."""
    if any(not seat.bot_level for seat in seats):
        return
    if Table.objects.filter(pk=table.pk, tournament_table__isnull=False).exists():
        return
    User.objects.select_for_update().filter(pk=host.pk).first()
    cap = settings.MAX_BOT_MATCHES_PER_HOST
    live = (
        Table.objects.filter(host=host, status=Table.Status.PLAYING, tournament_table__isnull=True)
        .exclude(seat_set__bot_level="")
        .count()
    )
    if live >= cap:
        raise errors.conflict(f"you already watch {cap} matches of bots only: let one finish first", "too_many_bot_matches")


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
        if blocked_between(user.pk, table.host_id):  # people's block rule: neither joins the other's table
            raise errors.conflict("you cannot join this table: you and its host block one another", "blocked")
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
        refusal = hooks.leave_refusal(table.pk)  # a tournament's table waiting for its deal is not left
        if refusal:
            raise errors.conflict(refusal, "organised")
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

    Always a new table: handing back a half-played one (as this once did) put newcomers in a match a bot
    had been playing for them. The lobby lists the matches a player is still seated at, with a way back
    (selectors.tables_in_progress), and a match one no longer wants is resigned (`table_resign`).
    Casual by decision: ratings come from tables people chose to rank (the lobby's ranked quick play
    goes through the matchmaking queue).
    """
    if game not in public_slugs():
        raise errors.bad_request(f"unknown game {game!r}", "unknown_game")
    rules = get_rules(game)
    if level not in BOT_LEVELS:
        raise errors.bad_request(f"level must be one of {', '.join(BOT_LEVELS)}", "bad_level")
    seats = min(max(PLAY_NOW_SEATS, rules.min_seats), rules.max_seats)
    with transaction.atomic():
        table = table_create(host=user, game=game, seats=seats, capped=False)
        table = _lock_table(table.pk)
        for _ in range(seats - 1):
            Seat.objects.create(table=table, seat=_free_seat(table, None), user=_table_bot(table, level), bot_level=level)
        table_start(table_id=table.pk, by=user)
    return Table.objects.get(pk=table.pk)


def table_start(*, table_id: int, by: User, seed: str | None = None, capped: bool = True) -> Match:
    """The match begins. `capped=False`: a table the platform organises, outside the host's bot-only cap."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.host_id != by.pk:
            raise errors.forbidden("only the host starts the table", "not_host")
        if table.status == Table.Status.PLAYING:
            raise errors.conflict("the table is already playing", "started")
        seats = list(table.seat_set.select_related("user"))
        if len(seats) != table.seats:
            raise errors.conflict(f"every seat must be filled ({len(seats)} of {table.seats})", "not_full")
        if capped:
            _bot_matches_cap(by, table, seats)
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
        _bot_matches_cap(by, table, seats)
        match = _match_create(table=table, seats=seats, seed=None)
    bus.table_changed(table.pk)
    return match


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
    min_reaction_ms: int | None = None,
) -> Table:
    """A table whose seats are given: `(user, "")` for a person, `(None, level)` for a bot.

    The organiser hosts without sitting. With `start` the match begins at
    once; `seed` gives several tables the same deal (duplicate tournaments).
    """
    table = table_create(
        host=organiser, game=game, seats=len(players), options=options, ranked=ranked, sit=False, capped=False,
        zombie_seconds=zombie_seconds, lag_cap_ms=lag_cap_ms, min_reaction_ms=min_reaction_ms,
    )
    with transaction.atomic():
        for number, (person, level) in enumerate(players):
            if person is None:
                Seat.objects.create(table=table, seat=number, user=_table_bot(table, level or "normal"), bot_level=level or "normal")
            else:
                Seat.objects.create(table=table, seat=number, user=person, bot_level=level or "")  # (bot account, level): a named bot
    bus.table_changed(table.pk)
    if start:
        table_start(table_id=table.pk, by=organiser, seed=seed, capped=False)
    return table


def table_resign(*, table_id: int, user: User) -> Table:
    """PROTOCOL.md "Leaving a match": `user` leaves their live match for good.

    Through the one action path: the system action `{"kind": "resign", "seat": N}` puts a public
    `resigned` event in the log (the kit folds it, games/kit/resignation.py: at the end the seat is
    placed after every seat still in, a loss when ranked, and replays show it), then a normal bot
    plays the seat on for the others (`seat_withdraw`: a reconnect does not undo it). 403
    `not_seated` for anyone not seated in person; 409 `not_live` when the table plays no match,
    `resigned` the second time.
    """
    table = Table.objects.filter(pk=table_id).select_related("current_match").first()
    if table is None:
        raise errors.not_found("no such table")
    seat = table.seat_set.filter(user=user, bot_level="").first()
    if seat is None:
        raise errors.forbidden("only a player seated at this table resigns", "not_seated")
    match = table.current_match
    if table.status != Table.Status.PLAYING or match is None or match.status != Match.Status.LIVE:
        raise errors.conflict("there is no live match to resign", "not_live")
    if seat.withdrawn:
        raise errors.conflict("you have left this match already", "resigned")
    try:
        action_submit(match_id=match.pk, seat=None, action={"kind": RESIGN, "seat": seat.seat})
    except errors.PlatformError as e:
        if "match_over" in (e.code, e.rule_code):
            raise errors.conflict("the match is over", "not_live") from None
        if e.rule_code == "resigned":
            raise errors.conflict("you have left this match already", "resigned") from None
        raise
    seat_withdraw(table_id=table_id, seat=seat.seat)
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
