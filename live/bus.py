"""The live machinery as the domain sees it: publish what was committed, hold a timer, say who is here.

This is the whole interface on purpose (boardgame.io's small pub/sub is the model).
Domain code (games/, tournaments/, stats/, and any app added later) imports
`from live import bus` and calls only these names; everything else under live/
(channel layers, the embedded relay, the event loop's database connection,
server patches) is machinery behind it. Live never imports the domain: what it
needs from it (a table's payload, a presence beat, its timers) the domain
serves once at app ready with `serve` (games/apps.py).

Publishing. Every `*_on_commit` and table message waits for the surrounding
transaction (Zulip's rule: nothing is pushed for a rollback); `publish` sends
now, for a caller already past its commit.

    bus.publish(group, message)              a group message now
    bus.publish_on_commit(group, message)    after the surrounding commit
    bus.match_events(table_id, match_id, events, state, committed=..., here=...)
    bus.match_events_message(match_id, events, state)
    bus.deliver_here(table_id=..., message=...)   committed events to this process's idle sockets first
    bus.table_changed(table_id) / bus.table_removed(table_id) / bus.table_round_trips_changed(table_id)
    bus.chat(table_id, message)
    bus.table_group(table_id), bus.LOBBY_GROUP

Deferred work and timers.

    bus.schedule(task_name, args, delay_s)   a Celery task after delay_s (a test's queue in tests)
    bus.timer_can_hold() / bus.timer_hold(match_id=..., timer_id=..., due_at=..., armed_seq=...)
    bus.timer_drop(match_id=..., timer_id=...)   let go of a held timer the commit made dead
    bus.timer_also_scheduled()               a held timer goes to the scheduler as well (tests)

Presence.

    bus.PROCESS_ID                           this web process's id in its presence rows

Sessions (live/sessions.py).

    bus.sessions_end(user_id)                after the commit, every socket of the user closes (4401) on every process
    bus.sessions_check_with(check)           the domain's answer to which sockets' credentials no longer hold
    bus.Credential                           a socket's credential (user, token or session key, auth hash)
"""

from __future__ import annotations

from live import broadcast, heartbeat, local_sockets, local_timers, scheduling, sessions

# Publishing (live/broadcast.py, live/local_sockets.py).
LOBBY_GROUP = broadcast.LOBBY_GROUP
table_group = broadcast.table_group
publish = broadcast.send
publish_on_commit = broadcast.send_on_commit
match_events = broadcast.match_events
match_events_message = broadcast.match_events_message
table_changed = broadcast.table_changed
table_removed = broadcast.table_removed
table_round_trips_changed = broadcast.table_round_trips_changed
chat = broadcast.chat
deliver_here = local_sockets.deliver

# Deferred work and held timers (live/scheduling.py, live/local_timers.py).
schedule = scheduling.schedule
timer_can_hold = local_timers.can_hold
timer_also_scheduled = local_timers.also_scheduled
timer_hold = local_timers.hold
timer_drop = local_timers.drop

# Presence (live/heartbeat.py).
PROCESS_ID = heartbeat.PROCESS_ID

# Sessions end everywhere (live/sessions.py).
sessions_end = sessions.end
sessions_check_with = sessions.check_with
Credential = sessions.Credential  # what a socket was opened with, as `check` is asked about it


def serve(
    *, table_payload: broadcast.TablePayload, process_beat: heartbeat.ProcessBeat, timers: local_timers.TimerOwner
) -> None:
    """What live needs from the domain, given once at app ready (games/apps.py).

    `table_payload(table_id)`: a table's public payload for `table.changed` (None: gone);
    `process_beat(...)`: writes this process's presence beat; `timers`: answers for held timers.
    """
    broadcast.table_payload_from(table_payload)
    heartbeat.beat_with(process_beat)
    local_timers.held_for(timers)
