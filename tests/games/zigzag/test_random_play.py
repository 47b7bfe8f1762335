"""ZIGZAG in the generic random-play harness: every invariant after every event, and `legal_actions`.

tests/support/simulate.py's play_random draws from `legal_actions` (plus
malformed actions, each refused) and checks, after every event: every card
conserved (75 or 76 cards, 77 with `beginner` at six), JSON round trips,
fold of the stored log equals the live state, and no view or redacted event
shows a seat (or a spectator) a card `may_see` does not allow: no other hand
(the partner's included), no starting card before it is taken, no draw pile
or reshuffle order, no face-down discard. The harness's `choose` plays
purposefully among the listed actions, so random matches mostly end; bot
matches are put through the same checks to the end too.

Signs are not cards, so their secrecy is checked here explicitly: no
redaction or view for anyone but the signer and its partner carries a sign's
content, and with `signals_seen` off they get nothing at all (the move a
sign rode on, exactly as without it; tests/security/test_zigzag_signals.py
compares whole streams).

`legal_actions`: every listed action is accepted; an action drawn from
outside the list is refused; the list names only cards the seat sees, and a
secret (which claim lays a STOP) does not change it.

`RANDOM_GAMES` (env) sizes the run; the default keeps this file under 20 s.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
from typing import Any

import pytest

from games.engine import RuleError, State, Timing, fold_all
from games.zigzag.bot import BOT
from games.zigzag.rules import ALL_COMBOS, COMBOS, RULES, SIGNS, partner_of
from tests.games.zigzag.harness import HARNESS
from tests.games.zigzag.race_driver import play_random_timed
from tests.games.zigzag.zigzag_helpers import NONE_B, NONE_C, NONE_D, NONE_E, STOP_L, STOP_L2, open_all, table
from tests.support.simulate import HarnessChecks, InvariantError, play_bots, play_random, visible_ids

GAMES = int(os.environ.get("RANDOM_GAMES", "16"))
SEATS = (4, 6)


@pytest.mark.parametrize("seats", SEATS)
def test_random_games_keep_every_invariant_and_mostly_finish(seats: int) -> None:
    games = max(1, GAMES // len(SEATS))
    finished = 0
    kinds: set[str] = set()
    malformed = 0
    for i in range(games):
        report = play_random(HARNESS, seats, seed=1000 * seats + i, max_actions=700)
        finished += report.finished
        kinds.update(e["kind"] for e in report.log)
        malformed += report.malformed
        assert report.actions > 0
    assert finished >= games * 0.4, f"only {finished} of {games} random games finished"
    assert malformed > 0
    assert {"opened", "exchanged", "stopped", "z_played", "passed", "announced", "countered", "hands_replaced"} <= kinds


@pytest.mark.parametrize("seats", SEATS)
def test_many_short_random_games_over_every_option(seats: int) -> None:
    """Many seeds (and so option sets) for the setup and the first tours."""
    for i in range(max(1, GAMES * 2)):
        play_random(HARNESS, seats, seed=7 * i + seats, max_actions=40)


def test_bot_matches_keep_every_invariant_to_the_end() -> None:
    """Whole matches (bots finish them) through the checks of random play, event by event."""
    for seed, seats in ((1, 4), (2, 6)):
        report = play_bots(RULES, BOT, ["normal"] * seats, seed, options={"signals_seen": seed % 2 == 0})
        assert report.outcome is not None and report.rule_errors == 0
        log = report.log
        checks = HarnessChecks(HARNESS, seats)
        state = fold_all(RULES, log[:3])
        checks.setup(state, log[:3])
        for e in log[3:]:
            prev, state = state, RULES.fold(state, e)
            checks.step(prev, state, e)
        checks.end(state, log)
        assert state["finished"]


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


def _random_states(games: int, timed: bool) -> list[tuple[State, int]]:
    """States of random play (with races waiting when `timed`), each with the match time of its last event."""
    out = []
    for i in range(games):
        seats = SEATS[i % 2]
        if timed:
            log = play_random_timed(seats, seed=40 + i, max_actions=300).log
        else:
            log = play_random(HARNESS, seats, seed=60 + i, max_actions=300, check=False).log
        state = None
        for k, e in enumerate(log[:-1]):
            state = RULES.fold(state, e)
            # the table between two actions (an action's events share its t_ms), as decide meets it
            if k % 3 == 0 and log[k + 1]["t_ms"] > e["t_ms"] and not state["finished"]:
                out.append((state, e["t_ms"]))
    return out


def _decide(state: State, seat: int, action: Any, now: int) -> list[Any]:
    return RULES.decide(state, seat, action, now, random.Random(0), timing=Timing(now, now, (0,) * state["seats"]))


@pytest.mark.parametrize("timed", (False, True))
def test_every_listed_action_is_accepted(timed: bool) -> None:
    """(a) decide accepts each listed action; the one exception is the secret of a claim still judged."""
    checked = 0
    for state, now in _random_states(max(2, GAMES // 4), timed):
        for seat in range(state["seats"]):
            legal = RULES.legal_actions(state, seat)
            assert legal == RULES.view(state, seat)["legal"]
            for action in legal:
                try:
                    _decide(state, seat, action, now)
                except RuleError as err:
                    # a STOP another seat's judged claim is laying before the target (which claim it is, is secret)
                    laying = [m for r in state["races"] for m in r["moves"].values() if m["kind"] == "stop"]
                    assert err.code == "stop_limit" and any(m["target"] == action["target"] for m in laying), (action, err)
                checked += 1
    assert checked > 1000


def _candidates(state: State, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    """Actions by kind with random parameters: cards from anywhere, any seat, combos, signs, or junk."""
    seats = state["seats"]
    ids = [*state["hands"][seat], *state["centre"], *rng.sample(range(77), 3)]
    c = lambda: rng.choice(ids)  # noqa: E731
    sign = rng.choice([None, None, *SIGNS, "zog"])
    out: list[dict[str, Any]] = [
        {"kind": "open", "card": c()},
        {"kind": "exchange", "give": c(), "take": c()},
        {"kind": "stop", "card": c(), "target": rng.randrange(seats), "take": c()},
        {"kind": "z", "card": c(), "target": rng.randrange(seats), "take": c()},
        {"kind": "pass"},
        {"kind": "signal", "sign": rng.choice([*SIGNS, "zog"])},
        {"kind": "announce", "combo": rng.choice([*ALL_COMBOS, "zug"])},
        {"kind": "announce", "combo": rng.choice(ALL_COMBOS), "fills": rng.choice(COMBOS)},
        {"kind": "counter", "team": rng.randrange(seats // 2 + 1)},
    ]
    for a in out:
        if sign is not None and rng.random() < 0.5:
            a["sign"] = sign
    return out


def test_an_action_outside_the_list_is_refused() -> None:
    """(b) drawn by kind with random parameters: refused (RuleError, nothing changed) unless it is listed."""
    rng = random.Random(5)
    accepted = refused = 0
    for state, now in _random_states(max(2, GAMES // 4), timed=False):
        snapshot = copy.deepcopy(state)
        for seat in range(state["seats"]):
            legal = RULES.legal_actions(state, seat)
            for action in _candidates(state, seat, rng):
                try:
                    _decide(state, seat, action, now)
                except RuleError:
                    refused += 1
                    assert action not in legal, action
                    continue
                accepted += 1
                assert action in legal, action
        assert state == snapshot
    assert accepted > 100 and refused > 100, (accepted, refused)


@pytest.mark.parametrize("timed", (False, True))
def test_legal_names_only_cards_the_seat_sees(timed: bool) -> None:
    """(c) every card a listed action names is shown in the seat's own view (hand or centre)."""
    for state, _ in _random_states(max(2, GAMES // 4), timed):
        for seat in range(state["seats"]):
            view = RULES.view(state, seat)
            named = {a[f] for a in view.pop("legal") for f in ("card", "give", "take") if f in a}
            assert named <= visible_ids(view), (seat, named - visible_ids(view))


def test_a_secret_claim_does_not_change_what_others_may_do() -> None:
    """(c) seat 0's judged claim lays a STOP or makes an exchange: the others see the same table and list."""
    hands = [[NONE_B[0], STOP_L, NONE_B[2], NONE_B[3]], NONE_C, [NONE_D[0], STOP_L2, NONE_D[2], NONE_D[3]], NONE_E]
    state = open_all(table(hands))
    take = state["centre"][0]
    timing = Timing(arrival_ms=2000, judged_ms=2000, comp_ms=(0, 0, 0, 150))  # seat 3 could still be faster
    claims = ({"kind": "stop", "card": STOP_L, "target": 1, "take": take}, {"kind": "exchange", "give": STOP_L, "take": take})
    states = []
    for action in claims:
        events = RULES.decide(state, 0, action, 2000, random.Random(0), timing=timing)
        assert [e["kind"] for e in events] == ["race_claimed", "timer"]
        states.append(fold_all(RULES, events, state))
    for seat in (1, 2, 3):
        stopping, exchanging = (RULES.view(s, seat) for s in states)
        assert stopping == exchanging, seat
    assert {"kind": "stop", "card": STOP_L2, "target": 1, "take": take} in RULES.legal_actions(states[0], 2)


def test_a_choice_that_is_not_listed_is_caught() -> None:
    """The driver checks the harness's pick: a `choose` naming a card the seat does not hold fails random play."""

    def careless(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
        return {"kind": "open", "card": 10_000} if state["starting"][seat] is not None else None

    with pytest.raises(InvariantError, match="unlisted action"):
        play_random(dataclasses.replace(HARNESS, choose=careless), 4, seed=5, max_actions=200, check=False)


def test_a_listed_action_naming_a_hidden_card_is_caught() -> None:
    """The secrecy check reads `legal` by the card ids its actions name: one naming another seat's card fails."""

    class Naming(type(RULES)):  # type: ignore[misc]
        def view(self, state, seat):  # type: ignore[no-untyped-def]
            v = super().view(state, seat)
            if seat is not None and not state["finished"]:
                other = state["hands"][(seat + 1) % state["seats"]][0]
                v = {**v, "legal": [*v["legal"], {"kind": "open", "card": other}]}
            return v

    with pytest.raises(InvariantError, match="name cards"):
        play_random(dataclasses.replace(HARNESS, rules=Naming()), 4, seed=5, max_actions=50)
