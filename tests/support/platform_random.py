"""Random play through the whole platform: a started table, a socket per seat and a spectator's, random steps.

Shared by tests/games/test_platform_random.py (secrecy of every message
against `may_see`) and tests/replays/test_replay_random.py (the replay API
against what the sockets saw): both start a table of the game with the
harness's random options, connect every perspective before the first
action and submit `random_move`s — the game's own `choose`, `kind_weights`
and `by_table`, so platform matches get as far as random play does — from
the seats they name through `action_submit`.
"""

from __future__ import annotations

import random
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from accounts.services import token_for
from config.asgi import application
from games import errors
from games.models import Match
from games.services.actions import action_submit
from tests.games.factories import started_table
from tests.support.simulate import Harness, random_move

Sockets = list[tuple[int | None, WebsocketCommunicator, list[dict[str, Any]]]]
"""(viewer, socket, every message it received) per perspective: the spectator (None) first, then each seat."""


def seats_for(h: Harness, rng: random.Random) -> int:
    choices = [n for n in range(h.rules.min_seats, h.rules.max_seats + 1) if not (h.rules.teams and n % 2)]
    return rng.choice(choices)


async def drain(comm: WebsocketCommunicator, into: list[dict[str, Any]]) -> None:
    # receive_nothing peeks without cancelling the consumer (a timed-out receive would).
    while not await comm.receive_nothing(timeout=0.2, interval=0.01):
        into.append(await comm.receive_json_from(timeout=5))


async def random_table(h: Harness, slug: str, rng: random.Random) -> tuple[Match, list[User], Sockets]:
    """A started table of `slug` (random seat count and options) with every perspective connected, hello received."""
    seats = seats_for(h, rng)
    options = {k: v for k, v in h.random_options(seats, rng).items() if not h.rules.options[k].internal}
    table, match, humans = await database_sync_to_async(started_table)(players=seats, game=slug, options=options)
    tokens = [await database_sync_to_async(token_for)(user=u) for u in humans]
    socks: Sockets = []
    for viewer in [None, *range(seats)]:
        path = f"/ws/tables/{table.pk}/" + ("" if viewer is None else f"?token={tokens[viewer]}")
        comm = WebsocketCommunicator(application, path)
        assert (await comm.connect())[0]
        socks.append((viewer, comm, [await comm.receive_json_from(timeout=5)]))
    return match, humans, socks


@database_sync_to_async
def random_step(h: Harness, match: Match, rng: random.Random, action_id: str) -> None:
    """One random move of the live match through `action_submit`; refusals must be the player-facing kinds."""
    m = Match.objects.get(pk=match.pk)
    if m.status != Match.Status.LIVE:
        return
    seat, action = random_move(h, m.state, m.seats, rng)
    if action is None:
        return
    try:
        action_submit(match_id=m.pk, seat=seat, action=action, action_id=action_id)
    except errors.PlatformError as e:
        assert e.code in ("rule", "match_over", "bad_message"), e.message


async def play_through_sockets(h: Harness, match: Match, socks: Sockets, rng: random.Random, actions: int) -> None:
    """`actions` random steps, then every socket drained and closed."""
    for i in range(actions):
        await random_step(h, match, rng, f"r{i}")
    for _, comm, got in socks:
        await drain(comm, got)
        await comm.disconnect()
