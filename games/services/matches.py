"""A match's birth and abort: options from the table, the deal, the first events."""

from __future__ import annotations

import functools
import logging
import random
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import errors, selectors
from games.engine import RuleError
from games.kit.registry import get_rules
from games.models import (
    Match,
    MatchEvent,
    MatchPlayer,
    Seat,
    Table,
)
from games.services import action_sql, match_cache
from games.services.actions import action_notify
from live import bus

log = logging.getLogger(__name__)


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
