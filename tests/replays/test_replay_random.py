"""Random matches of every game through the real services and sockets, then replayed through the API.

For each game (and the test-only one) random actions from random seats
(tests/support/platform_random.py) go through `action_submit` while a spectator socket and one socket per seat
listen. Afterwards:

- the timeline of each perspective equals, event for event, what that
  perspective's live socket received (asked while live with the seat's own
  token, and again by anyone once the match is over);
- the view the `state` API gives at each sampled socket message's seq equals
  the view that socket was sent then;
- `state?at=k` equals the fold of the first k stored events, for sampled k and
  every perspective, with the snapshots live play wrote, with none, and with
  those `snapshots_write` puts back.

Sized by REPLAY_RANDOM_GAMES (matches per game) and REPLAY_RANDOM_ACTIONS.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.engine import fold_all
from games.kit.registry import INSTALLED
from games.models import Match, Snapshot
from games.services import actions
from games.services.matches import match_abort
from replays.services import snapshots_write
from tests.replays.replay_support import client, plain, stored_log
from tests.support.platform_random import play_through_sockets, random_table
from tests.support.simulate import harness_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GAMES = int(os.environ.get("REPLAY_RANDOM_GAMES", "1"))
ACTIONS = int(os.environ.get("REPLAY_RANDOM_ACTIONS", "120"))
EVERY = 7  # snapshots every 7 events, so a short random match has many


def jsonish(value: Any) -> Any:
    return json.loads(json.dumps(value))


def label(viewer: int | None) -> str:
    return "spectator" if viewer is None else f"seat:{viewer}"


def timeline(match: Match, perspective: str, after: int, user: User | None) -> list[dict[str, Any]]:
    """The whole timeline after `after`, in pages of 37 following `next`."""
    c, out = client(user), []
    nxt: int | None = after
    while nxt is not None:
        r = c.get(f"/api/matches/{match.pk}/timeline/?perspective={perspective}&from={nxt}&limit=37")
        assert r.status_code == 200, r.json()
        out += r.json()["events"]
        nxt = r.json()["next"]
    return out


def state_api(match: Match, at: int, perspective: str, user: User | None = None) -> dict[str, Any]:
    r = client(user).get(f"/api/matches/{match.pk}/state/?at={at}&perspective={perspective}")
    assert r.status_code == 200, r.json()
    return r.json()


def check_states(match: Match, rules: Any, log: list[dict[str, Any]], ks: list[int], rng: random.Random) -> None:
    for k in ks:
        folded = fold_all(rules, log[:k])
        whole = state_api(match, k, "all")
        assert whole["seq"] == k and whole["state"] == jsonish(folded), f"state at {k}"
        assert whole["view"] == jsonish(rules.view_all(folded))
        assert state_api(match, k, "spectator")["view"] == jsonish(rules.view(folded, None))
        seat = rng.randrange(match.seats)
        assert state_api(match, k, f"seat:{seat}")["view"] == jsonish(rules.view(folded, seat)), f"seat {seat} at {k}"


@pytest.mark.parametrize("slug", ["tiny", *INSTALLED])
@pytest.mark.parametrize("game_no", range(GAMES))
async def test_replay_of_random_play_matches_live_sockets_and_the_fold(
    slug: str, game_no: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(actions, "SNAPSHOT_EVERY", EVERY)
    h = harness_of(slug)
    rng = random.Random(f"replay-{slug}-{game_no}")
    match, humans, socks = await random_table(h, slug, rng)
    await play_through_sockets(h, match, socks, rng, ACTIONS)

    @database_sync_to_async
    def verify() -> None:
        m = Match.objects.get(pk=match.pk)
        log = plain(stored_log(m))
        rules = h.rules
        assert fold_all(rules, log) == m.state
        received = {}
        for viewer, _, got in socks:
            hello = got[0]
            assert hello["type"] == "hello"
            received[viewer] = (hello["seq"], [e for msg in got if msg["type"] == "events" for e in msg["events"]])
            # What the socket was shown at each (sampled) moment is the state API's view then.
            shown = [(hello["seq"], hello["view"])] + [(msg["seq"], msg["view"]) for msg in got if msg["type"] == "events" and msg["view"] is not None]
            user = None if viewer is None else humans[viewer]
            for seq, view in rng.sample(shown, min(12, len(shown))):
                assert state_api(m, seq, label(viewer), user)["view"] == view, f"{slug}: {label(viewer)} view at {seq}"
            if m.status == Match.Status.LIVE:
                assert timeline(m, label(viewer), hello["seq"], user) == received[viewer][1], f"{slug}: live timeline of {label(viewer)}"
        if m.status == Match.Status.LIVE:
            # While live nobody sees everything, nor another seat; then the host ends the match and all opens up.
            assert client(humans[0]).get(f"/api/matches/{m.pk}/timeline/?perspective=all").status_code == 403
            assert client(humans[0]).get(f"/api/matches/{m.pk}/state/?perspective=seat:1").status_code == 403
            match_abort(match_id=m.pk, by=humans[0])
            m.refresh_from_db()
        for viewer, (after, events) in received.items():
            assert timeline(m, label(viewer), after, None) == events, f"{slug}: timeline of {label(viewer)} after the end"
        assert timeline(m, "all", 0, None) == stored_log(m)

        ks = sorted({1, m.seq, *rng.sample(range(1, m.seq + 1), min(10, m.seq))})
        if m.seq >= 2 * EVERY:
            assert Snapshot.objects.filter(match=m).exists(), "live play writes snapshots"
        check_states(m, rules, log, ks, rng)
        Snapshot.objects.filter(match=m).delete()
        check_states(m, rules, log, ks, rng)
        assert snapshots_write(match=m, every=EVERY) == m.seq // EVERY
        check_states(m, rules, log, ks, rng)

    await verify()
