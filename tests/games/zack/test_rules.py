"""Scenario tests: one per rule of shared/rules/zack.md, every option, every [D] decision.

Scenarios fold a hand-built `dealt` event so that every pile is exactly known.
Seats: 0 red, 1 blue, 2 yellow, 3 green (4 seats unless said otherwise).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

from games.engine import RuleError
from games.zack.rules import COLOURS, RULES, full_deck
from tests.games.zack.scenario import Game, make_card, refused
from tests.support.simulate import iter_cards

FILL = ["links"] * 5


# --- components and setup ---------------------------------------------------------------


def test_full_deck_is_72_cards_of_the_stated_composition() -> None:
    deck = full_deck()
    assert len(deck) == 72 and len({c["id"] for c in deck}) == 72
    faces = Counter(c["face"] for c in deck)
    assert faces == {
        "circle": 36,
        "links": 6,
        "rechts": 6,
        "links2": 4,
        "rechts2": 4,
        "nochmal": 5,
        "zurueck": 5,
        "stop_choose": 2,
        "stop_swap": 2,
        "stop_lr": 2,
    }
    assert Counter(c["colour"] for c in deck if c["face"] == "circle") == {c: 6 for c in COLOURS}


@pytest.mark.parametrize(
    ("seats", "options", "size"),
    [
        (3, {}, 48),
        (4, {}, 54),
        (6, {}, 66),
        (6, {"stop_cards": True}, 72),
        (4, {"beginner_deck": True}, 44),
        (5, {"stop_cards": True, "beginner_deck": True}, 56),
    ],
)
def test_deck_removes_absent_colours_stop_cards_and_beginner_faces(seats: int, options: dict, size: int) -> None:
    dealt = RULES.setup(seats, options, random.Random(1))[0]
    cards = [c for pile in dealt["data"]["piles"] for c in pile]
    assert len(cards) == size
    colours = {c["colour"] for c in cards if c["face"] == "circle"}
    assert colours == set(COLOURS[:seats])
    faces = {c["face"] for c in cards}
    assert ("stop_lr" in faces) == bool(options.get("stop_cards"))
    assert ("nochmal" in faces) == (not options.get("beginner_deck"))


def test_deal_one_by_one_from_the_dealers_left_and_first_player() -> None:
    for dealer, first in ((-1, 0), (0, 1), (2, 0), (1, 2)):
        dealt = RULES.setup(3, {"dealer": dealer}, random.Random(5))[0]
        assert dealt["kind"] == "dealt"
        sizes = [len(p) for p in dealt["data"]["piles"]]
        assert max(sizes) - min(sizes) <= 1 and sum(sizes) == 48
        assert dealt["data"]["first"] == first
        state = RULES.fold(None, dealt)
        assert state["turn"] == first
        assert RULES.view(state, None)["dealer"] == (2 if dealer == -1 else dealer)
    dealt = RULES.setup(5, {"dealer": 1}, random.Random(5))[0]  # 30 circles + 30 = 60 cards
    sizes = [len(p) for p in dealt["data"]["piles"]]
    assert sizes == [12] * 5


def test_uneven_deal_gives_the_extra_cards_from_the_dealers_left() -> None:
    dealt = RULES.setup(4, {"dealer": 1, "beginner_deck": True, "stop_cards": True}, random.Random(2))[0]
    # 24 circles + 20 + 6 Stop = 50 cards: seats 2 and 3 (left of the dealer) get 13.
    assert [len(p) for p in dealt["data"]["piles"]] == [12, 12, 13, 13]


@pytest.mark.parametrize(
    "options",
    [
        {"nope": 1},
        {"dealer": 4},
        {"dealer": -2},
        {"stop_cards": 1},
        {"grace_ms": "2000"},
        {"beginners": [7]},
        {"settle_ms": True},
        {"series": None},
        {"choose_seconds": 0},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(RuleError) as err:
        RULES.setup(4, options, random.Random(0))
    assert err.value.code == "bad_option"


@pytest.mark.parametrize("seats", [2, 7, "4", True, None])
def test_seat_counts_outside_3_to_6_are_refused(seats: Any) -> None:
    with pytest.raises(RuleError):
        RULES.setup(seats, {}, random.Random(0))


def test_options_schema_and_defaults() -> None:
    schema = {k: v.describe() for k, v in RULES.options.items()}
    assert set(schema) == {
        "stop_cards",
        "beginner_deck",
        "show_turn",
        "protect_beginners",
        "beginners",
        "grace_ms",
        "settle_ms",
        "stop_pause_ms",
        "choose_seconds",
        "series",
        "dealer",
    }
    assert RULES.options["beginners"].type == "seats" and RULES.options["beginners"].internal
    assert RULES.options["dealer"].internal and RULES.options["dealer"].default == -1
    opts = RULES.setup(4, {"series": True}, random.Random(0))[0]["data"]["options"]
    assert opts == {
        "stop_cards": False,
        "beginner_deck": False,
        "show_turn": False,
        "protect_beginners": True,
        "beginners": [],
        "grace_ms": 2000,
        "settle_ms": 400,
        "stop_pause_ms": 1500,
        "choose_seconds": 10,
        "series": True,
        "dealer": 3,
    }


def test_dealt_is_redacted_to_sizes_for_everyone_and_views_show_counts_only() -> None:
    events = RULES.setup(4, {}, random.Random(3))
    state = RULES.fold(None, events[0])
    for seat in (None, 0, 1, 2, 3):
        red = RULES.redact(events[0], seat)
        assert red["kind"] == "dealt" and red["data"]["piles"] == [14, 14, 13, 13]
        assert list(iter_cards(red)) == []
        view = RULES.view(state, seat)
        assert list(iter_cards(view)) == []
        assert [s["pile"] for s in view["seats"]] == [14, 14, 13, 13]
        public = {k: v for k, v in view.items() if k != "legal"}
        assert public == {k: v for k, v in RULES.view(state, None).items() if k != "legal"}  # everything in the view is public
    assert events[0]["data"]["piles"][0][0]["face"]  # the stored event is unredacted


# --- whose turn it is ------------------------------------------------------------------------


def test_circle_gives_the_turn_to_the_holder_of_that_colour() -> None:
    g = Game([["yellow", *FILL], FILL, ["green", *FILL], FILL])
    assert g.turn == 0
    g.throw(0)
    assert g.turn == 2
    g.throw(2)
    assert g.turn == 3


@pytest.mark.parametrize(("face", "nxt"), [("links", 2), ("links2", 3), ("rechts", 0), ("rechts2", 3)])
def test_links_rechts_count_from_the_thrower(face: str, nxt: int) -> None:
    g = Game([["blue"], [face, *FILL], FILL, FILL])
    g.throw(0)
    g.throw(1)
    assert g.turn == nxt


def test_links_and_rechts_wrap_around_the_table() -> None:
    g = Game([["rechts2", *FILL], FILL, FILL])
    g.throw(0)
    assert g.turn == 1  # 0 - 2 mod 3


def test_zurueck_returns_to_the_thrower_of_the_card_beneath() -> None:
    g = Game([["blue", *FILL], ["yellow"], ["zurueck", *FILL], FILL])
    g.throw(0)
    g.throw(1)
    g.throw(2)
    assert g.turn == 1  # blue threw the yellow circle beneath the zurueck


def test_zurueck_over_zurueck_goes_to_the_thrower_of_the_lower_zurueck() -> None:
    g = Game([["blue", *FILL], ["zurueck", *FILL], ["zurueck", *FILL], FILL])
    g.throw(0)
    g.throw(1)  # zurueck over red's card -> red
    assert g.turn == 0
    g.throw(2)  # yellow's zurueck (out of turn) over blue's zurueck -> blue
    assert g.turn == 1


def test_nochmal_over_rechts_is_right_of_the_nochmal_thrower_seed_example() -> None:
    g = Game([["green", *FILL], FILL, FILL, ["rechts", "nochmal", *FILL]])
    g.throw(0)  # green
    g.throw(3)  # rechts by green -> seat 2
    assert g.turn == 2
    g.throw(3, at=5000)  # nochmal thrown (out of turn) by green: repeats rechts from green -> seat 2
    assert g.turn == 2
    h = Game([["blue", *FILL], ["rechts"], ["nochmal", *FILL], FILL])
    h.throw(0)
    h.throw(1)  # rechts from blue -> red
    h.throw(2)  # yellow throws nochmal out of turn: rechts as thrown by yellow -> blue
    assert h.turn == 1


def test_nochmal_over_zurueck_is_the_thrower_of_the_card_directly_beneath_the_nochmal() -> None:
    g = Game([["blue", *FILL], ["zurueck", "nochmal", *FILL], FILL, FILL])
    g.throw(0)  # blue circle -> blue
    g.throw(1)  # zurueck by blue -> red (threw the card beneath)
    assert g.turn == 0
    g.throw(1)  # nochmal by blue (out of turn): acts as zurueck lying here -> thrower of the zurueck = blue
    assert g.turn == 1


def test_nochmal_over_a_circle_is_that_colour_and_chains_of_nochmal_repeat_further_down() -> None:
    g = Game([["links", "nochmal", *FILL], ["nochmal", *FILL], ["yellow", *FILL], FILL])
    g.throw(0)  # links -> blue
    g.throw(1)  # nochmal by blue: links from blue -> yellow
    assert g.turn == 2
    g.throw(0)  # red throws nochmal out of turn: beneath are nochmal, links -> links from red -> blue
    assert g.turn == 1
    h = Game([["green", *FILL], FILL, FILL, ["nochmal", *FILL]])
    h.throw(0)
    h.throw(3)
    assert h.turn == 3  # green circle repeated


@pytest.mark.parametrize("face", ["nochmal", "zurueck"])
def test_nochmal_or_zurueck_as_first_card_means_throw_again(face: str) -> None:
    g = Game([FILL, [face, *FILL], FILL, FILL])
    ev = g.throw(1)  # out of turn even: the thrower throws again
    assert ev["data"]["out_of_turn"] is True
    assert g.turn == 1


@pytest.mark.parametrize("face", ["nochmal", "zurueck"])
def test_only_stop_cards_beneath_means_throw_again(face: str) -> None:
    g = Game([["stop_lr", *FILL], [face, *FILL], FILL, FILL], stop_cards=True, stop_pause_ms=0)
    g.throw(0)
    assert g.turn == 0
    g.throw(1)
    assert g.turn == 1


def test_nochmal_skips_stop_and_colour_cards_d() -> None:
    g = Game([["yellow", *FILL], FILL, ["stop_swap", *FILL], ["nochmal", *FILL]], stop_cards=True, stop_pause_ms=0)
    g.throw(0)  # yellow circle -> seat 2
    g.throw(2)  # stop_swap: colours pass left; seat 2 throws again; yellow now at seat 3
    assert g.state["colours"] == ["green", "red", "blue", "yellow"]
    assert g.turn == 2
    g.act(1, {"kind": "colour"})  # a colour card error on top
    g.throw(3)  # nochmal skips colour card and stop_swap: yellow circle -> holder of yellow now, seat 3
    assert g.turn == 3


def test_zurueck_skips_stop_and_colour_cards_d() -> None:
    g = Game([["links", *FILL], ["stop_lr", "zurueck", *FILL], FILL, FILL], stop_cards=True, stop_pause_ms=0)
    g.throw(0)  # links -> blue
    g.throw(1)  # stop_lr -> blue again
    g.act(2, {"kind": "colour"})  # colour card error by yellow
    g.throw(1)  # zurueck: the nearest non-Stop ZACK! card beneath is red's links -> red
    assert g.turn == 0


def test_stop_lr_exchanges_left_and_right_while_an_odd_number_lies_in_the_box() -> None:
    g = Game([["stop_lr", "stop_lr", "links", *FILL], FILL, FILL, FILL], stop_cards=True, stop_pause_ms=0)
    g.throw(0)
    assert g.turn == 0 and g.state["lr"] is True  # the thrower throws next [D]
    assert RULES.view(g.state, None)["lr_swapped"] is True
    h = copy.deepcopy(g)
    h.state["piles"][0] = [2]  # red's third card: links
    h.throw(0)
    assert h.turn == 3  # links goes right while swapped
    g.throw(0)
    assert g.state["lr"] is False
    g.throw(0)
    assert g.turn == 1  # back to normal


def test_the_box_is_always_right_an_out_of_turn_card_counts() -> None:
    g = Game([["blue", *FILL], FILL, ["green", *FILL], FILL])
    g.throw(0)  # blue's turn now
    ev = g.throw(2)  # yellow throws instead
    assert ev["data"]["out_of_turn"] is True and ev["data"]["expected"] == 1
    assert g.turn == 3  # the green circle decides
    assert g.state["oot_counts"] == [0, 0, 1, 0]


# --- challenges ------------------------------------------------------------------------------


def test_seed_example_blue_slow_yellows_challenge_lands_first() -> None:
    g = Game([["blue", *FILL], ["yellow", *FILL], FILL, FILL])
    g.throw(0, at=100)
    ev = g.challenge(2, "blue", at=2000)
    d = ev["data"]
    assert (d["result"], d["reason"], d["taker"], d["next"], d["cards_taken"]) == ("success", "slow", 1, 2, 1)
    assert g.state["box"] == [] and g.turn == 2
    assert g.state["piles"][1][-1] == 0  # red's blue circle  # the box went under blue's pile
    late = g.throw(1, at=2300)  # blue's card arrives within settle_ms: returned
    assert late["kind"] == "returned" and late["data"]["why"] == "settling"
    assert g.state["piles"][1][-1] == 6 and g.piles()[1] == 7
    ev = g.throw(1, at=2500)  # after the window: an out-of-turn throw
    assert ev["kind"] == "thrown" and ev["data"]["out_of_turn"] is True


def test_successful_challenge_keeps_box_order_under_the_pile_d() -> None:
    g = Game([["links", "links"], ["links"], ["rechts2", *FILL], FILL])
    for s in (0, 1, 2):
        g.throw(s)
    box_ids = [e["card"]["id"] for e in g.state["box"]]
    g.challenge(3, "red")  # red's turn? rechts2 from yellow -> red: red is slow
    assert box_ids == [0, 2, 3]
    assert g.state["piles"][0] == [1, 0, 2, 3]  # red's last card, then the box bottom first


def test_wrong_turn_within_the_four_topmost_cards_succeeds() -> None:
    g = Game([["links", *FILL], ["green", "links", *FILL], ["links", *FILL], ["links", *FILL]])
    g.throw(0)  # links -> blue
    g.throw(3, at=10)  # green throws out of turn (links -> red)
    g.throw(0, at=20)  # red: links -> blue
    g.throw(1, at=30)  # blue: green circle -> green
    g.throw(3, at=40)  # green: links -> red; green's bad card is 4th from the top
    ev = g.challenge(2, "green", at=50)
    assert ev["data"]["result"] == "success" and ev["data"]["reason"] == "wrong_turn"
    assert ev["data"]["taker"] == 3 and ev["data"]["next"] == 2 and ev["data"]["cards_taken"] == 5


def test_wrong_turn_below_the_four_topmost_cards_fails() -> None:
    g = Game([["links", "links", *FILL], ["green", "links", *FILL], ["links", *FILL], ["links", *FILL]])
    g.throw(0)
    g.throw(3, at=10)  # out of turn
    g.throw(0, at=20)
    g.throw(1, at=30)
    g.throw(3, at=40)
    g.throw(0, at=50)  # now it is 5th from the top
    ev = g.challenge(2, "green", at=60)
    assert ev["data"]["result"] == "fail" and ev["data"]["reason"] == "none"
    assert ev["data"]["taker"] == 2 and ev["data"]["next"] == 3


def test_failed_challenge_challenger_takes_the_box_challenged_restarts() -> None:
    g = Game([["blue", *FILL], ["links", *FILL], FILL, FILL])
    g.throw(0)
    g.throw(1)  # yellow's turn
    ev = g.challenge(3, "blue")
    assert ev["data"]["result"] == "fail"
    assert g.piles() == [5, 5, 5, 7] and g.turn == 1 and g.state["box"] == []


def test_challenge_of_a_slow_player_with_empty_box_after_a_restart() -> None:
    g = Game([["blue", *FILL], FILL, FILL, FILL])
    g.throw(0)
    g.challenge(2, "blue", at=1000)  # yellow restarts
    ev = g.challenge(3, "yellow", at=5000)
    assert ev["data"]["result"] == "success" and ev["data"]["cards_taken"] == 0 and g.turn == 3


def test_challenge_resets_stop_lr_parity_and_returns_colour_cards() -> None:
    g = Game([["stop_lr", *FILL], FILL, FILL, FILL], stop_cards=True, stop_pause_ms=0)
    g.throw(0)
    g.act(1, {"kind": "colour"})
    assert g.box_faces() == ["stop_lr", "colour_card"]
    refused(g, 1, {"kind": "colour"}, "no_colour_card")
    ev = g.challenge(2, "blue")  # colour card error: wrong turn
    assert ev["data"]["reason"] == "wrong_turn" and ev["data"]["cards_taken"] == 1
    assert g.state["lr"] is False and g.state["box"] == []
    g.act(1, {"kind": "colour"}, at=5000)  # blue has its colour card back
    assert g.box_faces() == ["colour_card"]


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, {"kind": "challenge", "target": "red"}, "no_challenge_card"),
        (0, {"kind": "challenge", "target": "orange"}, "no_challenge_card"),
        (0, {"kind": "challenge", "target": "pink"}, "bad_action"),
        (0, {"kind": "challenge", "target": 1}, "bad_action"),
        (0, {"kind": "challenge"}, "bad_action"),
    ],
)
def test_challenge_cards_one_does_not_hold(seat: int, action: dict, code: str) -> None:
    g = Game([FILL, FILL, FILL, FILL])
    refused(g, seat, action, code)


def test_settling_returns_throws_challenges_and_colour_cards_d() -> None:
    g = Game([["blue", *FILL], FILL, FILL, []], settle_ms=400)
    g.throw(0)
    g.challenge(2, "blue", at=1000)
    ev = g.act(0, {"kind": "throw"}, at=1100)[0]
    assert ev["kind"] == "returned" and ev["data"]["why"] == "settling" and ev["data"]["card"]["face"] == "links"
    ev = g.challenge(1, "red", at=1200)
    assert ev["kind"] == "returned" and ev["data"]["challenge"] == "red"
    ev = g.act(3, {"kind": "colour"}, at=1300)[0]
    assert ev["kind"] == "returned" and ev["data"]["colour_card"] == "green"
    ev = g.throw(2, at=1399)  # the restarting player too
    assert ev["kind"] == "returned"
    assert g.throw(2, at=1400)["kind"] == "thrown"


def test_settle_ms_zero_means_no_window() -> None:
    g = Game([["blue", *FILL], FILL, FILL, FILL], settle_ms=0)
    g.throw(0)
    g.challenge(2, "blue", at=1000)
    assert g.throw(2, at=1000)["kind"] == "thrown"


# --- beginners ------------------------------------------------------------------------------


def test_beginner_cannot_be_challenged_as_slow_during_grace() -> None:
    g = Game([["blue", *FILL], FILL, FILL, FILL], beginners=[1], grace_ms=2000)
    g.throw(0, at=100)
    refused(g, 2, {"kind": "challenge", "target": "blue"}, "grace")
    g.now = 2099
    refused(g, 2, {"kind": "challenge", "target": "blue"}, "grace")
    assert g.challenge(2, "blue", at=2100)["data"]["result"] == "success"


def test_beginner_protection_off_or_not_a_beginner() -> None:
    g = Game([["blue", *FILL], FILL, FILL, FILL], beginners=[1], protect_beginners=False)
    g.throw(0, at=100)
    assert g.challenge(2, "blue", at=200)["data"]["result"] == "success"
    h = Game([["blue", *FILL], FILL, FILL, FILL], beginners=[2])
    h.throw(0, at=100)
    assert h.challenge(2, "blue", at=200)["data"]["result"] == "success"


def test_beginner_wrong_turn_challenge_is_allowed_during_grace_d() -> None:
    k = Game([["links", *FILL], ["links", "links", *FILL], ["blue", *FILL], FILL], beginners=[1])
    k.throw(0, at=0)
    k.throw(1, at=10)  # blue: links -> yellow
    k.throw(1, at=20)  # blue again, out of turn: links -> yellow
    k.throw(2, at=30)  # yellow: blue circle -> blue, a beginner: slow AND wrong turn
    ev = k.challenge(3, "blue", at=40)
    assert ev["data"]["result"] == "success" and ev["data"]["reason"] == "wrong_turn"


# --- the end ---------------------------------------------------------------------------------


def test_empty_pile_on_its_turn_throws_the_colour_card_and_wins() -> None:
    g = Game([["yellow"], ["links", "links"], ["red", *FILL], ["links"] * 5])
    g.throw(0)  # red's pile is empty now
    g.throw(2)  # red circle -> red
    events = g.act(0, {"kind": "colour"})
    assert [e["kind"] for e in events] == ["colour_thrown", "finished"]
    assert events[0]["data"]["win"] is True
    out = RULES.outcome(g.state)
    assert out == {
        "winners": [0],
        "placements": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}, {"seat": 2, "place": 3}, {"seat": 3, "place": 3}],
    }
    assert events[1]["data"]["outcome"] == out
    refused(g, 1, {"kind": "throw"}, "match_over")
    refused(g, None, {"kind": "timer", "id": "x"}, "match_over")
    refused(g, 1, "garbage", "match_over")


def test_placements_fewest_cards_first_with_shared_places() -> None:
    g = Game([["blue"], ["red", "links"], ["links"] * 3, ["links"] * 3, ["links"]])
    g.throw(0)
    g.throw(1)
    g.act(0, {"kind": "colour"})
    assert RULES.outcome(g.state)["placements"] == [
        {"seat": 0, "place": 1},
        {"seat": 1, "place": 2},
        {"seat": 4, "place": 2},
        {"seat": 2, "place": 4},
        {"seat": 3, "place": 4},
    ]


def test_colour_card_with_cards_left_or_not_on_turn_is_an_error_that_stays() -> None:
    g = Game([["blue", *FILL], [], FILL, FILL])
    ev = g.act(0, {"kind": "colour"})[0]  # red's turn but cards left
    assert ev["kind"] == "colour_thrown" and ev["data"]["win"] is False
    ev = g.act(1, {"kind": "colour"})[0]  # blue empty but not its turn
    assert ev["data"]["win"] is False and RULES.outcome(g.state) is None
    assert g.box_faces() == ["colour_card", "colour_card"] and g.turn == 0  # the turn is unchanged
    assert g.challenge(2, "red")["data"]["reason"] == "wrong_turn"


def test_empty_pile_on_its_turn_can_be_challenged_as_slow_and_cannot_throw() -> None:
    h = Game([["blue", *FILL], ["red"], FILL, FILL])
    h.throw(0)
    h.throw(1)  # red's turn; blue is empty
    refused(h, 1, {"kind": "throw"}, "no_cards")
    k = Game([["blue"], ["red", *FILL], FILL, FILL])
    k.throw(0)
    k.throw(1)  # red's turn, red's pile is empty
    ev = k.challenge(3, "red", at=3000)
    assert ev["data"]["result"] == "success" and k.piles()[0] == 2


# --- Stop cards ------------------------------------------------------------------------------


def test_stop_choose_waits_for_a_choice_throws_are_returned_and_the_chosen_throws_next() -> None:
    g = Game([["stop_choose", *FILL], FILL, FILL, FILL], stop_cards=True, stop_pause_ms=1500, choose_seconds=10)
    events = g.act(0, {"kind": "throw"}, at=1000)
    assert [e["kind"] for e in events] == ["thrown", "timer"]
    assert events[1]["data"]["due_ms"] == 11_000
    assert g.turn is None and RULES.view(g.state, None)["waiting_choice"] == 0
    assert g.throw(0, at=1100)["data"]["why"] == "waiting_choice"
    assert g.challenge(1, "red", at=1200)["data"]["why"] == "waiting_choice"
    assert g.throw(2, at=1250)["data"]["why"] == "waiting_choice"
    refused(g, 1, {"kind": "choose", "colour": "blue"}, "not_choosing")
    refused(g, 0, {"kind": "choose", "colour": "orange"}, "bad_action")
    refused(g, 0, {"kind": "choose"}, "bad_action")
    ev = g.act(0, {"kind": "choose", "colour": "yellow"}, at=1300)[0]
    assert ev["kind"] == "chosen" and ev["data"]["target_seat"] == 2 and ev["data"]["by_timer"] is False
    assert g.turn == 2
    refused(g, 0, {"kind": "choose", "colour": "red"}, "not_choosing")
    # still in the pause: others are returned, the chosen player may throw [D]
    assert g.throw(1, at=1400)["data"]["why"] == "pause"
    assert g.throw(2, at=1450)["kind"] == "thrown"
    assert g.state["paused_until"] == 0  # that throw ended the pause
    assert g.act(None, {"kind": "timer", "id": events[1]["data"]["id"]}, at=11_000) == []  # stale


def test_stop_choose_timer_chooses_the_throwers_own_colour_d() -> None:
    g = Game([FILL, ["stop_choose", *FILL], FILL, FILL], stop_cards=True)
    events = g.act(1, {"kind": "throw"}, at=500)
    tid = events[1]["data"]["id"]
    assert g.act(None, {"kind": "timer", "id": "choose-99"}) == []
    ev = g.act(None, {"kind": "timer", "id": tid}, at=10_500)[0]
    assert ev["kind"] == "chosen" and ev["data"]["by_timer"] is True and ev["data"]["colour"] == "blue"
    assert g.turn == 1


def test_stop_swap_passes_colour_and_challenge_cards_left_thrower_next() -> None:
    g = Game([["stop_swap", "blue", *FILL], FILL, FILL, FILL], stop_cards=True, stop_pause_ms=0)
    events = g.act(0, {"kind": "throw"})
    assert [e["kind"] for e in events] == ["thrown", "colours_passed"]
    assert events[1]["data"]["colours"] == ["green", "red", "blue", "yellow"]
    assert g.turn == 0
    view = RULES.view(g.state, None)
    assert view["seats"][1]["colour"] == "red" and "red" not in view["seats"][1]["challenge_colours"]
    assert "green" in view["seats"][1]["challenge_colours"]
    refused(g, 1, {"kind": "challenge", "target": "red"}, "no_challenge_card")
    g.throw(0)  # blue circle -> now held by seat 2
    assert g.turn == 2
    assert g.challenge(1, "blue", at=9000)["data"]["target_seat"] == 2


def test_stop_pause_returns_others_cards_and_challenges_d() -> None:
    g = Game([["stop_lr", "links", *FILL], FILL, FILL, FILL], stop_cards=True, stop_pause_ms=1500)
    g.throw(0, at=1000)
    assert RULES.view(g.state, None)["paused_until_ms"] == 2500
    ev = g.throw(1, at=1200)
    assert ev["kind"] == "returned" and ev["data"]["why"] == "pause"
    ev = g.challenge(2, "red", at=1300)
    assert ev["kind"] == "returned" and ev["data"]["why"] == "pause"
    ev = g.act(3, {"kind": "colour"}, at=1400)[0]
    assert ev["kind"] == "returned"
    assert g.throw(1, at=2500)["kind"] == "thrown"  # the pause is over: an out-of-turn throw
    h = Game([["stop_lr", "links", *FILL], FILL, FILL, FILL], stop_cards=True, stop_pause_ms=1500)
    h.throw(0, at=1000)
    assert h.throw(0, at=1100)["kind"] == "thrown"  # the thrower may go on during its pause


# --- garbage and the contract ----------------------------------------------------------------


GARBAGE = [
    None,
    "throw",
    3,
    [],
    {},
    {"kind": None},
    {"kind": 7},
    {"kind": ["throw"]},
    {"kind": {"a": 1}},
    {"kind": "challenge", "target": {"x": 1}},
    {"kind": "challenge", "target": 10**40},
    {"kind": "choose", "colour": None},
    {"kind": "timer"},
]


@pytest.mark.parametrize("action", GARBAGE)
def test_garbage_is_a_rule_error_never_an_exception(action: Any) -> None:
    g = Game([FILL, FILL, FILL])
    for seat in (0, 1, None):
        before = copy.deepcopy(g.state)
        with pytest.raises(RuleError):
            RULES.decide(g.state, seat, action, 0, random.Random(0))
        assert g.state == before


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, {"kind": "smack"}, "unknown_action"),
        (None, {"kind": "throw"}, "bad_action"),
        (0, {"kind": "timer", "id": "choose-1"}, "bad_action"),
        (None, {"kind": "timer", "id": 5}, "bad_action"),
        (3, {"kind": "throw"}, "bad_action"),
        (-1, {"kind": "throw"}, "bad_action"),
        (True, {"kind": "throw"}, "bad_action"),
        ("0", {"kind": "throw"}, "bad_action"),
        (0, {"kind": "choose", "colour": "red"}, "not_choosing"),
        (None, {"kind": "smack"}, "unknown_action"),  # the kit's code (was bad_action) [D kit]
    ],
)
def test_rule_error_codes(seat: Any, action: dict, code: str) -> None:
    refused(Game([FILL, FILL, FILL]), seat, action, code)


@pytest.mark.parametrize("now_ms", [None, 1.5, "100", True])
def test_a_clock_that_is_not_a_whole_number_is_refused(now_ms: Any) -> None:
    g = Game([FILL, FILL, FILL])
    for seat, action in ((0, {"kind": "throw"}), (None, {"kind": "timer", "id": "x"})):
        with pytest.raises(RuleError) as err:
            RULES.decide(g.state, seat, action, now_ms, random.Random(0))
        assert err.value.code == "bad_action"


def test_unknown_timer_is_silent() -> None:
    g = Game([FILL, FILL, FILL])
    assert g.act(None, {"kind": "timer", "id": "whatever"}) == []


def test_thrown_redaction_hides_out_of_turn_and_expected_for_everyone() -> None:
    g = Game([["blue", *FILL], FILL, FILL, FILL])
    g.throw(0)
    oot = g.throw(2)
    assert oot["data"]["out_of_turn"] is True
    for ev in g.log[1:]:
        for seat in (None, 0, 1, 2, 3):
            red = RULES.redact(ev, seat)
            assert red["kind"] == "thrown" and red["seat"] == ev["seat"]
            assert set(red["data"]) & {"out_of_turn", "expected", "next"} == set()
            assert red["data"]["card"] == ev["data"]["card"]
    for seat in (None, 0, 2):
        view = RULES.view(g.state, seat)
        assert "oot" not in json.dumps(view) and "out_of_turn" not in json.dumps(view["box"])
        assert view["out_of_turn"] is None and view["turn"] is None


def test_show_turn_option_puts_the_turn_in_the_view() -> None:
    g = Game([["yellow", *FILL], FILL, FILL], show_turn=True)
    assert RULES.view(g.state, None)["turn"] == 0
    g.throw(0)
    assert RULES.view(g.state, 1)["turn"] == 2
    assert RULES.view(Game([FILL, FILL, FILL]).state, 0)["turn"] is None


def test_finished_reveals_everything() -> None:
    g = Game([["blue"], ["red", "links"], ["green", "links2"], FILL])
    g.throw(0)
    g.throw(2, at=10)  # out of turn
    g.throw(1, at=20)
    events = g.act(0, {"kind": "colour"}, at=30)
    fin = events[-1]
    assert fin["kind"] == "finished" and RULES.redact(fin, None) == fin
    assert fin["data"]["out_of_turn"] == [0, 1, 1, 0]
    assert [e["out_of_turn"] for e in fin["data"]["box"]] == [False, True, True]
    assert fin["data"]["piles"][2] == [make_card("links2", 4)]
    view = RULES.view(g.state, None)
    assert view["finished"] is True and view["outcome"] == RULES.outcome(g.state) and view["winner"] == 0
    assert view["seats"][3]["cards"][0]["face"] == "links" and view["box"][1]["out_of_turn"] is True


def test_view_has_the_documented_fields() -> None:
    view = RULES.view(Game([FILL, FILL, FILL], stop_cards=True).state, 1)
    for key in (
        "seats",
        "box",
        "lr_swapped",
        "paused_until_ms",
        "waiting_choice",
        "dealer",
        "options",
        "finished",
        "outcome",
        "turn",
    ):
        assert key in view
    assert view["seats"][0] == {
        "seat": 0,
        "colour": "red",
        "pile": 5,
        "challenge_colours": ["blue", "yellow"],
        "colour_card_in_box": False,
    }
    assert view["finished"] is False and view["outcome"] is None


def test_state_survives_json_and_fold_of_the_log_equals_live_state() -> None:
    g = Game([["stop_swap", "blue", "nochmal", *FILL], ["stop_choose", *FILL], FILL, FILL], stop_cards=True)
    g.throw(0, at=10)
    g.throw(0, at=20)
    g.throw(2, at=30)
    g.challenge(3, "red", at=40)
    g.throw(1, at=5000)
    assert json.loads(json.dumps(g.state)) == g.state
    state = None
    for e in json.loads(json.dumps(g.log)):
        state = RULES.fold(state, e)
    assert state == g.state


def test_setup_uses_only_the_given_rng() -> None:
    a = RULES.setup(5, {"stop_cards": True}, random.Random(42))
    b = RULES.setup(5, {"stop_cards": True}, random.Random(42))
    c = RULES.setup(5, {"stop_cards": True}, random.Random(43))
    assert a == b and a != c
