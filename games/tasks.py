"""Celery tasks: timers, bot moves, presence and zombie seats, the end of a match.

Every task re-reads the match and re-checks before acting, so a late or
repeated task does nothing harmful (a stale timer is ignored by the rules,
a bot plan made for an older `seq` is dropped).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import transaction
from django.db.models import F, Q

from games import errors, selectors
from games.hooks import run_match_finished
from games.models import Match, MatchPlayer, Seat
from games.services.actions import action_submit, bots_plan, now_ms
from games.services.presence import presence_sweep, table_zombie_check
from games.services.timers import timer_fire, timers_prune
from live.bus import schedule

log = logging.getLogger(__name__)


@shared_task(name="games.fire_timer")
def fire_timer(match_id: int, timer_id: str) -> None:
    try:
        timer_fire(match_id=match_id, timer_id=timer_id)
    except errors.PlatformError as e:
        log.info("timer %s of match %s not applied: %s", timer_id, match_id, e.message)


@shared_task(name="games.plan_bots")
def plan_bots(match_id: int, seq: int) -> None:
    """Each bot seat looks at its own view and history and plans its next move (bots_plan)."""
    bots_plan(match_id=match_id, seq=seq)


@shared_task(name="games.bot_act")
def bot_act(match_id: int, seat: int, seq: int, action: dict[str, Any]) -> None:
    """Make a planned move, once, and only while a bot still plays the seat.

    Stale or repeated plans are harmless: a plan for an older `seq` is dropped,
    and every plan of one `seq` and seat carries the action id
    `bot:<seq>:<seat>`, so of two plans made for the same moment (the first
    one and the sweeper's, or a task the broker delivered again) at most one
    applies, the other is answered as a duplicate. Whose turn it is the rules
    decide, as for any player. The seat is checked, locked, in the action's
    transaction: a zombie seat whose player came back is theirs again, and a
    move planned for it while they were away must not be made in their name.
    """
    current = Match.objects.filter(pk=match_id).values_list("seq", "status").first()
    if current is None or current[0] != seq or current[1] != Match.Status.LIVE:
        return  # the table moved on; a newer plan exists
    def submit() -> None:
        action_submit(match_id=match_id, seat=seat, action=action, action_id=f"bot:{seq}:{seat}", by_bot=True)

    try:
        if MatchPlayer.objects.filter(match_id=match_id, seat=seat).exclude(bot_level="").exists():
            submit()  # a bot's own seat: a bot plays it to the end
            return
        with transaction.atomic():
            if not _zombie_locked(match_id, seat):
                log.info("bot move of seat %s in match %s dropped: its player is back", seat, match_id)
                return
            submit()
    except errors.PlatformError as e:
        log.info("bot move of seat %s in match %s refused: %s", seat, match_id, e.message)


def _zombie_locked(match_id: int, seat: int) -> bool:
    """The seat is a zombie seat of the match's table (a bot plays for its away player); its row is locked.

    The lock lasts until the caller's transaction ends, so the player's return
    (which locks the row to clear `zombie`) comes before the check or after
    the move, never between them.
    """
    zombie = (
        Seat.objects.select_for_update(of=("self",))
        .filter(table__current_match_id=match_id, seat=seat, zombie=True, bot_level="")
        .values_list("pk", flat=True)
    )
    return zombie.first() is not None


@shared_task(name="games.zombie_check")
def zombie_check(table_id: int, _seat: int | None = None) -> None:
    """`zombie_seconds` after a socket of the table closed: who is still away becomes a zombie.

    `_seat` is ignored: a check queued by an earlier release (keyed by seat number) still runs.
    """
    table_zombie_check(table_id=table_id)


@shared_task(name="games.sweep_presence")
def sweep_presence() -> dict[str, int]:
    """Beat, every 5 s: connections of web processes that stopped beating go; away players become zombies."""
    return presence_sweep()


@shared_task(name="games.match_finished")
def match_finished(match_id: int) -> None:
    """Hook for what follows a match: ratings, statistics, tournaments register here."""
    run_match_finished(match_id)


SWEEP_GRACE_MS = 1000
"""How long past due a timer must be before the sweeper fires it: its holder (a worker's countdown task,
or the web process that armed it, live/local_timers.py) fires it at the due time; the sweeper is for the lost."""


@shared_task(name="games.sweep_timers")
def sweep_timers() -> int:
    """Fire overdue timers that a lost worker or web process dropped (run by beat or at worker start)."""
    overdue = selectors.overdue_timers(grace_ms=SWEEP_GRACE_MS)
    for match_id, timer_id in overdue:
        fire_timer(match_id, timer_id)
    return len(overdue)


@shared_task(name="games.prune_timers")
def prune_timers() -> int:
    """Delete fired timer rows and those of finished matches (run by beat every minute)."""
    return timers_prune()


BOT_STALL_MS = 10_000
"""Silence after which a table's bots plan again: longer than any bot thinks, short enough that a lost plan costs seconds."""


@shared_task(name="games.sweep_bots")
def sweep_bots() -> int:
    """Plan again for bots whose plan a lost worker or broker dropped (run by beat every 5 s).

    A bot's plan lives only in the broker (`plan_bots`, then a countdown
    `bot_act`): a killed worker takes the tasks it held, a flushed or
    restarted Redis the queued ones, and nothing in the database says a move
    is owed. So every live match where a bot (or a zombie seat's bot) plays
    and nothing happened for BOT_STALL_MS gets a fresh `plan_bots` at its
    current seq. Harmless when nothing was lost: a bot waiting for a person
    plans nothing, and plans of one seq carry one action id per seat
    (`bot_act`), so a move planned twice applies once. Returns how many
    matches were planned again.
    """
    with_bots = Seat.objects.filter(Q(zombie=True) | ~Q(bot_level="")).values("table_id")
    live = Match.objects.filter(
        status=Match.Status.LIVE, table__current_match=F("pk"), table_id__in=with_bots
    ).only("pk", "seq", "started_at", "last_t_ms")
    planned = 0
    for match in live:
        if now_ms(match) - match.last_t_ms >= BOT_STALL_MS:
            schedule("games.plan_bots", (match.pk, match.seq), 0)
            planned += 1
    if planned:
        log.info("bots of %s silent match(es) planned again", planned)
    return planned
