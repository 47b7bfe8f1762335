"""Scenario tests for Smack It!, one per rule of shared/rules/smackit.md and per [D].

Scenarios are exact: a hand-built `dealt` event puts chosen cards in chosen
piles (top card first), so every flip is known in advance.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

from games.engine import RuleError, fold_all, resolve_options
from games.smackit.rules import DECK, RULES
from tests.games.smackit.harness import card_ids
from tests.support.simulate import iter_cards

RNG = random.Random(0)


def num(value: int) -> int:
    """Id of the number card `value`."""
    return value - 1


C = [50, 51, 52, 53]  # challenge cards
S = [54, 55, 56]  # smack cards


def dealt(piles: list[list[int]], dealer: int | None = None, **options: Any) -> dict[str, Any]:
    """A `dealt` event with exactly these piles (ids, top card first)."""
    seats = len(piles)
    opts = resolve_options(RULES.options, options, seats)
    d = seats - 1 if dealer is None else dealer
    opts["dealer"] = d
    return {
        "kind": "dealt",
        "seat": None,
        "data": {
            "seats": seats,
            "dealer": d,
            "first": (d + 1) % seats,
            "options": opts,
            "piles": [[dict(DECK[c]) for c in p] for p in piles],
        },
    }


class Play:
    """A little driver: decide, fold, keep the log."""

    def __init__(self, piles: list[list[int]], **options: Any) -> None:
        deal = dealt(piles, **options)
        opts = deal["data"]["options"]
        self.log = [deal]  # plus the timers setup asks for
        if opts["max_minutes"]:
            self.log.append({"kind": "timer", "seat": None, "data": {"id": "limit", "due_ms": opts["max_minutes"] * 60_000}})
        if opts["auto_flip_seconds"]:
            self.log.append({"kind": "timer", "seat": None, "data": {"id": "flip:0", "due_ms": opts["auto_flip_seconds"] * 1000}})
        self.state = fold_all(RULES, self.log)
        self.now = 0

    def act(self, seat: int | None, action: dict[str, Any], at: int | None = None) -> list[dict[str, Any]]:
        if at is not None:
            self.now = at
        before = copy.deepcopy(self.state)
        events = RULES.decide(self.state, seat, action, self.now, RNG)
        assert self.state == before, "decide must not mutate the state"
        for e in events:
            self.state = RULES.fold(self.state, e)
            self.log.append(e)
        return events

    def flip(self, seat: int, at: int | None = None) -> list[dict[str, Any]]:
        return self.act(seat, {"kind": "flip"}, at)

    def smack(self, seat: int, at: int | None = None) -> list[dict[str, Any]]:
        return self.act(seat, {"kind": "smack"}, at)

    def idle(self, at: int | None = None) -> list[dict[str, Any]]:
        """The system fires the live idle timer (`auto_flip_seconds`)."""
        return self.act(None, {"kind": "timer", "id": self.state["flip_timer"]}, at)

    def kinds(self, events: list[dict[str, Any]]) -> list[str]:
        return [e["kind"] for e in events if e["kind"] != "timer"]

    @property
    def view(self) -> dict[str, Any]:
        return RULES.view(self.state, None)


def only(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [e for e in events if e["kind"] == kind]
    assert len(found) == 1, events
    return found[0]


# --------------------------------------------------------------------- setup


def test_deck_has_57_cards_of_the_page() -> None:
    faces = Counter(c["face"] for c in DECK)
    assert faces == {"number": 50, "challenge": 4, "smack": 3}
    assert sorted(c["value"] for c in DECK if c["face"] == "number") == list(range(1, 51))
    assert [c["id"] for c in DECK] == list(range(57))


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_setup_deals_every_card_one_by_one_from_left_of_dealer(seats: int) -> None:
    events = RULES.setup(seats, {}, random.Random(seats))
    assert events[0]["kind"] == "dealt"
    piles = events[0]["data"]["piles"]
    assert sorted(c["id"] for p in piles for c in p) == list(range(57))
    sizes = [len(p) for p in piles]
    assert max(sizes) - min(sizes) <= 1
    # the deal starts at seat 0 (left of the default dealer, the last seat): it gets the extras
    assert sizes == sorted(sizes, reverse=True)
    state = fold_all(RULES, events)
    assert state["turn"] == 0 and state["dealer"] == seats - 1
    assert RULES.view(state, None)["dealer"] == seats - 1
    assert RULES.outcome(state) is None


def test_dealer_option_moves_first_player_and_extra_cards() -> None:
    events = RULES.setup(4, {"dealer": 1}, random.Random(1))
    state = fold_all(RULES, events)
    assert state["turn"] == 2
    assert [len(p) for p in events[0]["data"]["piles"]] == [14, 14, 15, 14]
    assert RULES.view(state, 0)["dealer"] == 1


def test_setup_timers_limit_and_idle_flip() -> None:
    events = RULES.setup(3, {}, random.Random(2))
    timers = {e["data"]["id"]: e["data"]["due_ms"] for e in events if e["kind"] == "timer"}
    assert timers == {"limit": 20 * 60_000, "flip:0": 10_000}
    events = RULES.setup(3, {"max_minutes": 0, "auto_flip_seconds": 0}, random.Random(2))
    assert [e["kind"] for e in events] == ["dealt"]


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (4, {"dealer": 4}),
        (2, {"dealer": 2}),
        (3, {"dealer": -2}),
        (3, {"colour": True}),
        (3, {"smack_grace_ms": "300"}),
        (3, {"smack_grace_ms": -1}),
        (3, {"auto_flip_seconds": True}),
        (3, {"max_minutes": 10**9}),
        (3, {"shuffle_won": 1}),
        (1, {}),
        (7, {}),
        ("4", {}),
        (True, {}),
    ],
)
def test_bad_setup_is_a_bad_option(seats: Any, options: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as err:
        RULES.setup(seats, options, random.Random(0))
    assert err.value.code == "bad_option"


def test_options_schema() -> None:
    assert RULES.options["dealer"].internal and RULES.options["dealer"].default == -1
    assert {k: o.default for k, o in RULES.options.items()} == {
        "smack_grace_ms": 300,
        "auto_flip_seconds": 10,
        "max_minutes": 20,
        "shuffle_won": False,
        "dealer": -1,
    }
    assert (RULES.min_seats, RULES.max_seats, RULES.teams, RULES.slug) == (2, 6, False, "smackit")


# ---------------------------------------------------------------------- play


def test_flip_in_turn_goes_to_centre_and_turn_passes_clockwise() -> None:
    p = Play([[num(5), num(6)], [num(7), num(8)], [num(9)]])
    ev = p.flip(0, at=100)
    f = only(ev, "flipped")
    assert f["seat"] == 0 and f["data"]["card"] == {"id": num(5), "face": "number", "value": 5}
    assert f["data"]["next"] == 1 and f["data"]["auto"] is False
    assert p.view["centre"]["top"]["value"] == 5 and p.view["centre"]["count"] == 1
    assert p.view["piles"] == [1, 2, 1] and p.view["turn"] == 1


def test_flip_out_of_turn_is_a_rule_error() -> None:
    p = Play([[num(5)], [num(7)]])
    with pytest.raises(RuleError) as err:
        p.flip(1)
    assert err.value.code == "not_your_turn"


def test_player_flipping_his_last_card_is_out_and_skipped() -> None:
    p = Play([[num(5), num(1)], [num(7)], [num(9), num(2)]])
    p.flip(0)
    ev = p.flip(1)
    assert only(ev, "flipped")["data"]["next"] == 2
    out = only(ev, "out")
    assert out["seat"] == 1 and out["data"]["for_good"] is False
    p.flip(2)
    assert p.state["turn"] == 0  # seat 1 is skipped
    ev = p.flip(0)
    assert only(ev, "flipped")["data"]["next"] == 2
    assert p.view["out"] == [1, 0]


# ----------------------------------------------------------------- challenges


def test_challenge_round_order_flipper_last_highest_number_wins() -> None:
    p = Play([[C[0], num(10), num(3)], [num(30), num(4)], [num(20), num(5)], [num(40), num(6)]])
    ev = p.flip(0, at=10)
    started = only(ev, "challenge_started")
    assert started["data"] == {"by": 0, "order": [1, 2, 3, 0]}
    assert p.view["challenge"]["active"] and p.state["turn"] == 1
    p.flip(1)
    p.flip(2)
    p.flip(3)
    assert p.view["challenge"]["flipped_by"] == [1, 2, 3]
    assert p.view["challenge"]["best"] == {"seat": 3, "card": {"id": num(40), "face": "number", "value": 40}}
    ev = p.flip(0)
    won = only(ev, "pile_won")
    assert won["seat"] == 3 and won["data"]["by"] == "challenge" and not won["data"]["removed"]
    assert won["data"]["next"] == 3
    assert not p.view["challenge"]["active"] and p.state["turn"] == 3
    # [D1] the centre turned over goes under: its bottom card comes up first
    assert p.state["piles"][3] == [num(6), C[0], num(30), num(20), num(40), num(10)]
    assert p.view["centre"]["count"] == 0


def test_challenge_round_skips_players_without_cards() -> None:
    p = Play([[num(1), C[0], num(2)], [num(3)], [num(4), num(50)], [num(5), num(6)]])
    p.flip(0)
    p.flip(1)  # seat 1 is out
    p.flip(2)
    ev = p.flip(3)
    assert only(ev, "flipped")["data"]["next"] == 0
    ev = p.flip(0)
    assert only(ev, "challenge_started")["data"]["order"] == [2, 3, 0]


def test_challenge_flipped_during_round_restarts_it_after_that_flipper() -> None:
    p = Play([[C[0], num(1), num(2)], [num(50), num(3)], [C[1], num(4)], [num(10), num(5)]])
    p.flip(0)
    p.flip(1)  # 50 would win...
    ev = p.flip(2)  # ...but a challenge restarts the round
    restarted = only(ev, "challenge_restarted")
    assert restarted["data"] == {"by": 2, "order": [3, 0, 1, 2]}
    assert p.view["challenge"]["best"] is None and p.state["turn"] == 3
    p.flip(3)  # 10
    p.flip(0)  # 1
    p.flip(1)  # 3
    ev = p.flip(2)  # 4
    assert only(ev, "pile_won")["seat"] == 3


def test_smack_during_challenge_round_wins_and_ends_round() -> None:
    p = Play([[C[0], num(1)], [S[0], num(3)], [num(20), num(4)]])
    p.flip(0, at=0)
    p.flip(1, at=500)
    ev = p.smack(2, at=900)
    assert only(ev, "smacked")["data"]["result"] == "win"
    won = only(ev, "pile_won")
    assert won["seat"] == 2 and won["data"]["by"] == "smack" and won["data"]["next"] == 2
    assert not p.view["challenge"]["active"] and p.state["turn"] == 2  # [D4]


def test_round_without_a_number_ends_without_winner() -> None:
    p = Play([[C[0], num(1)], [S[0], num(3)], [S[1], num(4)]])
    p.flip(0)
    p.flip(1)
    p.idle()  # nobody smacked: only the idle timer flips over a smack card [D14]
    ev = p.idle()  # num(1)
    won = only(ev, "pile_won")  # num(1) is a number: seat 0 wins
    assert won["seat"] == 0
    p2 = Play([[C[0], S[2], num(1)], [S[0], num(3)], [S[1], num(4)]])
    p2.flip(0)
    p2.flip(1)
    p2.idle()  # nobody smacked: only the idle timer flips over a smack card [D14]
    p2.idle()
    ev = p2.idle()  # the round's last card was a smack card, nobody smacked: no number at all [D3, D15]
    ended = only(ev, "challenge_ended")
    assert ended["data"]["next"] == 1
    assert p2.view["centre"]["count"] == 4 and not p2.view["challenge"]["active"]


def test_player_emptied_in_round_stays_in_and_wins_it() -> None:
    # [D5] seat 1 flips its last card into the round and takes the round
    p = Play([[C[0], num(1)], [num(50)], [num(20), num(4)]])
    p.flip(0)
    ev = p.flip(1)
    assert not [e for e in ev if e["kind"] == "out"]
    p.flip(2)
    ev = p.flip(0)
    assert only(ev, "pile_won")["seat"] == 1
    assert p.view["out"] == [0] and p.view["piles"][1] == 4


def test_player_emptied_in_round_goes_out_at_its_end() -> None:
    p = Play([[C[0], num(1), num(7)], [num(2)], [num(20), num(4)]])
    p.flip(0)
    p.flip(1)
    assert p.view["out"] == []
    p.flip(2)
    ev = p.flip(0)
    assert only(ev, "pile_won")["seat"] == 2
    assert only(ev, "out")["seat"] == 1
    assert [e["kind"] for e in ev].index("out") > [e["kind"] for e in ev].index("pile_won")


def test_challenge_flipper_whose_challenge_was_his_last_card() -> None:
    p = Play([[C[0]], [num(2), num(7)], [num(20), num(4)]])
    ev = p.flip(0)
    assert only(ev, "challenge_started")["data"]["order"] == [1, 2]
    p.flip(1)
    ev = p.flip(2)
    assert only(ev, "pile_won")["seat"] == 2
    assert only(ev, "out")["seat"] == 0


# --------------------------------------------------------------------- smacks


def test_first_smack_wins_the_smack_card_and_flips_next() -> None:
    p = Play([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]])
    p.flip(0, at=0)
    p.flip(1, at=1000)
    ev = p.smack(0, at=1420)
    sm = only(ev, "smacked")
    assert sm["data"]["result"] == "win" and sm["data"]["reaction_ms"] == 420
    won = only(ev, "pile_won")
    assert won["seat"] == 0 and [c["id"] for c in won["data"]["cards"]] == [num(1), S[0]]
    assert p.state["piles"][0] == [num(2), num(1), S[0]]
    assert p.state["turn"] == 0
    assert p.view["last_smack"] == {"seat": 0, "at_ms": 1420, "reaction_ms": 420, "behind": []}


def test_late_smack_within_grace_is_ignored_with_behind_ms() -> None:
    p = Play([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]])
    p.flip(0, at=0)
    p.flip(1, at=1000)
    p.smack(2, at=1300)
    before = copy.deepcopy(p.state["piles"])
    ev = p.smack(1, at=1342)
    assert ev == [
        {
            "kind": "smacked",
            "seat": 1,
            "data": {"result": "ignored", "at_ms": 1342, "judged_ms": 1342, "behind_ms": 42, "winner": 2},
        }
    ]
    assert p.state["piles"] == before
    assert p.view["last_smack"]["behind"] == [{"seat": 1, "ms": 42}]
    # the winner's own double smack is ignored too
    assert only(p.smack(2, at=1400), "smacked")["data"]["result"] == "ignored"
    # grace is inclusive at 300 ms, then a smack is false again
    assert only(p.smack(0, at=1600), "smacked")["data"]["result"] == "ignored"
    ev = p.smack(0, at=1601)
    assert only(ev, "smacked")["data"]["result"] == "false"
    assert only(ev, "forfeited")["data"]["card"]["id"] == num(2)


def test_late_smack_is_ignored_even_after_the_winner_flipped() -> None:
    p = Play([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]], smack_grace_ms=300)
    p.flip(0, at=0)
    p.flip(1, at=1000)
    p.smack(2, at=1300)
    p.flip(2, at=1400)  # the winner is quick
    assert only(p.smack(0, at=1500), "smacked")["data"]["result"] == "ignored"


def test_new_smack_card_within_grace_is_won_not_ignored() -> None:
    p = Play([[num(1), num(2)], [S[0], num(3)], [S[1], num(5)]])
    p.flip(0, at=0)
    p.flip(1, at=1000)
    p.smack(2, at=1300)
    p.flip(2, at=1400)  # another smack card
    ev = p.smack(0, at=1500)
    assert only(ev, "smacked")["data"]["result"] == "win" and only(ev, "pile_won")["seat"] == 0


def test_grace_zero_punishes_every_late_smack() -> None:
    p = Play([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]], smack_grace_ms=0)
    p.flip(0, at=0)
    p.flip(1, at=1000)
    p.smack(2, at=1300)
    ev = p.smack(1, at=1300)
    assert only(ev, "smacked")["data"]["result"] == "false"
    assert only(ev, "forfeited")["seat"] == 1


def test_grace_option_widens_the_window() -> None:
    p = Play([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]], smack_grace_ms=1000)
    p.flip(0, at=0)
    p.flip(1, at=1000)
    p.smack(2, at=1300)
    assert only(p.smack(1, at=2200), "smacked")["data"]["result"] == "ignored"


def test_false_smack_forfeits_top_card_to_the_bottom_of_the_centre() -> None:
    p = Play([[num(1), num(2)], [num(10), num(3), num(11)], [num(4), num(5)]])
    p.flip(0)
    p.flip(1)
    ev = p.smack(2, at=5000)
    assert p.kinds(ev) == ["smacked", "forfeited"]
    sm = only(ev, "smacked")
    assert sm["data"]["result"] == "false" and sm["data"]["top"]["value"] == 10
    assert only(ev, "forfeited")["data"]["card"] == {"id": num(4), "face": "number", "value": 4}
    assert p.state["centre"] == [num(4), num(1), num(10)]
    v = p.view
    assert v["centre"]["top"]["value"] == 10 and v["centre"]["count"] == 3
    assert [c["value"] for c in v["centre"]["bottom_forfeits"]] == [4]
    assert v["piles"] == [1, 2, 1]


def test_forfeit_onto_empty_centre_is_the_top_and_a_smack_card_there_can_be_won() -> None:
    # [D8]
    p = Play([[num(1), num(2)], [num(3), num(4)], [S[0], num(5)]])
    ev = p.smack(2, at=50)
    assert only(ev, "forfeited")["data"]["card"]["id"] == S[0]
    assert p.view["centre"]["top"]["face"] == "smack"
    ev = p.smack(1, at=400)
    assert only(ev, "smacked")["data"]["result"] == "win"
    assert only(ev, "smacked")["data"]["reaction_ms"] == 350
    assert only(ev, "pile_won")["seat"] == 1 and p.state["turn"] == 1


# ------------------------------------------------- the smack race [D14, D15]


def refused(p: Play, seat: int, code: str) -> None:
    """A flip refused with `code`, changing nothing."""
    before = copy.deepcopy(p.state)
    with pytest.raises(RuleError) as err:
        p.flip(seat)
    assert err.value.code == code
    assert p.state == before


def test_flip_onto_a_smack_card_is_smack_pending_until_it_is_smacked() -> None:
    p = Play([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]])
    p.flip(0, at=0)
    p.flip(1, at=500)
    assert p.state["turn"] == 2
    refused(p, 2, "smack_pending")  # play stops for the race, the turn holder included
    refused(p, 0, "not_your_turn")
    ev = p.smack(2, at=900)
    assert only(ev, "pile_won")["seat"] == 2
    assert only(p.flip(2, at=1500), "flipped")["data"]["card"]["value"] == 4


def test_flip_is_smack_pending_during_a_challenge_round() -> None:
    p = Play([[C[0], num(1)], [S[0], num(3)], [num(20), num(4)]])
    p.flip(0)
    p.flip(1)
    refused(p, 2, "smack_pending")
    assert p.view["challenge"]["flipped_by"] == [1]


def test_flip_onto_a_forfeited_smack_card_is_smack_pending() -> None:
    # [D8] a smack card forfeited onto the empty centre lies on top like a flipped one
    p = Play([[num(1), num(2)], [num(3), num(4)], [S[0], num(5)]])
    p.smack(2, at=50)
    refused(p, 0, "smack_pending")


def test_only_the_idle_timer_flips_over_an_unsmacked_smack_card() -> None:
    p = Play([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]], auto_flip_seconds=5)
    p.flip(0, at=0)
    ev = p.flip(1, at=500)
    assert only(ev, "timer")["data"]["due_ms"] == 5500
    ev = p.idle(at=5500)
    f = only(ev, "flipped")
    assert f["seat"] == 2 and f["data"]["auto"] is True and f["data"]["card"]["value"] == 4
    assert p.state["turn"] == 0 and any(e["kind"] == "timer" for e in ev)
    # the smack card is covered: smacking it now is a false smack
    assert only(p.smack(0, at=6500), "smacked")["data"]["result"] == "false"


def test_each_idle_timer_replaces_the_one_before_and_a_replaced_one_does_nothing() -> None:
    p = Play([[num(1), num(2)], [num(3), num(6)], [num(4), num(5)]], auto_flip_seconds=5)
    first = only(p.flip(0, at=0), "timer")["data"]
    second = only(p.flip(1, at=500), "timer")["data"]
    assert first["replaces"] == "flip:0", "the setup's idle timer is superseded by the first flip's"
    assert second["replaces"] == first["id"] and second["id"] != first["id"]
    replaced = {"kind": "timer", "id": first["id"]}
    assert p.act(None, replaced, at=5000) == [], "a replaced idle timer is answered with nothing, at its due time"
    assert p.act(None, replaced, at=9000) == [], "and later, when the live one is overdue too"
    assert only(p.idle(at=9000), "flipped")["data"]["auto"] is True


def test_smack_card_as_the_last_card_of_a_round_is_smacked_before_the_round_is_settled() -> None:
    p = Play([[C[0], S[0], num(1)], [num(30), num(3)], [num(20), num(4)]])
    p.flip(0, at=0)
    p.flip(1, at=100)  # 30 is the best so far...
    p.flip(2, at=200)
    ev = p.flip(0, at=300)  # ...but the round's last card is a smack card
    assert p.kinds(ev) == ["flipped"]
    assert only(ev, "flipped")["data"]["next"] is None
    assert p.view["challenge"]["active"] and p.view["turn"] is None
    assert p.view["flip_due_ms"] == 10_300  # the idle timer still guards the table
    for seat in range(3):
        refused(p, seat, "smack_pending")
    ev = p.smack(2, at=650)
    sm = only(ev, "smacked")
    assert sm["data"]["result"] == "win" and sm["data"]["reaction_ms"] == 350
    won = only(ev, "pile_won")
    assert won["seat"] == 2 and won["data"]["by"] == "smack" and won["data"]["next"] == 2
    assert [c["id"] for c in won["data"]["cards"]] == [C[0], num(30), num(20), S[0]]
    assert not p.view["challenge"]["active"] and p.state["turn"] == 2  # the round ended with it [D4]
    # a second smack within the grace is ignored, not punished
    assert only(p.smack(1, at=800), "smacked")["data"]["result"] == "ignored"


def test_unsmacked_last_card_of_a_round_is_settled_by_the_idle_timer() -> None:
    p = Play([[C[0], S[0], num(1)], [num(30), num(3)], [num(20), num(4)]], auto_flip_seconds=5)
    p.flip(0, at=0)
    p.flip(1, at=100)
    p.flip(2, at=200)
    ev = p.flip(0, at=300)
    assert only(ev, "timer")["data"]["due_ms"] == 5300
    ev = p.idle(at=5300)
    won = only(ev, "pile_won")
    assert won["seat"] == 1 and won["data"]["by"] == "challenge"  # the highest number, as if no smack card
    assert p.state["turn"] == 1 and any(e["kind"] == "timer" for e in ev)
    assert only(p.smack(2, at=5400), "smacked")["data"]["result"] == "false"


def test_last_card_of_a_round_without_idle_timer_waits_for_a_smack() -> None:
    p = Play([[C[0], S[0], num(1)], [num(30), num(3)], [num(20), num(4)]], auto_flip_seconds=0)
    p.flip(0)
    p.flip(1)
    p.flip(2)
    ev = p.flip(0)
    assert not [e for e in ev if e["kind"] == "timer"] and p.view["flip_due_ms"] is None
    assert only(p.smack(1, at=400), "pile_won")["seat"] == 1


def test_player_emptied_by_the_round_wins_its_smack_card_and_stays_in() -> None:
    # [D5] with [D15]: seat 0's last card is the round's smack card; seat 0 smacks it himself
    p = Play([[C[0], S[0]], [num(30), num(3)], [num(20), num(4)]])
    p.flip(0)
    p.flip(1)
    p.flip(2)
    p.flip(0, at=1000)
    ev = p.smack(0, at=1300)
    assert only(ev, "pile_won")["seat"] == 0 and not [e for e in ev if e["kind"] == "out"]
    assert p.view["piles"] == [4, 1, 1] and p.view["out"] == []


def test_false_smack_of_last_card_by_turn_holder_passes_the_turn() -> None:
    p = Play([[num(1), num(2)], [num(3)], [num(4), num(5)]])
    p.flip(0)
    ev = p.smack(1, at=2000)
    assert p.kinds(ev) == ["smacked", "forfeited", "turn", "out"]
    assert only(ev, "turn")["data"]["next"] == 2
    assert p.state["turn"] == 2 and p.view["out"] == [1]
    assert any(e["kind"] == "timer" for e in ev)  # the turn changed: a fresh idle timer


def test_false_smack_of_last_card_by_turn_holder_in_a_round() -> None:
    p = Play([[C[0], num(1), num(9)], [num(3)], [num(4), num(5)]])
    p.flip(0)
    assert p.state["turn"] == 1
    ev = p.smack(1, at=2000)
    assert p.kinds(ev) == ["smacked", "forfeited", "turn"]
    assert p.state["turn"] == 2 and p.view["out"] == []  # [D5] out only when the round ends
    p.flip(2)
    ev = p.flip(0)
    assert only(ev, "pile_won")["seat"] == 2
    assert only(ev, "out")["seat"] == 1


# ------------------------------------------------------------ out of cards


def _with_out_player() -> Play:
    """Seat 1 goes out; seats 0 and 2 play on."""
    p = Play([[num(1), num(10), S[0], num(11), num(12)], [num(2)], [num(3), num(20), num(21), num(22)]])
    p.flip(0, at=0)
    p.flip(1, at=100)
    assert p.view["out"] == [1]
    return p


def test_out_player_may_smack_and_the_pile_he_wins_leaves_play() -> None:
    p = _with_out_player()
    p.flip(2, at=200)
    p.flip(0, at=300)
    ev = p.flip(2, at=400)
    assert only(ev, "flipped")["data"]["next"] == 0
    ev = p.flip(0, at=500)  # the smack card
    ev = p.smack(1, at=800)
    won = only(ev, "pile_won")
    assert won["seat"] == 1 and won["data"]["removed"] is True
    assert won["data"]["next"] == 2  # the player to the smacker's left holding cards
    assert p.view["removed"] == 6 and p.view["piles"][1] == 0
    assert sorted(card_ids(p.state)) == sorted(
        [num(1), num(10), S[0], num(11), num(12), num(2), num(3), num(20), num(21), num(22)]
    )


def test_out_player_false_smack_is_out_for_good() -> None:
    p = _with_out_player()
    ev = p.smack(1, at=1000)
    assert p.kinds(ev) == ["smacked", "out"]
    assert only(ev, "out")["data"]["for_good"] is True
    assert p.view["out_for_good"] == [1] and p.view["out"] == [1]
    with pytest.raises(RuleError) as err:
        p.smack(1, at=2000)
    assert err.value.code == "out_for_good"


def test_player_without_cards_in_a_round_false_smacks_out_for_good() -> None:
    # [D6]
    p = Play([[C[0], num(1)], [num(2)], [num(20), num(4)]])
    p.flip(0)
    p.flip(1)  # seat 1 is empty, waiting for the round
    ev = p.smack(1, at=5000)
    assert p.kinds(ev) == ["smacked", "out"]
    assert only(ev, "out")["data"] == {"for_good": True, "group": 1}
    p.flip(2)
    ev = p.flip(0)
    assert only(ev, "pile_won")["seat"] == 2


def test_pile_won_in_a_round_by_a_player_out_for_good_is_removed() -> None:
    p = Play([[C[0], num(1)], [num(50)], [num(20), num(4)]])
    p.flip(0)
    p.flip(1)  # 50: seat 1 leads the round with its last card
    p.smack(1, at=5000)  # and is out for good
    p.flip(2)
    ev = p.flip(0)
    won = only(ev, "pile_won")
    assert won["seat"] == 1 and won["data"]["removed"] and won["data"]["next"] == 2
    assert p.view["removed"] == 4


# --------------------------------------------------------------- the end


def test_last_player_holding_cards_wins_placements_by_going_out_order() -> None:
    p = Play([[num(1), num(2), num(3)], [num(4)], [num(5), num(6)], [num(7), num(8), num(9)]])
    p.flip(0)
    p.flip(1)  # 1 out first
    p.flip(2)
    p.flip(3)
    p.flip(0)
    ev = p.flip(2)  # 2 out second
    assert only(ev, "out")["data"]["group"] == 2
    p.flip(3)
    ev = p.flip(0)  # 0 out third: seat 3 alone holds cards
    fin = only(ev, "finished")
    assert fin["data"]["reason"] == "last_player"
    outcome = RULES.outcome(p.state)
    assert outcome == fin["data"]["outcome"]
    assert outcome["winners"] == [3]
    places = {pl["seat"]: pl["place"] for pl in outcome["placements"]}
    assert places == {3: 1, 0: 2, 2: 3, 1: 4}
    assert {pl["seat"]: pl["score"] for pl in outcome["placements"]} == {0: 0, 1: 0, 2: 0, 3: 1}
    assert p.view["finished"] and p.view["outcome"] == outcome and p.view["turn"] is None
    with pytest.raises(RuleError) as err:
        p.flip(3)
    assert err.value.code == "match_over"
    with pytest.raises(RuleError) as err:
        p.act(None, {"kind": "timer", "id": "limit"})
    assert err.value.code == "match_over"  # [D12]


def test_players_going_out_together_share_their_place() -> None:
    p = Play([[C[0], num(1), num(2)], [num(3)], [num(4)], [num(40), num(6)]])
    ev = p.flip(0)
    assert only(ev, "challenge_started")["data"]["order"] == [1, 2, 3, 0]
    p.flip(1)  # last card: waits for the round
    p.flip(2)  # last card: waits for the round
    p.flip(3)
    ev = p.flip(0)
    assert only(ev, "pile_won")["seat"] == 3
    outs = [e for e in ev if e["kind"] == "out"]
    assert {e["seat"] for e in outs} == {1, 2} and {e["data"]["group"] for e in outs} == {1}
    p.flip(3)
    ev = p.flip(0)  # seat 0 flips its last card: seat 3 wins
    outcome = only(ev, "finished")["data"]["outcome"]
    assert {pl["seat"]: pl["place"] for pl in outcome["placements"]} == {3: 1, 0: 2, 1: 3, 2: 3}


def test_everyone_out_at_once_share_first_place() -> None:
    # [D10] the last cards flipped into a round without a number: nobody holds cards
    p = Play([[C[0]], [S[0]], [S[1]]])
    p.flip(0)
    p.flip(1)
    p.idle()  # flips seat 2's smack card over seat 1's: the round's last card [D14]
    ev = p.idle()  # nobody smacked it either: the round is settled [D15]
    assert only(ev, "challenge_ended")
    fin = only(ev, "finished")
    assert fin["data"]["outcome"]["winners"] == [0, 1, 2]
    assert all(pl["place"] == 1 for pl in fin["data"]["outcome"]["placements"])


def test_length_limit_places_by_cards_held() -> None:
    p = Play([[num(1), num(2), num(3)], [num(4)], [num(5), num(6), num(7)], [num(8), num(9)]], max_minutes=1)
    p.flip(0, at=10)
    p.flip(1, at=20)  # seat 1 out
    ev = p.act(None, {"kind": "timer", "id": "limit"}, at=60_000)
    fin = only(ev, "finished")
    assert fin["data"]["reason"] == "time_limit"
    places = {pl["seat"]: pl["place"] for pl in fin["data"]["outcome"]["placements"]}
    assert places == {2: 1, 0: 2, 3: 2, 1: 4}
    assert fin["data"]["outcome"]["winners"] == [2]
    assert p.view["reason"] == "time_limit"


def test_max_minutes_option_sets_the_limit_timer() -> None:
    ev = RULES.setup(2, {"max_minutes": 3}, random.Random(0))
    assert {"kind": "timer", "seat": None, "data": {"id": "limit", "due_ms": 180_000}} in ev
    state = fold_all(RULES, ev)
    assert RULES.view(state, None)["limit_due_ms"] == 180_000


# ---------------------------------------------------------------- timers


def test_idle_flip_timer_flips_for_the_idle_player_and_is_rearmed() -> None:
    p = Play([[num(1), num(2)], [num(3), num(4)]], auto_flip_seconds=5)
    ev = p.flip(0, at=1000)
    t1 = only(ev, "timer")["data"]
    assert t1["due_ms"] == 6000 and t1["id"].startswith("flip:")
    ev = p.act(None, {"kind": "timer", "id": t1["id"]}, at=6000)
    f = only(ev, "flipped")
    assert f["seat"] == 1 and f["data"]["auto"] is True
    t2 = only(ev, "timer")["data"]
    assert t2["id"] != t1["id"] and t2["due_ms"] == 11_000
    assert p.view["flip_due_ms"] == 11_000
    # the first timer is now stale
    assert p.act(None, {"kind": "timer", "id": t1["id"]}, at=7000) == []
    assert p.act(None, {"kind": "timer", "id": "flip:999"}, at=7000) == []


def test_idle_timer_rearmed_when_the_winner_keeps_the_turn() -> None:
    p = Play([[num(1), S[0], num(2)], [num(3), num(4)]])
    p.flip(0, at=0)
    p.flip(1, at=100)
    ev = p.flip(0, at=200)
    old = only(ev, "timer")["data"]["id"]
    ev = p.smack(1, at=600)
    new = only(ev, "timer")["data"]
    assert new["id"] != old and new["due_ms"] == 10_600 and p.state["turn"] == 1


def test_auto_flip_zero_arms_no_timer() -> None:
    p = Play([[num(1), num(2)], [num(3), num(4)]], auto_flip_seconds=0)
    assert not [e for e in p.flip(0) if e["kind"] == "timer"]


def test_timer_only_from_the_system() -> None:
    p = Play([[num(1), num(2)], [num(3), num(4)]])
    with pytest.raises(RuleError) as err:
        p.act(0, {"kind": "timer", "id": "flip:0"})
    assert err.value.code == "bad_action"
    for action in ({"kind": "flip"}, {"kind": "smack"}):
        with pytest.raises(RuleError):
            p.act(None, action)


# --------------------------------------------------------------- shuffle_won


def test_shuffle_won_keeps_the_order_secret() -> None:
    p = Play([[num(1), num(2)], [num(3), S[0], num(4)], [num(5), num(6)]], shuffle_won=True)
    p.flip(0, at=0)
    p.flip(1, at=10)
    p.flip(2, at=20)
    p.flip(0, at=30)
    p.flip(1, at=40)
    ev = p.smack(2, at=500)
    won = only(ev, "pile_won")
    assert won["data"]["shuffled"] is True
    assert [c["id"] for c in won["data"]["cards"]] == [num(1), num(3), num(5), num(2), S[0]]
    order = won["data"]["order"]
    assert sorted(order) == sorted([num(1), num(3), num(5), num(2), S[0]])
    assert p.state["piles"][2] == [num(6), *order]
    for viewer in (None, 0, 1, 2):
        red = RULES.redact(won, viewer)
        assert "order" not in red["data"] and red["data"]["cards"] == won["data"]["cards"]


def test_without_shuffle_won_the_order_is_the_centre_turned_over() -> None:
    p = Play([[num(1), num(2)], [S[0], num(4)]])
    p.flip(0)
    p.flip(1)
    ev = p.smack(0, at=900)
    assert "order" not in only(ev, "pile_won")["data"]
    assert p.state["piles"][0] == [num(2), num(1), S[0]]


# ------------------------------------------------------------------ secrecy


def test_dealt_is_redacted_to_sizes_for_everyone_owner_included() -> None:
    ev = RULES.setup(3, {}, random.Random(5))
    for viewer in (None, 0, 1, 2):
        red = RULES.redact(ev[0], viewer)
        assert red["kind"] == "dealt"
        assert list(iter_cards(red)) == []
        assert red["data"]["sizes"] == [19, 19, 19]
    state = fold_all(RULES, ev)
    for viewer in (None, 0, 1, 2):
        assert list(iter_cards(RULES.view(state, viewer))) == []


def test_won_cards_are_not_listed_in_later_views() -> None:
    p = Play([[num(1), num(2)], [S[0], num(4)]])
    p.flip(0)
    p.flip(1)
    p.smack(0, at=900)
    assert list(iter_cards(p.view)) == []
    assert list(iter_cards(RULES.view(p.state, 0))) == []


def test_finished_event_and_view_reveal_everything() -> None:
    p = Play([[num(1), num(2)], [num(3)]])
    p.flip(0)
    ev = p.flip(1)
    fin = only(ev, "finished")
    red = RULES.redact(fin, None)
    assert {c["id"] for c in iter_cards(red)} == {num(1), num(2), num(3)}
    assert [[c["id"] for c in pile] for pile in red["data"]["piles"]] == [[num(2)], []]
    assert {c["id"] for c in iter_cards(p.view["reveal"])} == {num(2)}


def test_view_is_json_and_lists_options() -> None:
    p = Play([[num(1), num(2)], [num(3), num(4)]])
    v = RULES.view(p.state, 1)
    assert json.loads(json.dumps(v)) == v
    assert v["options"]["smack_grace_ms"] == 300 and v["outcome"] is None and v["finished"] is False
    assert v["you"] == 1
    assert json.loads(json.dumps(p.state)) == p.state


# --------------------------------------------------------------- bad input


GARBAGE: list[Any] = [
    None,
    "flip",
    12,
    [{"kind": "flip"}],
    {},
    {"kind": None},
    {"kind": 1},
    {"kind": True},
    {"kind": {"kind": "flip"}},
    {"kind": ["smack"]},
    {"kind": "snap"},
    {"kind": "FLIP"},
    {"kind": "timer"},
    {"kind": "timer", "id": 5},
]


@pytest.mark.parametrize("action", GARBAGE)
@pytest.mark.parametrize("seat", [0, 1, None])
def test_garbage_is_a_rule_error_and_changes_nothing(action: Any, seat: int | None) -> None:
    p = Play([[num(1), num(2)], [num(3), num(4)]])
    before = copy.deepcopy(p.state)
    with pytest.raises(RuleError) as err:
        RULES.decide(p.state, seat, action, 10, RNG)
    assert err.value.code in ("bad_action", "unknown_action", "not_your_turn")
    assert p.state == before


def test_error_codes() -> None:
    p = Play([[num(1), num(2)], [num(3), num(4)]])
    cases = [
        (0, {"kind": "snap"}, "unknown_action"),
        (0, "x", "bad_action"),
        (0, {}, "bad_action"),
        (5, {"kind": "flip"}, "bad_action"),
        (-1, {"kind": "smack"}, "bad_action"),
        ("0", {"kind": "flip"}, "bad_action"),
        (True, {"kind": "flip"}, "bad_action"),
        (None, {"kind": "smack"}, "bad_action"),
        (None, {"kind": "timer", "id": ["x"]}, "bad_action"),
        (1, {"kind": "flip"}, "not_your_turn"),
    ]
    for seat, action, code in cases:
        with pytest.raises(RuleError) as err:
            RULES.decide(p.state, seat, action, 10, RNG)
        assert err.value.code == code, (seat, action)


def test_extra_fields_are_ignored() -> None:
    p = Play([[num(1), num(2)], [num(3), num(4)]])
    ev = p.act(0, {"kind": "flip", "card": {"id": 10**30}, "x": [None]})
    assert only(ev, "flipped")["data"]["card"]["id"] == num(1)


def test_without_length_limit_a_limit_timer_is_stale() -> None:
    p = Play([[num(1), num(2)], [num(3), num(4)]], max_minutes=0)
    assert p.act(None, {"kind": "timer", "id": "limit"}, at=10**9) == []
    assert RULES.view(p.state, None)["limit_due_ms"] is None


def test_setup_log_folds_to_a_state_that_survives_json() -> None:
    events = RULES.setup(5, {"shuffle_won": True, "dealer": 2}, random.Random(9))
    state = fold_all(RULES, events)
    assert json.loads(json.dumps(state)) == state
    assert fold_all(RULES, json.loads(json.dumps(events))) == state
    assert sorted(card_ids(state)) == list(range(57))
