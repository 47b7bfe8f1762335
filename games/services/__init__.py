"""Writes of the games app (HackSoft style: `<noun>_<verb>`, keyword-only), one module per thing served.

- `tables`: create, join, leave, bots, start, rematch, play now, seats handed on;
- `matches`: the deal and the abort;
- `actions`: `action_submit` (every change to a match) and its fast path, race timing, bots planning,
  `action_notify`; beside it what only the action path uses: `action_sql` (its hand-written statements)
  and `match_cache` (the state this process last committed, for the one-message fast path);
- `timers`: firing a due timer and pruning; `held_timers`: the answers live/ asks of a timer it holds
  in a web process (the Celery tasks that fire the others are in games/tasks.py);
- `presence`: connections, heartbeats, round trips, zombie seats;
- `chat`: table chat.

Callers import a name from the module that defines it (`from games.services.actions import
action_submit`); nothing is handed on here. Not here: reads (games/selectors.py), the sockets
(games/socket/), the pure game kit (games/kit/).
"""
