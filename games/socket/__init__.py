"""The live table socket `ws/tables/<id>/` and the lobby socket: pages-and-api layer, translate, never decide.

- `consumers`: the Channels consumers (games/routing.py maps the routes to them); they authenticate,
  call the services in a thread and turn every outcome into exactly one answer;
- `policy`: what a socket accepts and how it refuses (frame shapes, the message budget, error frames);
- `spectator_syncs`: spectators' `sync` answered from this process's memory, coalesced, behind the players.

Not here: what an action does (games/services/actions.py), the round-trip estimate races are judged
with (games/kit/latency.py, pure), the fan-out between processes (live/). Nothing below this package
imports it: the domain never imports a consumer.
"""
