"""Writes of the games app (HackSoft style: `<noun>_<verb>`, keyword-only), one module per thing served.

tables: create, join, leave, bots, start, rematch, seats handed on; matches: the deal and abort;
actions: `action_submit` and its fast path, race timing, bots planning, `action_notify`;
timers: firing and pruning; presence: connections, heartbeats, round trips, zombies; chat.
The public names are handed on here so callers keep one `services.<name>`; patch a module's own
name (`games.services.actions.SNAPSHOT_EVERY`) to change what its functions read.
"""

from games.services.actions import (
    MAX_ACTION_ID,
    SNAPSHOT_EVERY,
    SubmitResult,
    action_check,
    action_notify,
    action_submit,
    action_submit_cached,
    bots_plan,
    now_ms,
    race_timing,
)
from games.services.chat import chat_post
from games.services.matches import match_abort
from games.services.presence import (
    presence_close,
    presence_open,
    presence_rtt_set,
    presence_rtt_set_async,
    presence_sweep,
    table_zombie_check,
    web_process_beat,
)
from games.services.tables import (
    PLAY_NOW_SEATS,
    seat_hand_to_bot,
    seat_withdraw,
    table_add_bot,
    table_create,
    table_create_for,
    table_join,
    table_join_by_invite,
    table_leave,
    table_play_now,
    table_rematch,
    table_resign,
    table_start,
)
from games.services.timers import TIMER_PRUNE_BATCH, timer_fire, timer_stale_cached, timers_prune

__all__ = [
    "MAX_ACTION_ID",
    "PLAY_NOW_SEATS",
    "SNAPSHOT_EVERY",
    "SubmitResult",
    "TIMER_PRUNE_BATCH",
    "action_check",
    "action_notify",
    "action_submit",
    "action_submit_cached",
    "bots_plan",
    "chat_post",
    "match_abort",
    "now_ms",
    "presence_close",
    "presence_open",
    "presence_rtt_set",
    "presence_rtt_set_async",
    "presence_sweep",
    "race_timing",
    "seat_hand_to_bot",
    "seat_withdraw",
    "table_add_bot",
    "table_create",
    "table_create_for",
    "table_join",
    "table_join_by_invite",
    "table_leave",
    "table_play_now",
    "table_rematch",
    "table_resign",
    "table_start",
    "table_zombie_check",
    "timer_fire",
    "timer_stale_cached",
    "timers_prune",
    "web_process_beat",
]
