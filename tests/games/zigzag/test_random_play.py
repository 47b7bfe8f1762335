"""ZIGZAG in the generic random-play harness: every invariant after every event.

games.testing.play_random checks, after every event: every card conserved
(75 or 76 cards, 77 with `beginner` at six), JSON round trips, fold of the
stored log equals the live state, and no view or redacted event shows a seat
(or a spectator) a card `may_see` does not allow: no other hand (the
partner's included), no starting card before it is taken, no draw pile or
reshuffle order, no face-down discard.

Signs are not cards, so their secrecy is checked here explicitly: no
redaction or view for anyone but the signer and its partner carries a sign's
content, and with `signals_seen` off they get nothing at all (the move a
sign rode on, exactly as without it; tests/security/test_zigzag_signals.py
compares whole streams).

`RANDOM_GAMES` (env) sizes the run; the default keeps this file under 20 s.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from games.testing import play_random
from games.zigzag.harness import HARNESS, random_action
from games.zigzag.rules import RULES, partner_of

GAMES = int(os.environ.get("RANDOM_GAMES", "16"))
SEATS = (4, 6)


@pytest.mark.parametrize("seats", SEATS)
def test_random_games_keep_every_invariant_and_mostly_finish(seats: int) -> None:
    games = max(1, GAMES // len(SEATS))
    finished = 0
    for i in range(games):
        report = play_random(HARNESS, seats, seed=1000 * seats + i, max_actions=700)
        finished += report.finished
        assert report.actions > 0
    assert finished >= games * 0.4, f"only {finished} of {games} random games finished"


@pytest.mark.parametrize("seats", SEATS)
def test_many_short_random_games_over_every_option(seats: int) -> None:
    """Many seeds (and so option sets) for the setup and the first tours."""
    for i in range(max(1, GAMES * 2)):
        play_random(HARNESS, seats, seed=7 * i + seats, max_actions=40)


def test_sign_content_reaches_only_signer_and_partner() -> None:
    """Standalone signs (option on) and signs riding on moves (either option)."""
    signs = hidden = riding = 0
    for seed in range(max(4, GAMES)):
        seats = SEATS[seed % 2]
        report = play_random(HARNESS, seats, seed=500 + seed, max_actions=500, check=False)
        state = None
        for e in report.log:
            state = RULES.fold(state, e)
            if e["kind"] == "signalled":
                signer, sign = e["seat"], e["data"]["sign"]
            elif "signal" in e["data"]:
                signer, sign = e["seat"], e["data"]["signal"]["sign"]
                riding += 1
            else:
                continue
            signs += 1
            assert e["kind"] != "signalled" or state["options"]["signals_seen"], "a sign of its own at a secret table"
            friends = {signer, partner_of(signer, seats)}
            unsigned = {**e, "data": {k: v for k, v in e["data"].items() if k != "signal"}}
            for seat in [None, *range(seats)]:
                red = RULES.redact(e, seat)
                view = RULES.view(state, seat)
                if seat in friends:
                    assert red is not None and sign in (red["data"].get("sign"), red["data"].get("signal", {}).get("sign"))
                    assert view["signals"][str(signer)]["sign"] == sign
                    continue
                assert red is None or sign not in json.dumps(red["data"])
                if not state["options"]["signals_seen"]:
                    # exactly the event the move makes without a sign; the view has no trace of it
                    assert json.dumps(red) == json.dumps(RULES.redact(unsigned, seat))
                    assert str(signer) not in view["signals"]
                    hidden += 1
                    continue
                assert red is not None and red["kind"] == e["kind"]
                assert "sign" not in red["data"] and red["data"].get("signal", {}).get("sign") is None
                assert "sign" not in view["signals"][str(signer)]
    assert signs > 20 and hidden > 0 and riding > 0


def test_random_action_sometimes_sends_garbage_that_is_refused() -> None:
    state = None
    for e in RULES.setup(4, {}, random.Random(0)):
        state = RULES.fold(state, e)
    rng = random.Random(3)
    kinds = set()
    for _ in range(3000):
        action = random_action(state, rng.randrange(4), 0, rng)
        kinds.add(action.get("kind") if isinstance(action, dict) else "garbage")
    assert {"open", "signal", "announce", "counter", "garbage"} <= kinds
