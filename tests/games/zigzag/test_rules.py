"""ZIGZAG rules, one scenario per rule of shared/rules/zigzag.md and per [D] decision.

Tables are built by folding a hand-built `dealt` event (zigzag_helpers), so
every hand, starting card and draw pile position is known.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.engine import RuleError, fold_all
from games.zigzag.rules import (
    ATTITUDES,
    CHARACTERS,
    LANDSCAPES,
    RULES,
    common_features,
    deck_for,
    hand_class,
    proof,
    team_combo,
)
from tests.games.zigzag.harness import HARNESS, card_ids
from tests.games.zigzag.zigzag_helpers import (
    JOKER,
    JOKER2,
    NONE_A,
    NONE_B,
    NONE_C,
    NONE_D,
    NONE_E,
    NONE_F,
    STOP_A,
    STOP_C,
    STOP_L,
    STOP_L2,
    Z1,
    ZAG_PINK_WATER,
    ZIG_PINK,
    ZIG_SUITCASE,
    act,
    ch,
    deal_events,
    hand_of,
    kinds,
    open_all,
    own_class,
    table,
)
from tests.support.simulate import iter_cards, play_random

ZIG_TREE = hand_of("blue tree cocktail", "green tree running", "yellow tree sunglasses", "pink tree running")
ZAG_GREEN_CLOUD = [ch("green", "cloud", a) for a in ATTITUDES]


def rules_error(state: Any, seat: int | None, action: Any, code: str) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as info:
        RULES.decide(state, seat, action, 1000, random.Random(1))
    assert info.value.code == code, info.value
    assert state == before


# --- components ------------------------------------------------------------------------


def test_deck_has_64_characters_jokers_by_seats_and_beginner_six_stops_three_z() -> None:
    assert len(deck_for(4, False)) == 64 + 2 + 6 + 3
    assert len(deck_for(6, False)) == 64 + 3 + 6 + 3
    assert len(deck_for(4, True)) == 64 + 3 + 6 + 3
    assert len(deck_for(6, True)) == 64 + 4 + 6 + 3
    state = fold_all(RULES, RULES.setup(4, {}, random.Random(3)))
    every = set(card_ids(state))
    assert len(every) == 75
    chars = {(c["landscape"], c["character"], c["attitude"]) for c in _faces(every) if c["face"] == "character"}
    assert len(chars) == 64 == len(LANDSCAPES) * len(CHARACTERS) * len(ATTITUDES)
    names = [c["face"] for c in _faces(every)]
    assert names.count("joker") == 2
    assert names.count("stop_landscape") == names.count("stop_character") == names.count("stop_attitude") == 2
    assert names.count("z") == 3


def _faces(ids: set[int]) -> list[dict[str, Any]]:
    from games.zigzag.rules import CARDS

    return [CARDS[i] for i in ids]


def test_card_in_messages_has_id_face_and_features() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    hand = RULES.view(state, 0)["hand"]
    assert hand[0] == {
        "id": ch("pink", "water", "cocktail"),
        "face": "character",
        "landscape": "pink",
        "character": "water",
        "attitude": "cocktail",
    }


# --- seats, teams, options ----------------------------------------------------------------


@pytest.mark.parametrize("seats", [1, 2, 3, 5, 7, 8])
def test_only_four_or_six_seats(seats: int) -> None:
    with pytest.raises(RuleError) as info:
        RULES.setup(seats, {}, random.Random(0))
    assert info.value.code == "bad_option"


def test_partners_sit_opposite() -> None:
    s4 = table([NONE_A, NONE_B, NONE_C, NONE_D])
    assert [RULES.view(s4, s)["partner"] for s in range(4)] == [2, 3, 0, 1]
    assert [t["seats"] for t in RULES.view(s4, None)["teams"]] == [[0, 2], [1, 3]]
    s6 = table([NONE_A, NONE_B, NONE_C, NONE_D, NONE_E, NONE_F])
    assert [RULES.view(s6, s)["partner"] for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert [RULES.view(s6, s)["team"] for s in range(6)] == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize(
    "options",
    [
        {"speed": 3},
        {"tour_seconds": "45"},
        {"tour_seconds": 2},
        {"tour_seconds": 601},
        {"beginner": 1},
        {"signals_seen": None},
        {"dealer": 4},
        {"dealer": -2},
        {"dealer": True},
    ],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as info:
        RULES.setup(4, options, random.Random(0))
    assert info.value.code == "bad_option"


def test_options_and_dealer_in_view() -> None:
    state = fold_all(RULES, RULES.setup(6, {"dealer": 2, "tour_seconds": 30}, random.Random(0)))
    v = RULES.view(state, 1)
    assert v["dealer"] == 2
    assert v["options"] == {"tour_seconds": 30, "beginner": False, "signals_seen": True, "hand_hint": False, "dealer": 2}
    default = RULES.view(fold_all(RULES, RULES.setup(4, {}, random.Random(0))), None)
    assert default["dealer"] == 3 and default["outcome"] is None and default["finished"] is False


def test_beginner_adds_a_joker() -> None:
    state = fold_all(RULES, RULES.setup(4, {"beginner": True}, random.Random(0)))
    assert len(card_ids(state)) == 76
    assert sorted(c for c in card_ids(state) if 64 <= c <= 67) == [64, 65, 66]


# --- classification --------------------------------------------------------------------------


def test_rulebook_examples_zig_on_suitcases_and_zag_on_pink_water() -> None:
    assert hand_class(ZIG_SUITCASE, 0) == "zig"  # "les 4 personnages ont une valise"
    assert hand_class(ZAG_PINK_WATER, 0) == "zag"  # "le personnage de l'eau dans un paysage rose"
    assert hand_class(ZIG_PINK, 0) == "zig"
    assert hand_class(NONE_A, 0) == "none"


def test_jokers_fit_anything() -> None:
    assert hand_class([*ZIG_PINK[:3], JOKER], 0) == "zig"
    assert hand_class([*ZAG_PINK_WATER[:2], JOKER, JOKER2], 0) == "zag"
    assert hand_class([NONE_A[0], NONE_A[1], JOKER, JOKER2], 0) == "none"
    assert common_features([JOKER, JOKER2, 66, 67], 0) == 3  # four jokers: every feature


def test_stop_before_a_player_forbids_its_feature() -> None:
    landscape, character, attitude = 1, 2, 4
    assert hand_class(ZIG_PINK, landscape) == "none"
    assert hand_class(ZAG_PINK_WATER, landscape) == "zig"
    assert hand_class(ZAG_PINK_WATER, landscape | character) == "none"
    assert hand_class(ZIG_SUITCASE, character) == "zig"
    assert hand_class(ZIG_SUITCASE, attitude) == "none"


def test_d_special_cards_in_a_hand_break_every_feature() -> None:
    assert hand_class([*ZIG_PINK[:3], STOP_L], 0) == "none"
    assert hand_class([*ZAG_PINK_WATER[:3], Z1], 0) == "none"
    assert proof([ZIG_PINK[0], Z1], 0) == [ZIG_PINK[0], Z1]


@pytest.mark.parametrize(
    ("a", "b", "combo"),
    [
        ("zig", "none", "zig"),
        ("none", "zag", "zag"),
        ("zig", "zig", "double_zig"),
        ("zag", "zig", "zigzag"),
        ("zag", "zag", "double_zag"),
        ("none", "none", None),
    ],
)
def test_team_combinations(a: str, b: str, combo: str | None) -> None:
    assert team_combo(a, b) == combo


# --- a manche: deal, tours, opening --------------------------------------------------------------


def test_setup_deals_four_each_and_starts_a_tour_with_its_timer() -> None:
    events = RULES.setup(4, {"tour_seconds": 20}, random.Random(5))
    assert kinds(events) == ["dealt", "tour_started", "timer"]
    dealt = events[0]["data"]
    assert [len(h) for h in dealt["hands"]] == [4, 4, 4, 4]
    assert len(dealt["draw"]) == 75 - 16
    assert events[1]["data"]["starting"] == dealt["draw"][:4]
    assert events[2]["data"] == {"id": "tour:1:1", "due_ms": 20_000}
    state = fold_all(RULES, events)
    assert RULES.view(state, 0)["starting"] == [True] * 4
    assert RULES.view(state, 0)["draw_count"] == 75 - 20


def test_open_discards_face_up_and_takes_the_starting_card() -> None:
    start = [NONE_E[0], NONE_E[1], NONE_E[2], NONE_E[3]]
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D], starting=start)
    events, state = act(state, 0, {"kind": "open", "card": ZIG_PINK[3]})
    assert kinds(events) == ["opened"]
    assert state["hands"][0] == [*ZIG_PINK[:3], NONE_E[0]]
    assert state["centre"] == [ZIG_PINK[3]]
    v0, v1 = RULES.view(state, 0), RULES.view(state, 1)
    assert v0["opened"] == [0] and v0["starting"] == [False, True, True, True]
    assert [c["id"] for c in v1["centre"]] == [ZIG_PINK[3]]
    # only the taker sees what it took
    assert RULES.redact(events[0], 0)["data"]["took"]["id"] == NONE_E[0]
    assert RULES.redact(events[0], 1)["data"]["took"] == {"hidden": True}
    assert RULES.redact(events[0], None)["data"]["took"] == {"hidden": True}
    assert RULES.redact(events[0], 2)["data"]["card"]["id"] == ZIG_PINK[3]


def test_open_once_per_tour_and_only_hand_cards() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    rules_error(state, 0, {"kind": "open", "card": NONE_B[0]}, "not_in_hand")
    _, state = act(state, 0, {"kind": "open", "card": ZIG_PINK[0]})
    rules_error(state, 0, {"kind": "open", "card": ZIG_PINK[1]}, "already_opened")


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "exchange", "give": ZIG_PINK[0], "take": NONE_B[0]},
        {"kind": "pass"},
        {"kind": "stop", "card": STOP_L, "target": 1, "take": NONE_B[0]},
        {"kind": "z", "card": Z1, "target": 0, "take": NONE_B[0]},
    ],
)
def test_opening_comes_first(action: dict[str, Any]) -> None:
    state = table([[*ZIG_PINK[:2], STOP_L, Z1], NONE_B, NONE_C, NONE_D])
    state = open_all(state, [1])
    rules_error(state, 0, action, "not_opened")


def test_exchange_swaps_a_hand_card_with_a_centre_card_in_one_step() -> None:
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
    centre_before = list(state["centre"])
    take = NONE_B[0]
    events, after = act(state, 0, {"kind": "exchange", "give": state["hands"][0][1], "take": take})
    # a take nobody could still beat (nobody is compensated here) is the move alone: no race to judge
    assert kinds(events) == ["exchanged"]
    give = state["hands"][0][1]
    assert take in after["hands"][0] and give not in after["hands"][0]
    assert give in after["centre"] and take not in after["centre"]
    assert len(after["hands"][0]) == 4 and len(after["centre"]) == len(centre_before)
    assert RULES.redact(events[0], 3) == events[0]  # both cards were face up


def test_exchange_race_second_taker_gets_gone_and_nothing_changes() -> None:
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
    wanted = NONE_D[0]  # seat 3 discarded it
    _, state = act(state, 1, {"kind": "exchange", "give": state["hands"][1][1], "take": wanted})
    rules_error(state, 2, {"kind": "exchange", "give": state["hands"][2][1], "take": wanted}, "gone")
    rules_error(state, 2, {"kind": "exchange", "give": NONE_B[2], "take": NONE_A[0]}, "not_in_hand")


def test_hand_never_holds_more_than_four_there_is_no_separate_take() -> None:
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
    rules_error(state, 0, {"kind": "take", "card": NONE_B[0]}, "unknown_action")
    report = play_random(HARNESS, 4, 11, max_actions=300, check=False)
    state = fold_all(RULES, report.log)
    assert all(len(h) == 4 for h in state["hands"])


def test_pass_until_everyone_passed_ends_the_tour_and_starts_the_next() -> None:
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
    centre = list(state["centre"])
    draw_before = len(state["draw"])
    for s in range(3):
        events, state = act(state, s, {"kind": "pass"})
        assert kinds(events) == ["passed"]
    assert RULES.view(state, 0)["passed"] == [0, 1, 2]
    rules_error(state, 0, {"kind": "pass"}, "already_passed")
    events, state = act(state, 3, {"kind": "pass"}, now_ms=7000)
    assert kinds(events) == ["passed", "tour_ended", "tour_started", "timer"]
    assert [c["id"] for c in events[1]["data"]["centre"]] == centre
    assert events[1]["data"]["reason"] == "passed"
    assert events[3]["data"] == {"id": "tour:1:2", "due_ms": 7000 + 45_000}
    assert state["centre"] == [] and state["discard"] == centre
    assert state["tour"] == 2 and state["passed"] == [False] * 4
    assert len(state["draw"]) == draw_before - 4
    # the old tour's timer is now stale
    assert RULES.decide(state, None, {"kind": "timer", "id": "tour:1:1"}, 50_000, random.Random(0)) == []


def test_an_exchange_cancels_the_pass() -> None:
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
    _, state = act(state, 0, {"kind": "pass"})
    _, state = act(state, 0, {"kind": "exchange", "give": state["hands"][0][0], "take": NONE_B[0]})
    assert state["passed"][0] is False
    for s in (1, 2, 3):
        events, state = act(state, s, {"kind": "pass"})
    assert kinds(events) == ["passed"]  # seat 0 has not passed again: the tour goes on


def test_tour_timer_ends_the_tour_and_unopened_starting_cards_go_to_the_discard() -> None:
    start = NONE_E
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D], starting=start, options={"tour_seconds": 10})
    state = open_all(state, [0, 1])
    rules_error(state, 1, {"kind": "timer", "id": "tour:1:1"}, "bad_action")
    events, after = act(state, None, {"kind": "timer", "id": "tour:1:1"}, now_ms=10_000)
    assert kinds(events) == ["tour_ended", "tour_started", "timer"]
    assert events[0]["data"]["unopened"] == [2, 3] and events[0]["data"]["reason"] == "timer"
    assert sorted(after["discard"]) == sorted([ZIG_PINK[0], NONE_B[0], start[2], start[3]])
    assert after["hands"][2] == NONE_C  # no opening: the hand stays
    assert events[2]["data"]["due_ms"] == 20_000
    # a hidden starting card is not in the public tour_ended event
    ids = {c["id"] for c in iter_cards(events[0])}
    assert start[2] not in ids and start[3] not in ids
    assert RULES.decide(after, None, {"kind": "timer", "id": "tour:1:1"}, 20_000, random.Random(0)) == []
    assert RULES.decide(after, None, {"kind": "timer", "id": "nope"}, 20_000, random.Random(0)) == []


def test_empty_draw_pile_is_refilled_by_reshuffling_the_discard_pile_under_it() -> None:
    hands = [ZIG_PINK, NONE_B, NONE_C, NONE_D]
    start = NONE_E
    draw = [NONE_F[0], NONE_F[1]]  # only two cards left after the starting cards
    state = open_all(table(hands, starting=start, draw=draw))
    events = []
    for s in range(4):
        events, state = act(state, s, {"kind": "pass"}, seed=9)
    assert kinds(events) == ["passed", "tour_ended", "reshuffled", "tour_started", "timer"]
    order = events[2]["data"]["order"]
    assert sorted(order) == sorted([ZIG_PINK[0], NONE_B[0], NONE_C[0], NONE_D[0]])
    # the two cards left are drawn first, then the reshuffled ones
    assert events[3]["data"]["starting"][0]["id"] == NONE_F[0]
    assert [c["id"] for c in events[3]["data"]["starting"]] == [NONE_F[0], NONE_F[1], *order[:2]]
    assert state["discard"] == []
    for seat in (None, 0, 1):
        red = RULES.redact(events[2], seat)
        assert red["data"] == {"count": 4}  # the new order is hidden from all


# --- STOP and Z -----------------------------------------------------------------------------


def test_stop_lies_before_an_opponent_forbids_its_feature_and_takes_a_centre_card() -> None:
    state = open_all(table([[NONE_A[0], STOP_L, *NONE_A[2:]], ZAG_PINK_WATER, NONE_C, NONE_D]), [0, 2, 3])
    take = NONE_C[0]
    assert own_class(state, 1) == "zag"
    _, state = act(state, 1, {"kind": "open", "card": ZAG_PINK_WATER[0]})
    _, state = act(state, 1, {"kind": "exchange", "give": state["hands"][1][0], "take": ZAG_PINK_WATER[0]})
    assert own_class(state, 1) == "zag"
    events, state = act(state, 0, {"kind": "stop", "card": STOP_L, "target": 1, "take": take})
    assert kinds(events) == ["stopped"]
    assert state["stops"][1] == [STOP_L]
    assert take in state["hands"][0] and len(state["hands"][0]) == 4
    assert take not in state["centre"]
    assert own_class(state, 1) == "zig"  # landscape forbidden: only water is left
    assert [c["face"] for c in RULES.view(state, 3)["stops"]["1"]] == ["stop_landscape"]


def test_stop_limits_and_targets() -> None:
    hands = [[STOP_L, STOP_C, STOP_A, NONE_A[0]], NONE_B, NONE_C, NONE_D]
    state = open_all(table(hands, starting=NONE_E), [1, 2, 3])
    _, state = act(state, 0, {"kind": "open", "card": NONE_A[0]})
    rules_error(state, 0, {"kind": "stop", "card": STOP_L, "target": 2, "take": NONE_B[0]}, "bad_target")
    rules_error(state, 0, {"kind": "stop", "card": STOP_L, "target": 0, "take": NONE_B[0]}, "bad_target")
    rules_error(state, 0, {"kind": "stop", "card": NONE_E[0], "target": 1, "take": NONE_B[0]}, "not_a_stop")
    rules_error(state, 0, {"kind": "stop", "card": STOP_L, "target": 1, "take": NONE_A[1]}, "gone")
    _, state = act(state, 0, {"kind": "stop", "card": STOP_L, "target": 1, "take": NONE_B[0]})
    _, state = act(state, 0, {"kind": "stop", "card": STOP_C, "target": 1, "take": NONE_C[0]})
    rules_error(state, 0, {"kind": "stop", "card": STOP_A, "target": 1, "take": NONE_D[0]}, "stop_limit")
    _, state = act(state, 0, {"kind": "stop", "card": STOP_A, "target": 3, "take": NONE_D[0]})
    assert state["centre"] == [NONE_A[0]]
    assert [len(x) for x in state["stops"]] == [0, 2, 0, 1]


def test_special_card_needs_a_centre_card() -> None:
    hands = [[STOP_L, STOP_C, Z1, NONE_A[0]], NONE_B, NONE_C, NONE_D]
    state = open_all(table(hands, starting=NONE_E), [0])
    assert state["centre"] == [STOP_L]
    _, state = act(state, 0, {"kind": "stop", "card": STOP_C, "target": 1, "take": STOP_L})
    assert state["centre"] == []
    rules_error(state, 0, {"kind": "stop", "card": STOP_L, "target": 3, "take": STOP_L}, "empty_centre")
    rules_error(state, 0, {"kind": "z", "card": Z1, "target": 0, "take": STOP_L}, "empty_centre")


def test_z_removes_every_stop_before_yourself_or_your_partner_to_the_discard() -> None:
    hands = [[STOP_L, STOP_C, NONE_A[2], NONE_A[3]], [NONE_B[0], Z1, *NONE_B[2:]], NONE_C, ZAG_PINK_WATER]
    state = open_all(table(hands, starting=NONE_E), [0, 1, 2])
    _, state = act(state, 0, {"kind": "stop", "card": STOP_C, "target": 3, "take": NONE_B[0]})
    _, state = act(state, 0, {"kind": "exchange", "give": NONE_A[2], "take": STOP_L})
    _, state = act(state, 0, {"kind": "stop", "card": STOP_L, "target": 3, "take": NONE_C[0]})
    assert state["stops"][3] == [STOP_C, STOP_L]
    assert own_class(state, 3) == "none"  # pink and water both forbidden
    rules_error(state, 1, {"kind": "z", "card": Z1, "target": 0, "take": NONE_A[2]}, "bad_target")
    rules_error(state, 1, {"kind": "z", "card": NONE_B[2], "target": 3, "take": NONE_A[2]}, "not_a_z")
    discard_before = list(state["discard"])
    events, state = act(state, 1, {"kind": "z", "card": Z1, "target": 3, "take": NONE_A[2]})
    assert kinds(events) == ["z_played"]
    assert sorted(c["id"] for c in events[-1]["data"]["removed"]) == [STOP_L, STOP_C]
    assert state["stops"][3] == []
    assert sorted(state["discard"]) == sorted([*discard_before, Z1, STOP_L, STOP_C])
    assert own_class(state, 3) == "zag"
    assert NONE_A[2] in state["hands"][1] and state["centre"] == []


def test_d_z_on_a_player_without_stops_is_simply_spent() -> None:
    state = open_all(table([[Z1, *NONE_A[1:]], NONE_B, NONE_C, NONE_D]), [1, 2, 3])
    _, state = act(state, 0, {"kind": "open", "card": NONE_A[1]})
    events, state = act(state, 0, {"kind": "z", "card": Z1, "target": 2, "take": NONE_B[0]})
    assert events[-1]["data"]["removed"] == []
    assert Z1 in state["discard"]


def test_d_stops_stay_when_hands_are_replaced() -> None:
    hands = [[STOP_L, *NONE_A[1:]], ZIG_PINK, NONE_C, NONE_D]
    state = open_all(table(hands), [1, 2, 3])
    _, state = act(state, 0, {"kind": "open", "card": NONE_A[1]})
    _, state = act(state, 0, {"kind": "stop", "card": STOP_L, "target": 1, "take": ZIG_PINK[0]})
    _, state = act(state, 1, {"kind": "announce", "combo": "zig"})  # false: the holder announces
    assert state["stops"][1] == [STOP_L]


# --- signs ----------------------------------------------------------------------------------------


def test_sign_content_reaches_the_partner_only_others_see_that_one_was_made() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    events, state = act(state, 0, {"kind": "signal", "sign": "zig"})
    e = events[0]
    assert RULES.redact(e, 0)["data"]["sign"] == "zig"
    assert RULES.redact(e, 2)["data"]["sign"] == "zig"
    for seat in (1, 3, None):
        red = RULES.redact(e, seat)
        assert red is not None and "sign" not in red["data"] and "zig" not in json.dumps(red)
    assert RULES.view(state, 2)["signals"]["0"]["sign"] == "zig"
    assert RULES.view(state, 1)["signals"]["0"] == {"at": state["clock"], "count": 1}
    assert "sign" not in RULES.view(state, None)["signals"]["0"]


def test_d_option_signals_seen_false_refuses_a_sign_of_its_own() -> None:
    """A sign that is an event of its own reaches every socket (PROTOCOL.md): with the option off there is none."""
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D], options={"signals_seen": False})
    rules_error(state, 1, {"kind": "signal", "sign": "zag"}, "signs_ride")
    rules_error(state, 1, {"kind": "signal", "sign": "zog"}, "bad_action")


SIGN_MOVES = ("open", "exchange", "stop", "z", "pass")


def _move(state: Any, seat: int, kind: str) -> dict[str, Any]:
    """A legal move of `kind` for `seat` (seat 0 holds a STOP and a Z; everyone but `seat` opened)."""
    hand, centre = state["hands"][seat], state["centre"]
    if kind == "open":
        return {"kind": "open", "card": hand[0]}
    if kind == "exchange":
        return {"kind": "exchange", "give": hand[0], "take": centre[0]}
    if kind == "stop":
        return {"kind": "stop", "card": STOP_L, "target": 1, "take": centre[0]}
    if kind == "z":
        return {"kind": "z", "card": Z1, "target": 2, "take": centre[0]}
    return {"kind": "pass"}


@pytest.mark.parametrize("seen", [False, True])
@pytest.mark.parametrize("kind", SIGN_MOVES)
def test_d_a_sign_rides_on_a_move_and_only_the_team_can_tell(kind: str, seen: bool) -> None:
    hand = [NONE_A[0], STOP_L, Z1, NONE_A[3]]
    state = table([hand, NONE_B, NONE_C, NONE_D], options={"signals_seen": seen})
    state = open_all(state, [1, 2, 3] if kind == "open" else None)
    action = _move(state, 0, kind)
    plain, without = act(state, 0, action)
    signed, after = act(state, 0, {**action, "sign": "zag"})
    carrier = signed[-1] if kind in RULES.races else signed[0]  # a take's sign rides on the move its race gives
    assert kinds(signed) == kinds(plain) and carrier["data"]["signal"] == {"sign": "zag", "partner": 2, "public": seen}
    # the move happened exactly as without the sign; the sign describes the hand it left
    assert {k: v for k, v in after.items() if k != "signals"} == {k: v for k, v in without.items() if k != "signals"}
    assert after["signals"][0] == {"sign": "zag", "at": after["clock"], "count": 1}
    assert after["changed_at"][0] in (after["clock"], without["changed_at"][0])
    for seat in (0, 2):
        assert RULES.redact(carrier, seat)["data"]["signal"]["sign"] == "zag"
        assert RULES.view(after, seat)["signals"]["0"]["sign"] == "zag"
    for seat in (1, 3, None):
        red = [RULES.redact(e, seat) for e in signed]
        if seen:  # that a sign was made, not which
            assert RULES.redact(carrier, seat)["data"]["signal"] == {"partner": 2, "public": True}
            assert RULES.view(after, seat)["signals"]["0"] == {"at": after["clock"], "count": 1}
        else:  # not even that: the same bytes as the unsigned move, the same view
            assert json.dumps(red) == json.dumps([RULES.redact(e, seat) for e in plain])
            assert json.dumps(RULES.view(after, seat)) == json.dumps(RULES.view(without, seat))
        assert "zag" not in json.dumps(red)


def test_d_a_riding_sign_is_as_new_as_the_hand_its_move_made() -> None:
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D], options={"signals_seen": False}))
    _, state = act(state, 0, {"kind": "exchange", "give": state["hands"][0][0], "take": state["centre"][0], "sign": "zig"})
    v = RULES.view(state, 2)
    assert v["signals"]["0"]["at"] == v["changed_at"][0]  # not older than the hand: it describes it
    _, state = act(state, 0, {"kind": "exchange", "give": state["hands"][0][0], "take": state["centre"][1]})
    v = RULES.view(state, 2)
    assert v["signals"]["0"]["at"] < v["changed_at"][0]  # the hand changed since


def test_d_a_sign_on_the_pass_that_ends_the_tour_goes_with_the_pass() -> None:
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D], options={"signals_seen": False}))
    for s in (1, 2, 3):
        _, state = act(state, s, {"kind": "pass"})
    events, state = act(state, 0, {"kind": "pass", "sign": "zig"})
    assert kinds(events)[:2] == ["passed", "tour_ended"] and "signal" in events[0]["data"]
    assert all("signal" not in e["data"] for e in events[1:])
    assert state["signals"][0]["sign"] == "zig" and state["tour"] == 2


def test_d_a_sign_rides_only_on_hand_moves_and_is_zig_or_zag() -> None:
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D], options={"signals_seen": False}))
    rules_error(state, 0, {"kind": "pass", "sign": "zog"}, "bad_action")
    rules_error(state, 0, {"kind": "pass", "sign": ["zig"]}, "bad_action")
    rules_error(state, 2, {"kind": "announce", "combo": "zig", "sign": "zig"}, "bad_action")
    rules_error(state, 1, {"kind": "counter", "team": 0, "sign": "zag"}, "bad_action")
    rules_error(state, 0, {"kind": "exchange", "give": state["hands"][0][0], "take": 999, "sign": "zig"}, "bad_action")


def test_d_the_end_of_the_match_shows_every_sign() -> None:
    state = open_all(
        table([ZIG_PINK, NONE_B, NONE_C, NONE_D], options={"signals_seen": False}, scored={0: ["zag", "double_zig", "zigzag"]})
    )
    _, state = act(state, 0, {"kind": "pass", "sign": "zig"})
    _, state = act(state, 1, {"kind": "pass", "sign": "zag"})
    _, over = act(state, 2, {"kind": "announce", "combo": "zig"})
    assert over["finished"]
    for seat in (None, 0, 1, 2, 3):  # every view of the finished table shows every sign
        assert {k: v["sign"] for k, v in RULES.view(over, seat)["signals"].items()} == {"0": "zig", "1": "zag"}


def test_sign_is_any_time_but_only_zig_or_zag() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])  # before opening
    events, _ = act(state, 3, {"kind": "signal", "sign": "zag"})
    assert kinds(events) == ["signalled"]
    rules_error(state, 3, {"kind": "signal", "sign": "zog"}, "bad_action")
    rules_error(state, 3, {"kind": "signal"}, "bad_action")


def test_view_tells_when_a_sign_is_older_than_the_hand() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    _, state = act(state, 0, {"kind": "signal", "sign": "zig"})
    v = RULES.view(state, 2)
    assert v["signals"]["0"]["at"] > v["changed_at"][0]
    state = open_all(state, [0])
    v = RULES.view(state, 2)
    assert v["signals"]["0"]["at"] < v["changed_at"][0]


# --- announcements --------------------------------------------------------------------------------


def test_correct_zig_announced_by_the_partner_scores_and_deals_a_new_manche() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    events, after = act(state, 2, {"kind": "announce", "combo": "zig"}, now_ms=5000)
    assert kinds(events) == ["announced", "manche_ended", "dealt", "tour_started", "timer"]
    a = events[0]["data"]
    assert a["correct"] is True and a["team"] == 0 and a["scores"] == "zig"
    # both hands revealed to everyone
    for seat in (None, 1, 3):
        shown = {c["id"] for c in iter_cards(RULES.redact(events[0], seat))}
        assert shown == set(ZIG_PINK) | set(NONE_C)
    assert after["scored"] == [["zig"], []]
    assert after["manche"] == 2 and after["tour"] == 1
    assert events[4]["data"] == {"id": "tour:2:1", "due_ms": 5000 + 45_000}
    assert sorted(card_ids(after)) == sorted(deck_for(4, False))
    assert RULES.view(after, 0)["teams"][0]["scored"] == ["zig"]


def test_zig_announced_by_its_holder_is_false() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    events, _ = act(state, 0, {"kind": "announce", "combo": "zig"})
    assert events[0]["data"]["correct"] is False and events[0]["data"]["reason"] == "wrong"
    assert "hands" not in events[0]["data"]


def test_rulebook_example_partner_holding_a_zig_too_makes_zig_false() -> None:
    # "si le partenaire annonce ZIG, il faudra qu'il s'assure de ne pas avoir lui aussi de ZIG"
    state = table([ZIG_PINK, NONE_B, ZIG_TREE, NONE_D])
    events, _ = act(state, 2, {"kind": "announce", "combo": "zig"})
    assert events[0]["data"]["correct"] is False
    events, _ = act(state, 2, {"kind": "announce", "combo": "double_zig"})
    assert events[0]["data"]["correct"] is True


def test_wrong_combination_is_false() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    for combo in ("zag", "double_zig", "zigzag", "double_zag"):
        events, _ = act(state, 2, {"kind": "announce", "combo": combo})
        assert events[0]["data"]["correct"] is False, combo
    events, _ = act(state, 1, {"kind": "announce", "combo": "zig"})  # team 1 holds nothing
    assert events[0]["data"]["correct"] is False and events[0]["data"]["team"] == 1


def test_false_announcement_replaces_both_hands_from_the_draw_pile_and_play_goes_on() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D], starting=NONE_E)
    top8 = state["draw"][:8]
    events, after = act(state, 0, {"kind": "announce", "combo": "zig"})
    assert kinds(events) == ["announced", "hands_replaced"]
    assert after["hands"][0] == top8[:4] and after["hands"][2] == top8[4:]
    assert after["hands"][1] == NONE_B and after["hands"][3] == NONE_D
    assert sorted(after["discard"]) == sorted(ZIG_PINK + NONE_C)
    assert after["manche"] == 1 and after["starting"] == state["starting"]
    hr = events[1]
    assert [c["id"] for c in RULES.redact(hr, 0)["data"]["hands"]["0"]] == top8[:4]
    assert RULES.redact(hr, 0)["data"]["hands"]["2"] == [{"hidden": True}] * 4  # not even the partner
    assert RULES.redact(hr, 1)["data"]["hands"]["0"] == [{"hidden": True}] * 4
    assert not list(iter_cards(RULES.redact(hr, None)))
    # the discarded hands are face down
    assert not ({c["id"] for c in iter_cards(RULES.view(after, 1))} & set(ZIG_PINK))


def test_already_scored_combination_is_false_and_says_why() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D], scored={0: ["zig"]})
    events, _ = act(state, 2, {"kind": "announce", "combo": "zig"})
    assert events[0]["data"]["correct"] is False and events[0]["data"]["reason"] == "already_scored"


def test_double_zig_and_zigzag_may_be_announced_by_either_partner() -> None:
    state = table([ZIG_PINK, NONE_B, ZAG_GREEN_CLOUD, NONE_D])
    for seat in (0, 2):
        events, after = act(state, seat, {"kind": "announce", "combo": "zigzag"})
        assert events[0]["data"]["correct"] is True
        assert after["scored"][0] == ["zigzag"]
    state = table([ZIG_PINK, NONE_B, ZIG_TREE, NONE_D])
    events, _ = act(state, 0, {"kind": "announce", "combo": "double_zig"})
    assert events[0]["data"]["correct"] is True


def test_zag_by_the_partner() -> None:
    state = table([NONE_A, NONE_B, NONE_C, ZAG_PINK_WATER])
    events, after = act(state, 1, {"kind": "announce", "combo": "zag"})
    assert events[0]["data"]["correct"] is True and after["scored"] == [[], ["zag"]]
    events, _ = act(state, 3, {"kind": "announce", "combo": "zag"})
    assert events[0]["data"]["correct"] is False


def test_double_zag_fills_a_chosen_missing_combination() -> None:
    state = table([ZAG_PINK_WATER, NONE_B, ZAG_GREEN_CLOUD, NONE_D], scored={0: ["zig"]})
    events, after = act(state, 0, {"kind": "announce", "combo": "double_zag", "fills": "zigzag"})
    assert events[0]["data"]["correct"] is True and events[0]["data"]["scores"] == "zigzag"
    assert after["scored"][0] == ["zig", "zigzag"] and after["bonus"][0] == ["zigzag"]
    assert RULES.view(after, 1)["teams"][0]["bonus"] == ["zigzag"]


def test_double_zag_without_fills_fills_the_first_missing() -> None:
    state = table([ZAG_PINK_WATER, NONE_B, ZAG_GREEN_CLOUD, NONE_D], scored={0: ["zig", "double_zig"]})
    events, after = act(state, 2, {"kind": "announce", "combo": "double_zag"})
    assert events[0]["data"]["scores"] == "zag" and after["scored"][0] == ["zig", "double_zig", "zag"]


def test_d_double_zag_filling_a_scored_combination_is_false() -> None:
    state = table([ZAG_PINK_WATER, NONE_B, ZAG_GREEN_CLOUD, NONE_D], scored={0: ["zig"]})
    events, _ = act(state, 2, {"kind": "announce", "combo": "double_zag", "fills": "zig"})
    assert events[0]["data"]["correct"] is False and events[0]["data"]["reason"] == "already_scored"


def test_d_double_zag_counts_once_a_second_one_is_false_and_punished() -> None:
    state = table([ZAG_PINK_WATER, NONE_B, ZAG_GREEN_CLOUD, NONE_D], scored={0: ["zig", "zag"]}, bonus={0: ["zag"]})
    assert RULES.view(state, 1)["teams"][0]["bonus"] == ["zag"]  # public: everyone knows it is made
    for action in (
        {"kind": "announce", "combo": "double_zag"},
        {"kind": "announce", "combo": "double_zag", "fills": "zigzag"},
    ):
        events, after = act(state, 2, action)
        assert kinds(events)[:2] == ["announced", "hands_replaced"]
        assert events[0]["data"]["correct"] is False and events[0]["data"]["reason"] == "already_scored"
        assert after["scored"][0] == ["zig", "zag"] and after["manche"] == state["manche"]
        assert after["hands"][0] != ZAG_PINK_WATER and after["hands"][2] != ZAG_GREEN_CLOUD
    # the other team's Double ZAG is its own
    other = table([NONE_B, ZAG_PINK_WATER, NONE_D, ZAG_GREEN_CLOUD], scored={0: ["zig", "zag"]}, bonus={0: ["zag"]})
    events, _ = act(other, 1, {"kind": "announce", "combo": "double_zag"})
    assert events[0]["data"]["correct"] is True


def test_d_one_zig_and_three_double_zags_do_not_win() -> None:
    """The reported case: a team filled three combinations with Double ZAGs and won."""
    state = table([ZAG_PINK_WATER, NONE_B, ZAG_GREEN_CLOUD, NONE_D], scored={0: ["zig"]})
    events, state = act(state, 0, {"kind": "announce", "combo": "double_zag", "fills": "zag"})
    assert events[0]["data"]["correct"] is True and state["bonus"][0] == ["zag"]
    for fills in ("double_zig", "zigzag"):  # a later manche deals the team two ZAGs again
        state = table(
            [ZAG_PINK_WATER, NONE_B, ZAG_GREEN_CLOUD, NONE_D], scored={0: state["scored"][0]}, bonus={0: state["bonus"][0]}
        )
        events, state = act(state, 0, {"kind": "announce", "combo": "double_zag", "fills": fills})
        assert events[0]["data"]["correct"] is False
    assert state["scored"][0] == ["zig", "zag"] and not state["finished"]


def test_d_fills_only_with_double_zag() -> None:
    state = table([ZAG_PINK_WATER, NONE_B, ZAG_GREEN_CLOUD, NONE_D])
    rules_error(state, 2, {"kind": "announce", "combo": "zag", "fills": "zig"}, "bad_action")
    rules_error(state, 2, {"kind": "announce", "combo": "double_zag", "fills": "double_zag"}, "bad_action")
    rules_error(state, 2, {"kind": "announce", "combo": "zug"}, "bad_action")


def test_announcement_uses_stops_before_the_players() -> None:
    hands = [[STOP_L, *NONE_A[1:]], ZIG_PINK, NONE_C, NONE_D]
    state = open_all(table(hands), [1, 2, 3])
    _, state = act(state, 0, {"kind": "open", "card": NONE_A[1]})
    # seat 1 opened its pink card away; it takes it back
    _, state = act(state, 1, {"kind": "exchange", "give": state["hands"][1][0], "take": ZIG_PINK[0]})
    assert own_class(state, 1) == "zig"
    _, state = act(state, 0, {"kind": "stop", "card": STOP_L, "target": 1, "take": NONE_C[0]})
    events, _ = act(state, 3, {"kind": "announce", "combo": "zig"})
    assert events[0]["data"]["correct"] is False  # pink is forbidden to seat 1 now


# --- counters ----------------------------------------------------------------------------------------


def test_counter_confirmed_when_a_partner_holds_a_zig_hands_replaced_nothing_shown() -> None:
    state = table([NONE_A, NONE_B, ZIG_PINK, NONE_D])
    events, after = act(state, 1, {"kind": "counter", "team": 0})
    assert kinds(events) == ["countered", "hands_replaced"]
    d = events[0]["data"]
    assert d == {"team": 0, "by": 1, "confirmed": True}
    assert after["failed"] == [0, 0]
    assert ZIG_PINK[0] in after["discard"] and after["hands"][2] != ZIG_PINK
    assert not list(iter_cards(RULES.redact(events[0], 3)))


def test_counter_failed_shows_the_smallest_proof_and_counts_for_the_team() -> None:
    # seat 0: a pair without common feature; seat 2: every pair shares something, a triple proves it
    three_only = hand_of("pink water cocktail", "pink flame running", "blue water running", "blue flame cocktail")
    state = table([NONE_A, NONE_B, three_only, NONE_D])
    events, after = act(state, 3, {"kind": "counter", "team": 0})
    d = events[0]["data"]
    assert d["confirmed"] is False and d["failed"] == 1 and d["by"] == 1
    assert [c["id"] for c in d["proof"]["0"]] == [NONE_A[0], NONE_A[1]]
    assert [c["id"] for c in d["proof"]["2"]] == three_only[:3]
    assert common_features(three_only[:3], 0) == 0
    assert after["failed"] == [0, 1]
    assert RULES.view(after, 0)["teams"][1]["failed_counters"] == 1
    # the proof is shown to everyone, and only the proof
    for seat in (None, 0, 1):
        shown = {c["id"] for c in iter_cards(RULES.redact(events[0], seat))}
        assert shown == {NONE_A[0], NONE_A[1], *three_only[:3]}
    assert after["hands"] == state["hands"]


def test_proof_sizes_and_jokers() -> None:
    hand = hand_of("pink water cocktail", "pink flame running", "blue water sunglasses", "blue flame suitcase")
    assert proof(hand, 0) == [hand[0], hand[3]]
    assert proof(ZIG_PINK, 0) is None and proof(ZAG_PINK_WATER, 0) is None
    assert proof([*ZIG_PINK[:3], JOKER], 0) is None  # a joker fits: nothing to prove
    assert proof([JOKER, *NONE_A[:3]], 0) == [NONE_A[0], NONE_A[1]]
    assert proof(ZIG_PINK, 1) == ZIG_PINK[:2]  # landscape forbidden: the first pair differs otherwise


def test_three_failed_counters_per_team_then_no_more() -> None:
    state = table([NONE_A, NONE_B, NONE_C, NONE_D], failed={1: 2})
    events, state = act(state, 1, {"kind": "counter", "team": 0})
    assert events[0]["data"]["failed"] == 3
    rules_error(state, 3, {"kind": "counter", "team": 0}, "no_counters")
    # the other team still may
    events, _ = act(state, 0, {"kind": "counter", "team": 1})
    assert events[0]["data"]["confirmed"] is False


def test_confirmed_counters_do_not_count() -> None:
    state = table([NONE_A, ZIG_PINK, NONE_C, NONE_D], failed={0: 2})
    events, state = act(state, 0, {"kind": "counter", "team": 1})
    assert events[0]["data"]["confirmed"] is True and state["failed"] == [2, 0]


def test_counter_applies_stops_and_targets_another_team() -> None:
    hands = [[STOP_A, *NONE_A[1:]], ZIG_SUITCASE, NONE_C, NONE_D]
    state = open_all(table(hands), [1, 2, 3])
    _, state = act(state, 0, {"kind": "open", "card": NONE_A[1]})
    _, state = act(state, 1, {"kind": "exchange", "give": state["hands"][1][0], "take": ZIG_SUITCASE[0]})
    _, state = act(state, 0, {"kind": "stop", "card": STOP_A, "target": 1, "take": NONE_C[0]})
    events, _ = act(state, 2, {"kind": "counter", "team": 1})
    assert events[0]["data"]["confirmed"] is False  # suitcases no longer count
    rules_error(state, 2, {"kind": "counter", "team": 0}, "bad_target")
    rules_error(state, 2, {"kind": "counter", "team": 2}, "bad_action")


def test_six_seats_counter_either_other_team() -> None:
    state = table([NONE_A, NONE_B, ZIG_PINK, NONE_D, NONE_E, NONE_F])
    events, _ = act(state, 0, {"kind": "counter", "team": 2})
    assert events[0]["data"]["confirmed"] is True
    events, _ = act(state, 0, {"kind": "counter", "team": 1})
    assert events[0]["data"]["confirmed"] is False
    assert set(events[0]["data"]["proof"]) == {"1", "4"}


# --- the end ---------------------------------------------------------------------------------------------


def test_fourth_combination_ends_the_match_with_team_places() -> None:
    state = table([ZIG_PINK, NONE_B, ZIG_TREE, NONE_D], scored={0: ["zig", "zag", "zigzag"], 1: ["zag"]})
    events, after = act(state, 2, {"kind": "announce", "combo": "double_zig"})
    assert kinds(events) == ["announced", "manche_ended", "finished"]
    outcome = events[2]["data"]["outcome"]
    assert outcome == {
        "placements": [
            {"seat": 0, "place": 1, "score": 4},
            {"seat": 1, "place": 2, "score": 1},
            {"seat": 2, "place": 1, "score": 4},
            {"seat": 3, "place": 2, "score": 1},
        ],
        "winners": [0, 2],
    }
    assert RULES.outcome(after) == outcome
    v = RULES.view(after, 1)
    assert v["finished"] is True and v["outcome"] == outcome and v["phase"] == "over"
    # everything is shown at the end
    assert len(v["hands"]) == 4 and {c["id"] for c in v["hands"][2]} == set(ZIG_TREE)
    assert {c["id"] for c in iter_cards(RULES.redact(events[2], None))} >= set(after["draw"])
    for action in ({"kind": "pass"}, {"kind": "timer", "id": "tour:2:1"}, {"kind": "nonsense"}, "garbage"):
        rules_error(after, 0 if action != {"kind": "timer", "id": "tour:2:1"} else None, action, "match_over")


def test_six_seat_placements_share_places_by_combinations() -> None:
    hands = [ZIG_PINK, NONE_B, NONE_C, ZIG_TREE, NONE_E, NONE_F]
    state = table(hands, scored={0: ["zig", "zag", "zigzag"], 1: ["zag"], 2: ["zig"]})
    events, after = act(state, 0, {"kind": "announce", "combo": "double_zig"})
    places = {p["seat"]: p["place"] for p in RULES.outcome(after)["placements"]}
    assert places == {0: 1, 3: 1, 1: 2, 4: 2, 2: 2, 5: 2}
    assert RULES.outcome(after)["winners"] == [0, 3]
    assert RULES.outcome(state) is None


# --- errors, garbage and purity ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        None,
        "open",
        [],
        {},
        {"kind": None},
        {"kind": 5},
        {"kind": "open", "card": "1"},
        {"kind": "open", "card": True},
        {"kind": "open", "card": 10**40},
        {"kind": "open", "card": -1},
        {"kind": "open", "card": {"id": 1}},
        {"kind": "exchange", "give": None, "take": 3},
        {"kind": "stop", "card": STOP_L, "target": "1", "take": 0},
        {"kind": "stop", "card": STOP_L, "target": 17, "take": 0},
        {"kind": "z", "card": Z1, "target": [0], "take": 0},
        {"kind": "counter", "team": "1"},
        {"kind": "counter", "team": 1.0},
        {"kind": "announce", "combo": ["zig"]},
        {"kind": "announce", "combo": "double_zag", "fills": 3},
        {"kind": "signal", "sign": {"a": "zig"}},
    ],
)
def test_garbage_is_bad_action(action: Any) -> None:
    state = table([[STOP_L, Z1, *NONE_A[2:]], NONE_B, NONE_C, NONE_D])
    rules_error(state, 0, action, "bad_action")


def test_unknown_kind_seat_none_and_bad_seat() -> None:
    state = table([NONE_A, NONE_B, NONE_C, NONE_D])
    rules_error(state, 0, {"kind": "smack"}, "unknown_action")
    rules_error(state, None, {"kind": "pass"}, "bad_action")
    rules_error(state, 4, {"kind": "signal", "sign": "zig"}, "bad_action")
    rules_error(state, "0", {"kind": "signal", "sign": "zig"}, "bad_action")
    rules_error(state, None, {"kind": "timer", "id": 3}, "bad_action")


def test_fold_never_changes_its_input_and_state_survives_json() -> None:
    report = play_random(HARNESS, 6, 21, max_actions=600, check=False)
    state = None
    for e in report.log:
        before = copy.deepcopy(state)
        new = RULES.fold(state, e)
        assert state == before, e["kind"]
        assert json.loads(json.dumps(new)) == new
        state = new


def test_view_shows_own_hand_only_not_the_partners() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    v = RULES.view(state, 0)
    seen = {c["id"] for c in iter_cards(v)}
    assert set(ZIG_PINK) <= seen and not seen & set(NONE_C) and not seen & set(NONE_B)
    assert v["hand_counts"] == [4, 4, 4, 4] and own_class(state, 0) == "zig"
    spectator = RULES.view(state, None)
    assert spectator["hand"] == [] and not list(iter_cards(spectator))


def test_dealt_and_tour_started_redaction() -> None:
    events = deal_events([ZIG_PINK, NONE_B, NONE_C, NONE_D], starting=NONE_E)
    for seat in (None, 0, 1, 2, 3):
        red = RULES.redact(events[0], seat)
        shown = {c["id"] for c in iter_cards(red)}
        assert shown == (set() if seat is None else set(events[0]["data"]["hands"][seat][i]["id"] for i in range(4)))
        assert red["data"]["draw"] == len(events[0]["data"]["draw"])
        assert not list(iter_cards(RULES.redact(events[1], seat)))


def test_d_two_stops_of_the_same_feature_may_lie_before_one_player() -> None:
    hands = [[NONE_A[0], STOP_L, STOP_L2, NONE_A[3]], ZIG_PINK, NONE_C, NONE_D]
    state = open_all(table(hands, starting=NONE_E))
    _, state = act(state, 0, {"kind": "stop", "card": STOP_L, "target": 1, "take": NONE_C[0]})
    _, state = act(state, 0, {"kind": "stop", "card": STOP_L2, "target": 1, "take": NONE_D[0]})
    assert state["stops"][1] == [STOP_L, STOP_L2]
    assert own_class(state, 1) == "none"


def test_d_signs_are_cleared_when_hands_are_replaced_and_at_a_new_manche() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    _, state = act(state, 0, {"kind": "signal", "sign": "zig"})
    _, state = act(state, 1, {"kind": "signal", "sign": "zag"})
    _, replaced = act(state, 3, {"kind": "announce", "combo": "zag"})  # false: team 1's hands replaced
    assert RULES.view(replaced, 3)["signals"].keys() == {"0"}
    _, new = act(state, 2, {"kind": "announce", "combo": "zig"})  # correct: new manche
    assert new["manche"] == 2 and RULES.view(new, 2)["signals"] == {}


def test_d_signal_announce_and_counter_are_allowed_before_opening() -> None:
    state = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    for seat, action in (
        (1, {"kind": "counter", "team": 0}),
        (3, {"kind": "signal", "sign": "zig"}),
        (2, {"kind": "announce", "combo": "zig"}),
    ):
        events, _ = act(state, seat, action)
        assert events, action


def test_fuzzed_actions_raise_only_rule_errors_and_change_nothing() -> None:
    rng = random.Random(42)
    junk: list[Any] = [
        None,
        True,
        False,
        0,
        1,
        -1,
        3,
        75,
        76,
        2**63,
        10**100,
        1.5,
        "",
        "0",
        "zig",
        [],
        [1],
        {},
        {"id": 1},
        {"a": [None]},
    ]
    fields = ["kind", "card", "give", "take", "target", "team", "sign", "combo", "fills", "id"]
    kinds_ = ["open", "exchange", "stop", "z", "pass", "signal", "announce", "counter", "timer", "nope", None, 7]
    report = play_random(HARNESS, 4, 3, max_actions=200, check=False)
    states = [fold_all(RULES, report.log[:n]) for n in (3, len(report.log) // 2, len(report.log))]
    for state in states:
        snapshot = copy.deepcopy(state)
        for _ in range(1500):
            action: Any = {f: rng.choice(junk) for f in rng.sample(fields, rng.randrange(len(fields)))}
            if rng.random() < 0.8:
                action["kind"] = rng.choice(kinds_)
            if rng.random() < 0.05:
                action = rng.choice(junk)
            seat = rng.choice([None, 0, 1, 2, 3, 4, -1, "1", True])
            try:
                RULES.decide(state, seat, action, rng.choice([0, 10**12, -5]), random.Random(0))
            except RuleError:
                pass
        assert state == snapshot
