"""Scenario tests of the Zwicker rules, one per rule of shared/rules/zwicker.md.

Scenarios start from a hand-built `dealt` event (see `table`), so every card
is where the test says; actions then go through `decide` and `fold` exactly
as the platform runs them.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.engine import RuleError, fold_all
from games.zwicker.rules import RANKS, RULES, SUITS, VALUE_OF, compute_outcome
from tests.games.zwicker.zwicker_helpers import act, c, cid, grid, kinds, moves, refused, table
from tests.support.simulate import visible_ids

G2 = [["5h", "9s", "Ah", "3d"], ["Jc", "4c", "8h", "Kd"]]


# --- components and setup -------------------------------------------------------


def test_card_values_red_king_zero_black_king_fifteen() -> None:
    assert [VALUE_OF[cid(s)] for s in ("Ac", "2d", "10h", "Js", "Qh", "Kc", "Ks", "Kd", "Kh")] == [1, 2, 10, 10, 10, 15, 15, 0, 0]
    assert sum(VALUE_OF) == 330


def test_setup_deals_four_each_one_discard_and_peeks_near_row() -> None:
    events = RULES.setup(3, {}, random.Random(7))
    d = events[0]
    assert d["kind"] == "dealt"
    ids = [x["id"] for row in d["data"]["slots"] for x in row] + [d["data"]["discard"]["id"]]
    ids += [x["id"] for x in d["data"]["draw"]]
    assert sorted(ids) == list(range(52))
    assert [len(row) for row in d["data"]["slots"]] == [4, 4, 4]
    peeks = [e for e in events if e["kind"] == "peeked"]
    assert sorted((e["seat"], e["data"]["slot"]) for e in peeks) == [(s, i) for s in range(3) for i in (2, 3)]
    for e in peeks:
        assert e["data"]["card"] == d["data"]["slots"][e["seat"]][e["data"]["slot"]]
        assert e["data"]["target"] == e["seat"]
    state = fold_all(RULES, events)
    assert state["turn"] == 0 and state["phase"] == "turn"
    assert state["timer"] == {"id": "turn-1", "due": 60_000}
    assert len(state["draw"]) == 52 - 12 - 1
    assert json.loads(json.dumps(state)) == state


def test_peeks_and_deal_are_secret() -> None:
    events = RULES.setup(2, {}, random.Random(3))
    d = events[0]
    for seat in (None, 0, 1):
        red = RULES.redact(d, seat)
        assert visible_ids(red) == {d["data"]["discard"]["id"]}
        assert red["data"]["draw_count"] == 52 - 9
    peek = next(e for e in events if e["kind"] == "peeked" and e["seat"] == 0)
    assert visible_ids(RULES.redact(peek, 0)) == {peek["data"]["card"]["id"]}
    assert visible_ids(RULES.redact(peek, 1)) == set()
    assert visible_ids(RULES.redact(peek, None)) == set()
    state = fold_all(RULES, events)
    top = d["data"]["discard"]["id"]
    assert visible_ids(RULES.view(state, None)) == {top}
    for seat in (0, 1):  # a seat's view lists its own looks while they last, nobody else's
        near = {x["id"] for x in d["data"]["slots"][seat][2:]}
        view = RULES.view(state, seat)
        assert visible_ids(view) == {top} | near
        assert [(lk["target"], lk["slot"], lk["until_ms"]) for lk in view["looks"]] == [(seat, 2, 5000), (seat, 3, 5000)]
    timer = next(e for e in events if e["kind"] == "timer" and e["data"]["id"].startswith("look-"))
    assert timer["data"]["due_ms"] == 5000
    state, ev = act(state, None, {"kind": "timer", "id": timer["data"]["id"]}, now=5000)
    assert kinds(ev) == ["looks_ended"]
    for seat in (None, 0, 1):  # then views never list remembered cards
        assert visible_ids(RULES.view(state, seat)) == {top} and RULES.view(state, seat)["looks"] == []


@pytest.mark.parametrize("seats", [0, 1, 7, "3", None, True])
def test_setup_refuses_bad_seat_counts(seats: Any) -> None:
    with pytest.raises(RuleError) as err:
        RULES.setup(seats, {}, random.Random(0))
    assert err.value.code == "bad_option"


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_setup_any_seat_count(seats: int) -> None:
    state = fold_all(RULES, RULES.setup(seats, {}, random.Random(seats)))
    assert len(state["slots"]) == seats and state["dealer"] == seats - 1 and state["turn"] == 0


@pytest.mark.parametrize(
    "options",
    [
        {"nope": 1},
        {"turn_seconds": "60"},
        {"turn_seconds": 2},
        {"snap_window_ms": -1},
        {"peek_ms": True},
        {"dealer": 3},
        {"dealer": -2},
        {"dealer": 6},
    ],
)
def test_bad_options_refused(options: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as err:
        RULES.setup(3, options, random.Random(0))
    assert err.value.code == "bad_option"


def test_dealer_option_moves_first_player() -> None:
    state = fold_all(RULES, RULES.setup(3, {"dealer": 1}, random.Random(0)))
    assert state["dealer"] == 1 and state["turn"] == 2
    assert RULES.view(state, None)["dealer"] == 1
    assert RULES.options["dealer"].internal


def test_options_in_view_and_timer_uses_turn_seconds() -> None:
    events = RULES.setup(2, {"turn_seconds": 30, "snap_window_ms": 0, "peek_ms": 2000}, random.Random(0))
    state = fold_all(RULES, events)
    v = RULES.view(state, 0)
    assert v["options"]["turn_seconds"] == 30 and v["options"]["peek_ms"] == 2000
    assert v["turn_due_ms"] == 30_000
    assert v["outcome"] is None and v["finished"] is False


# --- the three turn actions -------------------------------------------------------


def test_take_discard_swaps_with_top_and_ends_turn() -> None:
    s = table(G2, discard="2c")
    s, ev = act(s, 0, {"kind": "take_discard", "slot": 1}, now=500)
    assert kinds(ev) == ["took_discard", "turn", "timer"]
    assert grid(s, 0)[1] == cid("2c") and s["discard"][-1] == cid("9s")
    assert s["turn"] == 1 and s["phase"] == "turn"
    assert s["timer"] == {"id": "turn-2", "due": 60_500}
    # both cards were face up: everybody sees them
    assert visible_ids(RULES.redact(ev[0], None)) == {cid("2c"), cid("9s")}


def test_take_discard_never_gives_a_power() -> None:
    s = table(G2, discard="Jd")
    s, _ = act(s, 0, {"kind": "take_discard", "slot": 0})
    refused(s, 0, {"kind": "use", "slot": 0, "target": 1, "target_slot": 0}, "not_your_turn")


def test_draw_is_secret_then_replace() -> None:
    s = table(G2, discard="2c", draw=["6d"])
    s, ev = act(s, 0, {"kind": "draw"})
    assert kinds(ev) == ["drawn"] and s["phase"] == "drawn"
    assert visible_ids(RULES.redact(ev[0], 0)) == {cid("6d")}
    assert visible_ids(RULES.redact(ev[0], 1)) == set()
    assert visible_ids(RULES.redact(ev[0], None)) == set()
    assert RULES.view(s, 0)["drawn"] == c("6d")
    assert RULES.view(s, 1)["drawn"] is None and RULES.view(s, None)["drawn"] is None
    s, ev = act(s, 0, {"kind": "replace", "slot": 0})
    assert kinds(ev) == ["replaced", "turn", "timer"]
    assert grid(s, 0)[0] == cid("6d") and s["discard"][-1] == cid("5h")
    assert visible_ids(RULES.redact(ev[0], 1)) == {cid("5h")}  # the old card goes face up
    assert visible_ids(RULES.redact(ev[0], 0)) == {cid("5h"), cid("6d")}
    assert RULES.view(s, 0)["drawn"] is None  # views never list remembered cards


def test_draw_then_discard() -> None:
    s = table(G2, discard="2c", draw=["6d"])
    s, _ = act(s, 0, {"kind": "draw"})
    s, ev = act(s, 0, {"kind": "discard"})
    assert kinds(ev) == ["discarded", "turn", "timer"]
    assert s["discard"][-1] == cid("6d") and grid(s, 0) == [cid(x) for x in G2[0]]


def test_turn_order_wraps_clockwise() -> None:
    s = table([["2d", "3d", "4d", "5d"], ["2h", "3h", "4h", "5h"], ["2s", "3s", "4s", "5s"]], "Kc")
    seen = []
    for _ in range(4):
        seen.append(s["turn"])
        s, _ = act(s, s["turn"], {"kind": "draw"})
        s, _ = act(s, s["turn"], {"kind": "discard"})
    assert seen == [0, 1, 2, 0]


def test_turn_actions_out_of_turn_are_refused() -> None:
    s = table(G2)
    for action in (
        {"kind": "draw"},
        {"kind": "take_discard", "slot": 0},
        {"kind": "zwicker"},
        {"kind": "discard"},
        {"kind": "keep"},
    ):
        refused(s, 1, action, "not_your_turn")


def test_steps_in_the_wrong_order_are_refused() -> None:
    s = table(G2)
    refused(s, 0, {"kind": "replace", "slot": 0}, "wrong_phase")
    refused(s, 0, {"kind": "discard"}, "wrong_phase")
    refused(s, 0, {"kind": "use", "slot": 0}, "wrong_phase")
    refused(s, 0, {"kind": "swap", "slot": 0}, "wrong_phase")
    refused(s, 0, {"kind": "keep"}, "wrong_phase")
    s, _ = act(s, 0, {"kind": "draw"})
    refused(s, 0, {"kind": "draw"}, "wrong_phase")
    refused(s, 0, {"kind": "take_discard", "slot": 0}, "wrong_phase")
    refused(s, 0, {"kind": "zwicker"}, "wrong_phase")


def test_take_discard_and_replace_need_a_filled_slot() -> None:
    s = table([["5h", "9s", "Ah", "3d"], ["Jc", "4c", "8h", "Kd"]], discard="5c", draw=["6d"])
    s, _ = act(s, 0, {"kind": "snap", "slots": [0]})
    refused(s, 0, {"kind": "take_discard", "slot": 0}, "empty_slot")
    s, _ = act(s, 0, {"kind": "draw"})
    refused(s, 0, {"kind": "replace", "slot": 0}, "empty_slot")
    refused(s, 0, {"kind": "replace", "slot": 4}, "bad_action")


# --- powers -----------------------------------------------------------------------


def _drawn(card: str, grids: list[list[str]] = G2, **options: Any) -> dict[str, Any]:
    s = table(grids, discard="2c", draw=[card], **options)
    s, _ = act(s, 0, {"kind": "draw"})
    return s


@pytest.mark.parametrize("power_card", ["7h", "8c"])
def test_seven_eight_look_at_own_card(power_card: str) -> None:
    s = _drawn(power_card)
    s, ev = act(s, 0, {"kind": "use", "slot": 1})
    assert kinds(ev) == ["used", "timer", "turn", "timer"]
    used = ev[0]
    assert used["data"]["power"] == "look_own" and used["data"]["seen"] == c("9s")
    assert visible_ids(RULES.redact(used, 0)) == {cid(power_card), cid("9s")}
    assert visible_ids(RULES.redact(used, 1)) == {cid(power_card)}
    assert visible_ids(RULES.redact(used, None)) == {cid(power_card)}
    assert s["discard"][-1] == cid(power_card)
    assert visible_ids(RULES.view(s, 0)) == {cid(power_card), cid("9s")}  # the look lasts peek_ms
    assert visible_ids(RULES.view(s, 1)) == {cid(power_card)}
    assert ev[1]["data"] == {"id": "look-5000", "due_ms": 5000}
    s, ev = act(s, None, {"kind": "timer", "id": "look-5000"}, now=5003)
    assert kinds(ev) == ["looks_ended"]
    assert visible_ids(RULES.view(s, 0)) == {cid(power_card)}  # seen once, not listed again
    refused(_drawn(power_card), 0, {"kind": "use", "target": 1}, "bad_action")


@pytest.mark.parametrize("power_card", ["9h", "10d"])
def test_nine_ten_look_at_an_opponent_card(power_card: str) -> None:
    s = _drawn(power_card)
    s, ev = act(s, 0, {"kind": "use", "target": 1, "slot": 3})
    assert ev[0]["data"]["seen"] == c("Kd") and ev[0]["data"]["target"] == 1
    assert visible_ids(RULES.redact(ev[0], 0)) == {cid(power_card), cid("Kd")}
    assert visible_ids(RULES.redact(ev[0], 1)) == {cid(power_card)}  # the owner does not see it
    refused(_drawn(power_card), 0, {"kind": "use", "target": 0, "slot": 1}, "bad_action")


@pytest.mark.parametrize("power_card", ["Jh", "Qs"])
def test_jack_queen_blind_swap_shows_nobody_anything(power_card: str) -> None:
    s = _drawn(power_card)
    s, ev = act(s, 0, {"kind": "use", "slot": 0, "target": 1, "target_slot": 2})
    assert grid(s, 0)[0] == cid("8h") and grid(s, 1)[2] == cid("5h")
    for seat in (None, 0, 1):
        assert visible_ids(RULES.redact(ev[0], seat)) == {cid(power_card)}
        assert visible_ids(RULES.view(s, seat)) == {cid(power_card)}
    refused(_drawn(power_card), 0, {"kind": "use", "slot": 0, "target": 1}, "bad_action")


def test_black_king_look_then_swap() -> None:
    s = _drawn("Ks")
    s, ev = act(s, 0, {"kind": "use", "target": 1, "target_slot": 1})
    assert kinds(ev) == ["used", "timer"] and s["phase"] == "king"
    assert visible_ids(RULES.redact(ev[0], 0)) == {cid("Ks"), cid("4c")}
    assert visible_ids(RULES.redact(ev[0], 1)) == {cid("Ks")}
    assert RULES.view(s, 0)["king_look"] == {"target": 1, "target_slot": 1, "card": c("4c")}
    assert RULES.view(s, 1)["king_look"] is None and RULES.view(s, None)["king_look"] is None
    s, ev = act(s, 0, {"kind": "swap", "slot": 1})
    assert kinds(ev) == ["swapped", "turn", "timer"]
    assert grid(s, 0)[1] == cid("4c") and grid(s, 1)[1] == cid("9s")
    for seat in (None, 0, 1):
        assert visible_ids(RULES.redact(ev[0], seat)) == set()


def test_black_king_swap_is_optional() -> None:
    s = _drawn("Kc")
    s, _ = act(s, 0, {"kind": "use", "target": 1, "target_slot": 0})
    s, ev = act(s, 0, {"kind": "keep"})
    assert kinds(ev) == ["kept", "turn", "timer"]
    assert grid(s, 0) == [cid(x) for x in G2[0]] and grid(s, 1) == [cid(x) for x in G2[1]]


def test_king_swap_needs_the_looked_at_card_still_there() -> None:
    s = _drawn("Kc")
    s, _ = act(s, 0, {"kind": "use", "target": 1, "target_slot": 3})  # looks at the Kd
    s, ev = act(s, 1, {"kind": "snap", "slots": [3]})  # any King matches the Kc now on top
    assert moves(ev) == ["snapped"]
    refused(s, 0, {"kind": "swap", "slot": 0}, "empty_slot")
    s, ev = act(s, 0, {"kind": "keep"})
    assert kinds(ev)[0] == "kept"


@pytest.mark.parametrize("plain", ["As", "2d", "3s", "4d", "5c", "6d", "Kh"])
def test_cards_without_power_cannot_be_used(plain: str) -> None:
    refused(_drawn(plain), 0, {"kind": "use", "slot": 0, "target": 1, "target_slot": 0}, "no_power")


def test_powers_refuse_empty_slots() -> None:
    grids = [["5h", "9s", "Ah", "3d"], ["2d", "4c", "8h", "Kd"]]
    s = table(grids, discard="2c", draw=["9d"])
    s, _ = act(s, 1, {"kind": "snap", "slots": [0]})
    s, _ = act(s, 0, {"kind": "draw"})
    refused(s, 0, {"kind": "use", "target": 1, "slot": 0}, "empty_slot")
    refused(s, 0, {"kind": "use", "target": 1, "slot": 9}, "bad_action")


# --- snaps ------------------------------------------------------------------------


def test_snap_out_of_turn_matching_card() -> None:
    s = table(G2, discard="4d")
    s, ev = act(s, 1, {"kind": "snap", "slots": [1]}, now=300)
    assert moves(ev) == ["snapped"]
    assert grid(s, 1)[1] is None and s["discard"][-1] == cid("4c")
    assert visible_ids(RULES.redact(ev[-1], None)) == {cid("4c")}
    assert RULES.view(s, None)["seats"][1]["slots"][1] == {"slot": 1, "filled": False}
    assert s["turn"] == 0  # a snap is not a turn


def test_snap_several_cards_at_once_last_named_on_top() -> None:
    s = table([["5h", "5s", "Ah", "5c"], ["Jc", "4c", "8h", "Kd"]], discard="5d")
    s, ev = act(s, 0, {"kind": "snap", "slots": [3, 0, 1]})
    assert moves(ev) == ["snapped"]
    assert grid(s, 0) == [None, None, cid("Ah"), None]
    assert s["discard"][-3:] == [cid("5c"), cid("5h"), cid("5s")]


def test_same_rank_not_same_value() -> None:
    s = table(G2, discard="10c")
    s, ev = act(s, 1, {"kind": "snap", "slots": [0]})  # a J is worth 10 but is no 10
    assert kinds(ev) == ["snap_wrong"]
    s = table(G2, discard="Kh")
    s, ev = act(s, 1, {"kind": "snap", "slots": [3]})  # any King matches any King
    assert moves(ev) == ["snapped"]


def test_wrong_snap_shows_cards_and_costs_a_hidden_penalty_card() -> None:
    s = table(G2, discard="4d", draw=["Qh"])
    draw_before = len(s["draw"])
    s, ev = act(s, 1, {"kind": "snap", "slots": [1, 2]})  # the 4 matches, the 8 does not
    assert kinds(ev) == ["snap_wrong"]
    wrong = ev[0]
    assert wrong["data"]["cards"] == [c("4c"), c("8h")]
    assert grid(s, 1) == [cid("Jc"), cid("4c"), cid("8h"), cid("Kd"), cid("Qh")]
    assert wrong["data"]["penalty"]["slot"] == 4 and len(s["draw"]) == draw_before - 1
    for seat in (None, 0, 1):  # shown to all, the penalty to nobody
        assert visible_ids(RULES.redact(wrong, seat)) == {cid("4c"), cid("8h"), cid("4d")}
        assert RULES.redact(wrong, seat)["data"]["penalty"]["slot"] == 4
    assert RULES.view(s, 1)["seats"][1]["slots"][4] == {"slot": 4, "filled": True}
    assert s["discard"][-1] == cid("4d")


def test_penalty_slot_numbers_keep_growing() -> None:
    s = table(G2, discard="4d")
    s, _ = act(s, 1, {"kind": "snap", "slots": [0]})
    s, _ = act(s, 1, {"kind": "snap", "slots": [4]})
    assert len(grid(s, 1)) == 6


def test_slowest_snap_is_taken_back_inside_the_window() -> None:
    s = table([["4h", "9s", "Ah", "3d"], ["Jc", "4c", "8h", "Kd"], ["4s", "6c", "6h", "2s"]], discard="4d")
    s, _ = act(s, 1, {"kind": "snap", "slots": [1]}, now=1000)
    s, ev = act(s, 2, {"kind": "snap", "slots": [0]}, now=1999)
    assert moves(ev) == ["snap_taken_back"]
    assert ev[0]["data"]["cards"] == [c("4s")] and ev[0]["data"]["first"] == 1
    assert grid(s, 2)[0] == cid("4s") and len(grid(s, 2)) == 4  # no penalty
    assert visible_ids(RULES.redact(ev[0], None)) == {cid("4s")}
    s, ev = act(s, 0, {"kind": "snap", "slots": [0]}, now=2000)  # window over: it lands
    assert moves(ev) == ["snapped"]


def test_own_second_snap_is_not_taken_back() -> None:
    s = table([["4h", "4s", "Ah", "3d"], ["Jc", "4c", "8h", "Kd"]], discard="4d")
    s, _ = act(s, 0, {"kind": "snap", "slots": [0]}, now=100)
    s, ev = act(s, 0, {"kind": "snap", "slots": [1]}, now=200)
    assert moves(ev) == ["snapped"]


def test_wrong_snap_inside_the_window_is_still_wrong() -> None:
    s = table([["4h", "9s", "Ah", "3d"], ["Jc", "4c", "8h", "Kd"]], discard="4d")
    s, _ = act(s, 1, {"kind": "snap", "slots": [1]}, now=100)
    s, ev = act(s, 0, {"kind": "snap", "slots": [1]}, now=200)
    assert kinds(ev) == ["snap_wrong"] and len(grid(s, 0)) == 5


def test_window_zero_never_takes_back() -> None:
    s = table([["4h", "9s", "Ah", "3d"], ["Jc", "4c", "8h", "Kd"]], discard="4d", snap_window_ms=0)
    s, _ = act(s, 1, {"kind": "snap", "slots": [1]}, now=100)
    s, ev = act(s, 0, {"kind": "snap", "slots": [0]}, now=100)
    assert moves(ev) == ["snapped"]


def test_window_only_for_the_same_top_discard() -> None:
    s = table([["4h", "9s", "Ah", "3d"], ["Jc", "4c", "8h", "Kd"]], discard="4d", draw=["4s"])
    s, _ = act(s, 1, {"kind": "snap", "slots": [1]}, now=100)
    s, _ = act(s, 0, {"kind": "draw"}, now=150)
    s, _ = act(s, 0, {"kind": "discard"}, now=200)  # a new 4 on top
    s, ev = act(s, 0, {"kind": "snap", "slots": [0]}, now=260)
    assert moves(ev) == ["snapped"]


def test_snap_while_another_player_holds_a_drawn_card() -> None:
    s = table(G2, discard="4d", draw=["7c"])
    s, _ = act(s, 0, {"kind": "draw"})
    s, ev = act(s, 1, {"kind": "snap", "slots": [1]})
    assert moves(ev) == ["snapped"] and s["drawn"] == cid("7c") and s["phase"] == "drawn"
    s, _ = act(s, 0, {"kind": "use", "slot": 0})


def test_snap_last_cards_then_call_with_none() -> None:
    s = table([["2h", "2s", "2c", "Ad"], ["Jc", "5c", "8h", "Kd"]], discard="2d", draw=["Ah"])
    s, ev = act(s, 0, {"kind": "snap", "slots": [0, 1, 2]})
    assert moves(ev) == ["snapped"]
    s, _ = act(s, 0, {"kind": "draw"})
    s, _ = act(s, 0, {"kind": "discard"})  # the Ace of hearts on top
    s, ev = act(s, 0, {"kind": "snap", "slots": [3]})
    assert moves(ev) == ["snapped"] and grid(s, 0) == [None] * 4
    assert RULES.view(s, None)["seats"][0]["count"] == 0
    s, _ = act(s, 1, {"kind": "draw"})
    s, _ = act(s, 1, {"kind": "discard"})
    s, _ = act(s, 0, {"kind": "zwicker"})
    s, _ = act(s, 1, {"kind": "draw"})
    s, ev = act(s, 1, {"kind": "discard"})
    assert kinds(ev)[-2:] == ["revealed", "finished"]
    assert ev[-2]["data"]["totals"] == [0, 23]
    assert RULES.outcome(s)["winners"] == [0]


def test_snap_garbage_and_empty_slots() -> None:
    s = table(G2, discard="4d")
    s2, _ = act(s, 1, {"kind": "snap", "slots": [1]})
    refused(s2, 1, {"kind": "snap", "slots": [1]}, "empty_slot")
    for slots in ([], [1, 1], [4], [-1], ["1"], [True], None, "1", 1, [[1]], [1.0], [0, 1, 2, 3, 0], {"0": 1}):
        refused(s, 1, {"kind": "snap", "slots": slots}, "bad_action")
    refused(s, None, {"kind": "snap", "slots": [1]}, "bad_action")


# --- reshuffle --------------------------------------------------------------------


def test_empty_draw_pile_is_reshuffled_secretly() -> None:
    s = table(G2, discard="2c", draw=["6d"], fill=False)
    s, _ = act(s, 0, {"kind": "draw"})
    s, _ = act(s, 0, {"kind": "discard"})  # discard pile: 2c 6d
    s, _ = act(s, 1, {"kind": "take_discard", "slot": 0})  # 6d in, Jc up: 2c Jc
    assert s["draw"] == []
    s, ev = act(s, 0, {"kind": "draw"}, seed=5)
    assert kinds(ev) == ["reshuffled", "drawn"]
    assert ev[0]["data"]["draw"] == [c("2c")] and ev[1]["data"]["card"] == c("2c")
    assert s["discard"] == [cid("Jc")] and s["draw"] == []
    for seat in (None, 0, 1):
        red = RULES.redact(ev[0], seat)
        assert visible_ids(red) == set() and red["data"] == {"draw_count": 1}


def test_reshuffle_lists_the_new_order_top_first() -> None:
    s = table(G2, discard="2c", draw=["6d", "7d", "8d"], fill=False)
    for _ in range(3):
        s, _ = act(s, s["turn"], {"kind": "draw"})
        s, _ = act(s, s["turn"], {"kind": "discard"})
    s, ev = act(s, s["turn"], {"kind": "draw"}, seed=11)
    order = [x["id"] for x in ev[0]["data"]["draw"]]
    assert sorted(order) == sorted([cid("2c"), cid("6d"), cid("7d")])
    assert ev[1]["data"]["card"]["id"] == order[0]
    assert s["draw"] == list(reversed(order[1:]))  # internally the top is last
    assert s["discard"] == [cid("8d")]


def test_penalty_card_after_reshuffle() -> None:
    s = table(G2, discard="4d", draw=["6d"], fill=False)
    s, _ = act(s, 0, {"kind": "draw"})
    s, _ = act(s, 0, {"kind": "discard"})
    s, ev = act(s, 1, {"kind": "snap", "slots": [0]})  # Jc on 6d: wrong
    assert kinds(ev) == ["reshuffled", "snap_wrong"]
    assert grid(s, 1)[4] == cid("4d") and s["discard"] == [cid("6d")]


def test_no_card_left_anywhere() -> None:
    """[D] every card in the grids: no draw, no penalty, a timed-out turn just passes."""
    rest = [i for i in range(52) if i != cid("2c")]
    specs = [f"{RANKS[i % 13]}{SUITS[i // 13][0]}" for i in rest]
    s = table([specs[:25], specs[25:]], discard="2c", fill=False)
    refused(s, 0, {"kind": "draw"}, "empty_pile")
    wrong_slot = next(i for i, x in enumerate(grid(s, 1)) if RANKS[x % 13] != "2")
    s2, ev = act(s, 1, {"kind": "snap", "slots": [wrong_slot]})
    assert kinds(ev) == ["snap_wrong"] and ev[0]["data"]["penalty"] is None and len(grid(s2, 1)) == 26
    s3, ev = act(s, None, {"kind": "timer", "id": "turn-1"})
    assert kinds(ev) == ["turn_timeout", "turn", "timer"] and s3["turn"] == 1


# --- Zwicker, the final round and the winner --------------------------------------


def _call_round(grids: list[list[str]], caller: int = 0) -> dict[str, Any]:
    """Seat `caller` calls at once; everybody else draws and discards."""
    s = table(grids, discard="2h", draw=["6d", "6h", "6c", "7c", "7d", "7h"], dealer=(caller - 1) % len(grids))
    s, ev = act(s, caller, {"kind": "zwicker"})
    while s["outcome"] is None:
        s, _ = act(s, s["turn"], {"kind": "draw"})
        s, _ = act(s, s["turn"], {"kind": "discard"})
    return s


def test_call_gives_every_other_player_one_last_turn() -> None:
    grids = [["Ac", "2d", "Kh", "Ad"], ["Jc", "5c", "8h", "Kd"], ["3s", "9c", "Qc", "5s"]]
    s = table(grids, discard="2c", draw=["6d", "6h"])
    s, ev = act(s, 0, {"kind": "zwicker"})
    assert kinds(ev) == ["called", "turn", "timer"] and ev[1]["data"]["final"] is True
    v = RULES.view(s, None)
    assert v["final_round"] and v["caller"] == 0
    assert [x["turns_left"] for x in v["seats"]] == [0, 1, 1]
    refused(s, 1, {"kind": "zwicker"}, "already_called")
    s, _ = act(s, 1, {"kind": "draw"})
    s, ev = act(s, 1, {"kind": "discard"})
    assert s["turn"] == 2 and [x["turns_left"] for x in RULES.view(s, None)["seats"]] == [0, 0, 1]
    s, _ = act(s, 2, {"kind": "draw"})
    s, ev = act(s, 2, {"kind": "discard"})
    assert kinds(ev) == ["discarded", "revealed", "finished"]  # the caller does not play again
    assert ev[1]["data"]["totals"] == [4, 23, 27]
    out = RULES.outcome(s)
    assert out == ev[2]["data"]["outcome"]
    assert out["winners"] == [0]
    assert [(p["seat"], p["place"], p["score"]) for p in out["placements"]] == [(0, 1, 4), (1, 2, 23), (2, 3, 27)]
    v = RULES.view(s, 1)
    assert v["finished"] and v["phase"] == "over" and v["outcome"] == out
    assert v["revealed"]["totals"] == [4, 23, 27]
    assert visible_ids(v) >= {cid(x) for row in grids for x in row}  # the reveal shows everything
    assert visible_ids(RULES.redact(ev[1], None)) == {cid(x) for row in grids for x in row}


def test_call_only_at_start_of_turn() -> None:
    s = table(G2)
    s, _ = act(s, 0, {"kind": "draw"})
    refused(s, 0, {"kind": "zwicker"}, "wrong_phase")


def test_call_in_last_seat_wraps_the_final_round() -> None:
    grids = [["Ac", "2d", "Kh", "Ad"], ["Jc", "5c", "8h", "Kd"], ["3s", "9c", "Qc", "5s"]]
    s = table(grids, discard="2h", dealer=1)  # seat 2 begins
    s, _ = act(s, 2, {"kind": "zwicker"})
    order = []
    while s["outcome"] is None:
        order.append(s["turn"])
        s, _ = act(s, s["turn"], {"kind": "draw"})
        s, _ = act(s, s["turn"], {"kind": "discard"})
    assert order == [0, 1]
    out = RULES.outcome(s)
    assert out["winners"] == [0]  # 2 called with 27 points
    assert out["placements"][-1] == {"seat": 2, "place": 3, "score": 27}


def test_call_is_not_checked_and_a_high_caller_is_last() -> None:
    s = _call_round([["Kc", "Ks", "Qc", "Jd"], ["Ac", "5c", "8h", "Kd"], ["3s", "9c", "Qh", "5s"]])
    out = RULES.outcome(s)
    assert s["revealed"]["totals"] == [50, 14, 27]
    assert out["winners"] == [1]
    assert [(p["seat"], p["place"]) for p in out["placements"]] == [(1, 1), (2, 2), (0, 3)]


def test_caller_lowest_but_above_five_loses() -> None:
    s = _call_round([["2c", "2s", "Ah", "2d"], ["Jc", "5c", "8h", "Kc"], ["3s", "9c", "Qh", "5s"]])
    assert s["revealed"]["totals"] == [7, 38, 27]
    out = RULES.outcome(s)
    assert out["winners"] == [2] and out["placements"][-1] == {"seat": 0, "place": 3, "score": 7}


def test_caller_tied_for_lowest_loses() -> None:
    s = _call_round([["Ac", "Ad", "Ah", "2c"], ["As", "2d", "Kd", "2s"], ["3s", "9c", "Qh", "5s"]])
    assert s["revealed"]["totals"] == [5, 5, 27]
    out = RULES.outcome(s)
    assert out["winners"] == [1]
    assert [(p["seat"], p["place"]) for p in out["placements"]] == [(1, 1), (2, 2), (0, 3)]


def test_caller_at_most_five_but_not_lowest_loses() -> None:
    s = _call_round([["Ac", "Ad", "Ah", "2c"], ["As", "2d", "Kd", "Kh"], ["3s", "9c", "Qh", "5s"]])
    assert s["revealed"]["totals"] == [5, 3, 27]
    assert RULES.outcome(s)["winners"] == [1]
    assert RULES.outcome(s)["placements"][-1]["seat"] == 0


def test_caller_wins_at_exactly_five_strictly_lowest() -> None:
    s = _call_round([["Ac", "Ad", "Ah", "2c"], ["As", "2d", "Kd", "3s"], ["3h", "9c", "Qh", "5s"]])
    assert s["revealed"]["totals"] == [5, 6, 27]
    assert RULES.outcome(s)["winners"] == [0]


def test_equal_totals_share_places() -> None:
    out = compute_outcome([4, 10, 10, 20], 0)
    assert [(p["seat"], p["place"]) for p in out["placements"]] == [(0, 1), (1, 2), (2, 2), (3, 4)]
    out = compute_outcome([9, 10, 10, 20], 0)
    assert out["winners"] == [1, 2]
    assert [(p["seat"], p["place"]) for p in out["placements"]] == [(1, 1), (2, 1), (3, 3), (0, 4)]
    assert all("score" in p for p in out["placements"])


def test_snap_in_the_final_round_and_by_the_caller() -> None:
    s = table([["Ac", "4d", "Kh", "Ad"], ["Jc", "4c", "8h", "Kd"]], discard="4h")
    s, _ = act(s, 0, {"kind": "zwicker"})
    s, ev = act(s, 0, {"kind": "snap", "slots": [1]})  # the caller may still snap
    assert moves(ev) == ["snapped"]
    s, ev = act(s, 1, {"kind": "snap", "slots": [1]}, now=5000)
    assert moves(ev) == ["snapped"]
    s, _ = act(s, 1, {"kind": "draw"})
    s, ev = act(s, 1, {"kind": "discard"})
    assert s["revealed"]["totals"] == [2, 18]
    refused(s, 0, {"kind": "snap", "slots": [0]}, "match_over")  # not after the reveal


def test_any_action_after_the_end_is_refused() -> None:
    s = _call_round([["Ac", "Ad", "Ah", "2c"], ["As", "2d", "Kd", "3s"]])
    for seat, action in (
        (0, {"kind": "draw"}),
        (1, {"kind": "snap", "slots": [0]}),
        (None, {"kind": "timer", "id": "x"}),
        (0, "garbage"),
        (1, {"kind": "nope"}),
    ):
        refused(s, seat, action, "match_over")


# --- timers ----------------------------------------------------------------------


def test_timeout_before_drawing_draws_and_discards() -> None:
    s = table(G2, draw=["6d"], turn_seconds=30)
    assert s["timer"] == {"id": "turn-1", "due": 30_000}
    s, ev = act(s, None, {"kind": "timer", "id": "turn-1"}, now=30_000)
    assert kinds(ev) == ["turn_timeout", "drawn", "discarded", "turn", "timer"]
    assert s["discard"][-1] == cid("6d") and s["turn"] == 1
    assert ev[-1]["data"] == {"id": "turn-2", "due_ms": 60_000}


def test_timeout_holding_a_card_discards_it() -> None:
    s = table(G2, draw=["6d"])
    s, _ = act(s, 0, {"kind": "draw"})
    s, ev = act(s, None, {"kind": "timer", "id": "turn-1"}, now=60_000)
    assert kinds(ev) == ["turn_timeout", "discarded", "turn", "timer"]
    assert s["discard"][-1] == cid("6d") and s["drawn"] is None


def test_king_swap_runs_out_as_keep() -> None:
    s = _drawn("Ks")
    s, _ = act(s, 0, {"kind": "use", "target": 1, "target_slot": 0})
    s, ev = act(s, None, {"kind": "timer", "id": "turn-1"}, now=60_000)
    assert kinds(ev) == ["turn_timeout", "kept", "turn", "timer"]
    assert grid(s, 0) == [cid(x) for x in G2[0]]


def test_stale_and_unknown_timers_do_nothing() -> None:
    s = table(G2, draw=["6d"])
    s, _ = act(s, 0, {"kind": "draw"})
    s, _ = act(s, 0, {"kind": "discard"})
    for timer_id in ("turn-1", "x", ""):
        s2, ev = act(s, None, {"kind": "timer", "id": timer_id})
        assert ev == [] and s2 == s
    refused(s, None, {"kind": "timer", "id": 2}, "bad_action")
    refused(s, None, {"kind": "timer"}, "bad_action")
    refused(s, 1, {"kind": "timer", "id": "turn-2"}, "bad_action")
    refused(s, None, {"kind": "draw"}, "bad_action")


def test_timeout_in_the_final_round_counts_as_the_turn() -> None:
    s = table(G2)
    s, _ = act(s, 0, {"kind": "zwicker"})
    s, ev = act(s, None, {"kind": "timer", "id": "turn-2"}, now=70_000)
    assert kinds(ev)[-2:] == ["revealed", "finished"]


# --- views and garbage -----------------------------------------------------------


def test_views_show_only_face_up_cards() -> None:
    s = table(G2, discard="2c", draw=["9d"])
    for seat in (None, 0, 1):
        v = RULES.view(s, seat)
        assert visible_ids(v) == {cid("2c")}
        for key in ("options", "outcome", "finished", "dealer", "turn", "phase", "seats", "draw_count"):
            assert key in v
        assert json.loads(json.dumps(v)) == v
    s, _ = act(s, 0, {"kind": "draw"})
    assert visible_ids(RULES.view(s, 0)) == {cid("2c"), cid("9d")}
    assert RULES.view(s, 0)["drawn_power"] == "look_other"
    assert visible_ids(RULES.view(s, 1)) == {cid("2c")}
    assert visible_ids(RULES.view(s, None)) == {cid("2c")}
    assert RULES.view(s, None)["seat"] is None


GARBAGE: list[Any] = ["x", None, True, False, 3.5, -1, 4, 10**30, [], {}, {"a": 1}, [1], "0"]


@pytest.mark.parametrize("kind", ["take_discard", "replace", "use", "swap", "snap"])
def test_garbage_fields_are_refused_without_change(kind: str) -> None:
    states = [table(G2, draw=["Jd"])]
    s, _ = act(states[0], 0, {"kind": "draw"})
    states.append(s)
    for st in states:
        for key in ("slot", "slots", "target", "target_slot"):
            for value in GARBAGE:
                action = {"kind": kind, key: value}
                before = copy.deepcopy(st)
                try:
                    RULES.decide(st, 0, action, 0, random.Random(0))
                except RuleError:
                    pass
                else:  # the one well-formed action here: a (wrong) snap of slot 1
                    assert (kind, key, value) == ("snap", "slots", [1]), action
                assert st == before


@pytest.mark.parametrize("action", [None, "draw", [], 5, {}, {"kind": 5}, {"kind": None}, {"kind": ["draw"]}])
def test_malformed_actions(action: Any) -> None:
    refused(table(G2), 0, action, "bad_action")


def test_unknown_kind_and_bad_seats() -> None:
    s = table(G2)
    refused(s, 0, {"kind": "flip"}, "unknown_action")
    for seat in (2, -1, "0", True, 1.0):
        refused(s, seat, {"kind": "draw"}, "bad_action")


def test_fuzzed_actions_never_raise_anything_but_rule_errors() -> None:
    rng = random.Random(99)
    s = table(G2)
    keys = ["kind", "slot", "slots", "target", "target_slot", "id", "extra"]
    kinds_ = ["draw", "take_discard", "replace", "discard", "use", "swap", "keep", "zwicker", "snap", "timer", "?"]
    for _ in range(3000):
        action: dict[str, Any] = {"kind": rng.choice(kinds_)}
        for k in rng.sample(keys[1:], rng.randrange(4)):
            action[k] = rng.choice([*GARBAGE, [rng.randrange(-2, 6)], rng.randrange(-2, 6), {"x": [1]}])
        seat = rng.choice([None, 0, 1, 2, "a"])
        before = copy.deepcopy(s)
        try:
            events = RULES.decide(s, seat, action, rng.randrange(10**6), rng)
        except RuleError:
            assert s == before
            continue
        for e in events:
            s = RULES.fold(s, e)
        if s["outcome"] is not None:
            s = table(G2)


def test_the_kit_error_codes() -> None:
    """One set of codes in every game: a clock that is not a whole number, a malformed timing, a seatless move."""
    from games.engine import Timing

    s = table(G2, discard="4h")
    before = copy.deepcopy(s)
    for now in (None, "5", 1.5, True):
        with pytest.raises(RuleError) as err:
            RULES.decide(s, 1, {"kind": "snap", "slots": [1]}, now, random.Random(0))  # type: ignore[arg-type]
        assert err.value.code == "bad_action"
    for timing in (Timing(10, 10, (0,)), Timing(10, 20, (0, 0)), Timing(10, 5, (0, -1)), "soon"):
        with pytest.raises(RuleError) as err:
            RULES.decide(s, 1, {"kind": "snap", "slots": [1]}, 10, random.Random(0), timing=timing)  # type: ignore[arg-type]
        assert err.value.code == "bad_action", timing
    refused(s, None, {"kind": "zwicker"}, "bad_action")
    assert s == before
    s, ev = act(s, 1, {"kind": "snap", "slots": [1]})  # the same snap, well timed, lands
    assert moves(ev) == ["snapped"]
