"""Looks live in the looker's own view: whatever message brings the view, it can show them.

The bug was that a page drew looked-at cards only from `peeked` events, and
the first message after Start (a `hello`) carries a view, not those events.
"""

from __future__ import annotations

import random

from games.engine import event, fold_all, timer_event
from games.zwicker.rules import RULES
from tests.games.zwicker.zwicker_helpers import act, c, cid, dealt, kinds, table
from tests.support.simulate import visible_ids

G2 = [["Ac", "9s", "4h", "3d"], ["Jc", "4c", "8h", "Kd"]]


def test_the_opening_look_is_in_the_view_after_setup_and_only_there() -> None:
    events = RULES.setup(3, {"peek_ms": 7000}, random.Random(5))
    state = fold_all(RULES, events)
    slots = events[0]["data"]["slots"]
    for seat in range(3):
        looks = RULES.view(state, seat)["looks"]
        assert looks == [
            {"target": seat, "slot": i, "card": slots[seat][i], "until_ms": 7000} for i in (2, 3)
        ]
    assert RULES.view(state, None)["looks"] == []
    assert RULES.view_all(state)["looks"] == []  # the replay's everything view shows every card anyway
    timers = [e["data"] for e in events if e["kind"] == "timer"]
    assert {"id": "look-7000", "due_ms": 7000} in timers


def test_a_power_look_lasts_peek_ms_from_the_moment_it_was_used() -> None:
    s = table(G2, discard="2c", draw=["9h"], peek_ms=3000)
    s, _ = act(s, None, {"kind": "timer", "id": "look-3000"}, now=3000)  # the opening looks are over
    s, _ = act(s, 0, {"kind": "draw"}, now=4000)
    s, ev = act(s, 0, {"kind": "use", "target": 1, "slot": 3}, now=4500)
    assert ev[0]["data"]["until_ms"] == 7500
    assert RULES.view(s, 0)["looks"] == [{"target": 1, "slot": 3, "card": c("Kd"), "until_ms": 7500}]
    assert RULES.view(s, 1)["looks"] == [] and cid("Kd") not in visible_ids(RULES.view(s, 1))
    s, ev = act(s, None, {"kind": "timer", "id": "look-7500"}, now=7400)  # a timer a little early still ends it
    assert kinds(ev) == ["looks_ended"] and RULES.view(s, 0)["looks"] == []
    s, ev = act(s, None, {"kind": "timer", "id": "look-7500"}, now=7600)
    assert ev == []


def test_a_look_ends_when_its_card_leaves_the_slot() -> None:
    log = [dealt(G2, "4d"), event("peeked", 1, target=1, slot=1, card=c("4c"), until_ms=5000), timer_event("look-5000", 5000),
           event("turn", 0, no=1, final=False), timer_event("turn-1", 60_000)]
    s = fold_all(RULES, log)
    assert [lk["card"] for lk in RULES.view(s, 1)["looks"]] == [c("4c")]
    s, ev = act(s, 1, {"kind": "snap", "slots": [1]}, now=100)  # seat 1 throws the 4c it is looking at
    assert s["slots"][1][1] is None
    assert RULES.view(s, 1)["looks"] == []  # no face-up card on an empty slot


def test_a_blind_swap_ends_the_look_at_a_card_it_moves() -> None:
    s = table(G2, discard="2c", draw=["Jh"])
    assert RULES.view(s, 0)["looks"] == []  # `table` deals without peeks
    s = RULES.fold(s, event("peeked", 0, target=0, slot=2, card=c("4h"), until_ms=5000))
    s, _ = act(s, 0, {"kind": "draw"}, now=10)
    s, _ = act(s, 0, {"kind": "use", "slot": 2, "target": 1, "target_slot": 0}, now=20)
    assert s["slots"][0][2] == cid("Jc")
    assert RULES.view(s, 0)["looks"] == []  # the 4h went to seat 1: it is not shown in its old slot


def test_logs_from_before_looks_were_state_fold_without_looks() -> None:
    log = [dealt(G2, "4d"), event("peeked", 0, target=0, slot=2, card=c("4h")), event("turn", 0, no=1, final=False)]
    s = fold_all(RULES, log)
    assert RULES.view(s, 0)["looks"] == []
