"""The domain's answers for the timers a web process holds (live/local_timers.py's `TimerOwner`).

Live holds a timer on its event loop and calls back here at the due time: whether
this process already committed the match's end, whether its cached state shows
the timer stale, how stale rows are marked fired, and the firing itself. Served
to live at app ready (games/apps.py), so live never imports the domain.
"""

from __future__ import annotations

import logging

from games import errors
from games.services import action_sql, match_cache
from games.services.timers import timer_fire, timer_stale_cached
from live import async_db

log = logging.getLogger(__name__)


def has_ended(match_id: int) -> bool:
    return match_cache.has_ended(match_id)


def stale_at(*, match_id: int, timer_id: str, armed_seq: int) -> int | None:
    """From this process's cache, only where the fast path runs (the cache is filled there alone)."""
    if not async_db.enabled():
        return None
    return timer_stale_cached(match_id=match_id, timer_id=timer_id, armed_seq=armed_seq)


async def mark_fired(timers: list[tuple[int, str, int]]) -> set[tuple[int, str]]:
    async with async_db.connection() as conn:
        return await action_sql.timers_fired_async(conn=conn, timers=timers)


def fire(*, match_id: int, timer_id: str) -> None:
    """`timer_fire`, the Celery task's own path; the timers its action arms are held here too."""
    try:
        timer_fire(match_id=match_id, timer_id=timer_id, hold_timers=True)
    except errors.PlatformError as e:
        log.info("timer %s of match %s not applied: %s", timer_id, match_id, e.message)
