"""Celery tasks: timers, bot moves, presence and zombie seats, the end of a match.

Every task re-reads the match and re-checks before acting, so a late or
repeated task does nothing harmful (a stale timer is ignored by the rules,
a bot plan made for an older `seq` is dropped).
"""

from __future__ import annotations

import logging
import random
from typing import Any

from celery import shared_task

from games import errors, services
from games.engine import BotContext
from games.models import Match, PendingTimer
from games.registry import get_bot, get_rules
from games.scheduling import schedule
from games.selectors import bot_seats, events_between, redact_for

log = logging.getLogger(__name__)


@shared_task(name="games.fire_timer")
def fire_timer(match_id: int, timer_id: str) -> None:
    try:
        services.action_submit(
            match_id=match_id, seat=None, action={"kind": "timer", "id": timer_id}, action_id=f"timer:{timer_id}"[:64]
        )
    except errors.PlatformError as e:
        log.info("timer %s of match %s not applied: %s", timer_id, match_id, e.message)


@shared_task(name="games.plan_bots")
def plan_bots(match_id: int, seq: int) -> None:
    """Each bot seat looks at its own view and history and plans its next move."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None or match.status != Match.Status.LIVE or match.seq != seq:
        return
    seats = bot_seats(match=match)
    if not seats:
        return
    rules, bot = get_rules(match.game), get_bot(match.game)
    history = events_between(match_id=match_id, after=0, upto=seq)
    now = services.now_ms(match)
    rng = random.Random(f"{match_id}:{seq}:{match.seed}")
    for seat, level in seats:
        ctx = BotContext(
            seat=seat, level=level, view=rules.view(match.state, seat), history=redact_for(rules, history, seat), now_ms=now
        )
        move = bot.choose(ctx, rng)
        if move is None:
            continue
        delay = max(0, move.at_ms - now) / 1000
        schedule("games.bot_act", (match_id, seat, seq, move.action), delay)


@shared_task(name="games.bot_act")
def bot_act(match_id: int, seat: int, seq: int, action: dict[str, Any]) -> None:
    current = Match.objects.filter(pk=match_id).values_list("seq", "status").first()
    if current is None or current[0] != seq or current[1] != Match.Status.LIVE:
        return  # the table moved on; a newer plan exists
    try:
        services.action_submit(match_id=match_id, seat=seat, action=action, action_id=f"bot:{seq}:{seat}", by_bot=True)
    except errors.PlatformError as e:
        log.info("bot move of seat %s in match %s refused: %s", seat, match_id, e.message)


@shared_task(name="games.zombie_check")
def zombie_check(table_id: int, _seat: int | None = None) -> None:
    """`zombie_seconds` after a socket of the table closed: who is still away becomes a zombie.

    `_seat` is ignored: a check queued by an earlier release (keyed by seat number) still runs.
    """
    services.table_zombie_check(table_id=table_id)


@shared_task(name="games.sweep_presence")
def sweep_presence() -> dict[str, int]:
    """Beat, every 5 s: connections of web processes that stopped beating go; away players become zombies."""
    return services.presence_sweep()


@shared_task(name="games.match_finished")
def match_finished(match_id: int) -> None:
    """Hook for what follows a match: ratings, statistics, tournaments register here."""
    from games.hooks import run_match_finished

    run_match_finished(match_id)


@shared_task(name="games.sweep_timers")
def sweep_timers() -> int:
    """Fire overdue timers that a lost worker dropped (run by beat or at worker start)."""
    fired = 0
    for timer in PendingTimer.objects.filter(fired=False, match__status=Match.Status.LIVE).select_related("match"):
        if services.now_ms(timer.match) >= timer.due_ms:
            fire_timer(timer.match_id, timer.timer_id)
            fired += 1
    return fired
