"""ZACK!'s races judged by the platform's `Timing` (PROTOCOL "Fair races", rules [D race], [D race a], [D race b]).

The seed's scenario, timed: blue (seat 1) is to play after red's blue circle
lands at 100; yellow (seat 2) challenges blue as too slow. Who was first —
blue's card or yellow's call — is decided by judged time (arrival minus the
sender's compensated round trip), not by which reached the server first.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.engine import RuleError, Timing, fold_all
from games.zack.bot import BOT
from games.zack.rules import RULES
from tests.games.race_checks import check_settled_races
from tests.games.race_timings import RandomTimings
from tests.games.zack.harness import HARNESS
from tests.games.zack.scenario import Game
from tests.support.simulate import play_bots, play_random

FILL = ["links"] * 5


def timing(arrival: int, comp: list[int], seat: int) -> Timing:
    return Timing(arrival_ms=arrival, judged_ms=arrival - comp[seat], comp_ms=tuple(comp))


class Timed(Game):
    """The scenario driver, with the platform's Timing for every race action."""

    def timed(self, seat: int, action: dict[str, Any], at: int, comp: list[int]) -> list[dict[str, Any]]:
        self.now = at
        before = copy.deepcopy(self.state)
        events = RULES.decide(self.state, seat, action, at, random.Random(0), timing=timing(at, comp, seat))
        assert self.state == before, "decide must not mutate the state"
        for e in events:
            self.state = RULES.fold(self.state, e)
            self.log.append(e)
        return events

    def throw_t(self, seat: int, at: int, comp: list[int]) -> list[dict[str, Any]]:
        return self.timed(seat, {"kind": "throw"}, at, comp)

    def challenge_t(self, seat: int, colour: str, at: int, comp: list[int]) -> list[dict[str, Any]]:
        return self.timed(seat, {"kind": "challenge", "target": colour}, at, comp)

    def timer(self, tid: str, at: int) -> list[dict[str, Any]]:
        return self.act(None, {"kind": "timer", "id": tid}, at)


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events if e["kind"] != "timer"]


def only(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [e for e in events if e["kind"] == kind]
    assert len(found) == 1, events
    return found[0]


def blue_to_play(**options: Any) -> Timed:
    g = Timed([["blue", *FILL], ["yellow", *FILL], FILL, FILL], **options)
    g.throw(0, at=100)  # red's blue circle: blue (seat 1) is to play since 100
    assert g.turn == 1 and g.state["turn_since"] == 100
    return g


def test_the_raced_actions() -> None:
    assert RULES.races == frozenset({"throw", "challenge", "colour"})


def test_blue_far_away_threw_first_by_judged_time_though_the_challenge_arrived_first() -> None:
    g = blue_to_play()
    comp = [0, 80, 0, 0]  # blue sits 80 ms of round trip away
    ev = g.challenge_t(2, "blue", 2000, comp)
    claimed = only(ev, "race_claimed")
    assert claimed["data"]["race"] == "turn:0" and claimed["data"]["target"] == 1
    assert claimed["data"]["claim"] == {"seat": 2, "arrival_ms": 2000, "judged_ms": 2000, "reaction_ms": 1900, "action": "challenge"}
    assert only(ev, "timer")["data"] == {"id": "race:turn:0", "due_ms": 2080}  # blue may still be judged earlier
    assert kinds(ev) == ["race_claimed"] and g.state["box"] and g.turn == 1
    view = RULES.view(g.state, None)
    assert view["race"] == {
        "id": "turn:0",
        "target": 1,
        "opened_ms": 100,
        "claims": [{"seat": 2, "action": "challenge", "reaction_ms": 1900}],
        "due_ms": 2080,
    }
    ev = g.throw_t(1, 2050, comp)  # blue's card arrives 50 ms later, judged 1970: 30 ms before the challenge
    assert kinds(ev) == ["race_claimed", "race_settled", "thrown", "challenged"]
    settled = only(ev, "race_settled")
    assert settled["data"]["winner"] == 1 and [c["action"] for c in settled["data"]["ranking"]] == ["throw", "challenge"]
    thrown = only(ev, "thrown")
    assert thrown["seat"] == 1 and thrown["data"]["out_of_turn"] is False
    assert (thrown["data"]["arrival_ms"], thrown["data"]["judged_ms"]) == (2050, 1970)
    ch = only(ev, "challenged")["data"]
    # blue was in time: yellow's challenge, judged after blue's card, fails and yellow takes the box
    assert (ch["result"], ch["reason"], ch["taker"], ch["next"], ch["cards_taken"]) == ("fail", "none", 2, 1, 2)
    assert RULES.view(g.state, None)["race"] is None
    assert g.timer("race:turn:0", 2080) == []  # stale


def test_the_seed_scenario_the_challenge_judged_first_wins_by_the_timer() -> None:
    g = blue_to_play()
    comp = [0, 80, 0, 0]
    g.challenge_t(2, "blue", 2000, comp)
    assert g.timer("race:turn:0", 2079) == []  # not yet: blue may still be judged before 2000
    ev = g.timer("race:turn:0", 2080)
    assert kinds(ev) == ["race_settled", "challenged"]
    ch = only(ev, "challenged")["data"]
    assert (ch["result"], ch["reason"], ch["taker"], ch["next"]) == ("success", "slow", 1, 2)
    late = g.throw_t(1, 2300, comp)  # blue's card within settle_ms: returned, as on the rules page
    assert kinds(late) == ["returned"] and late[0]["data"]["why"] == "settling"


def test_a_claim_beyond_the_cap_loses_and_the_late_card_is_returned() -> None:
    # blue's real round trip is 300 ms, the cap 200: it is compensated 200 and no more
    g = blue_to_play()
    comp = [0, 200, 0, 0]
    ev = g.challenge_t(2, "blue", 2000, comp)
    assert only(ev, "timer")["data"]["due_ms"] == 2200  # never later than the cap after the first claim
    # blue reacted at 1950 on its own clock; its card arrives at 2250, judged 2050: after the window
    ev = g.throw_t(1, 2250, comp)
    assert kinds(ev) == ["race_settled", "challenged", "returned"]  # settled lazily, then blue's card judged
    assert only(ev, "challenged")["data"]["result"] == "success"
    assert only(ev, "returned")["data"]["why"] == "settling"


def test_a_card_arriving_while_judged_but_judged_later_is_returned_at_the_settlement() -> None:
    g = blue_to_play()
    comp = [0, 80, 0, 0]
    g.challenge_t(2, "blue", 2000, comp)
    ev = g.throw_t(1, 2070, comp)  # judged 1990: 10 ms before the challenge, blue first
    assert only(ev, "race_settled")["data"]["winner"] == 1
    g2 = blue_to_play()
    g2.challenge_t(2, "blue", 2000, comp)
    ev = g2.throw_t(1, 2079, [0, 70, 0, 0])  # blue's line got quicker: judged 2009, after the challenge
    assert kinds(ev) == ["race_claimed", "race_settled", "challenged", "returned"]
    assert only(ev, "race_settled")["data"]["winner"] == 2
    assert only(ev, "returned")["seat"] == 1 and only(ev, "returned")["data"]["why"] == "settling"


def test_blue_near_threw_first_but_the_far_challenge_was_judged_before_it() -> None:
    # [D race b]: blue's card reaches the box first and lands at once; yellow (90 ms away) called earlier
    g = blue_to_play()
    comp = [0, 0, 90, 0]
    ev = g.throw_t(1, 2000, comp)
    assert kinds(ev) == ["thrown"] and g.turn == 2  # blue's yellow circle: yellow's turn
    ev = g.challenge_t(2, "blue", 2050, comp)  # judged 1960: before blue's card
    assert kinds(ev) == ["race_claimed", "race_settled", "challenged"]
    assert only(ev, "race_claimed")["data"]["earlier"][0] == {
        "seat": 1,
        "arrival_ms": 2000,
        "judged_ms": 2000,
        "reaction_ms": 1900,
        "action": "throw",
    }
    settled = only(ev, "race_settled")["data"]
    assert settled["winner"] == 2 and [c["seat"] for c in settled["ranking"]] == [2, 1]
    ch = only(ev, "challenged")["data"]
    assert (ch["result"], ch["reason"], ch["taker"], ch["next"], ch["cards_taken"]) == ("success", "slow", 1, 2, 2)
    assert ch["before_throw"] is True
    # the same cards, in the same order, as if the challenge had reached the box first
    h = blue_to_play()
    h.challenge(2, "blue", at=1960)
    h.throw(1, at=2000)  # returned (settling)
    assert g.state["piles"] == h.state["piles"] and g.state["box"] == h.state["box"] == []


def test_a_challenge_judged_after_the_card_on_top_is_judged_on_the_box_as_it_is() -> None:
    g = blue_to_play()
    comp = [0, 0, 90, 0]
    g.throw_t(1, 2000, comp)
    ev = g.challenge_t(2, "blue", 2100, comp)  # judged 2010: after blue's card
    ch = only(ev, "challenged")["data"]
    assert ch["result"] == "fail" and "before_throw" not in ch


def test_no_challenge_before_a_card_once_something_else_happened() -> None:
    g = blue_to_play()
    comp = [0, 0, 90, 0]
    g.throw_t(1, 2000, comp)  # yellow's turn
    g.throw_t(2, 2020, comp)  # yellow throws: blue's card is no longer on top
    ev = g.challenge_t(3, "blue", 2030, [0, 0, 0, 0])  # judged 2030: nobody compensated, settled at once
    assert only(ev, "challenged")["data"]["result"] == "fail"
    assert not any(e["kind"] == "challenged" and e["data"].get("before_throw") for e in g.log)


def test_while_judged_the_box_stands_still_and_nobody_claims_twice() -> None:
    g = blue_to_play()
    comp = [0, 150, 0, 40]
    g.challenge_t(2, "blue", 2000, comp)  # due 2150
    ev = g.throw_t(0, 2010, comp)  # red's card: returned, the box is judging
    assert kinds(ev) == ["returned"] and ev[0]["data"]["why"] == "judging"
    ev = g.challenge_t(3, "red", 2020, comp)  # a challenge against another colour: returned too
    assert kinds(ev) == ["returned"] and ev[0]["data"] == {"challenge": "red", "why": "judging"}
    ev = g.act(0, {"kind": "colour"}, at=2030)
    assert kinds(ev) == ["returned"] and ev[0]["data"]["why"] == "judging"
    before = copy.deepcopy(g.state)
    with pytest.raises(RuleError) as err:
        g.challenge_t(2, "blue", 2040, comp)
    assert err.value.code == "already_claimed" and g.state == before
    # green (40 ms away) joins the challenge against blue, judged 1995: the earliest judged challenge is pursued
    ev = g.challenge_t(3, "blue", 2035, comp)
    assert kinds(ev) == ["race_claimed"]
    ev = g.timer("race:turn:0", 2150)
    assert kinds(ev) == ["race_settled", "challenged", "returned"]
    ch = only(ev, "challenged")
    assert ch["seat"] == 3 and ch["data"]["result"] == "success" and ch["data"]["next"] == 3
    assert only(ev, "returned")["data"] == {"challenge": "blue", "why": "settling"} and only(ev, "returned")["seat"] == 2


def test_all_seats_claimed_settles_at_once() -> None:
    g = Timed([["yellow", *FILL], ["links", *FILL], ["blue", *FILL]])  # three seats
    g.throw(0, at=100)  # yellow's turn (seat 2)
    comp = [0, 60, 150]
    assert kinds(g.challenge_t(0, "yellow", 2000, comp)) == ["race_claimed"]  # bounds 2060 and 2150
    assert kinds(g.challenge_t(1, "yellow", 2010, comp)) == ["race_claimed"]  # judged 1950: yellow's bound 2100
    ev = g.throw_t(2, 2030, comp)  # judged 1880, and every seat has claimed
    assert kinds(ev)[:3] == ["race_claimed", "race_settled", "thrown"]
    assert [c["seat"] for c in only(ev, "race_settled")["data"]["ranking"]] == [2, 1, 0]


def test_without_compensation_every_challenge_is_settled_at_once() -> None:
    g = blue_to_play()
    ev = g.challenge_t(2, "blue", 2000, [0, 0, 0, 0])
    assert kinds(ev) == ["race_claimed", "race_settled", "challenged"]
    h = blue_to_play()
    ev2 = h.act(2, {"kind": "challenge", "target": "blue"}, at=2000)  # no Timing: judged on arrival, the same
    assert ev2 == ev


def test_beginner_grace_is_judged_on_the_judged_time() -> None:
    g = blue_to_play(beginners=[1], grace_ms=2000)  # blue is protected until 2100
    before = copy.deepcopy(g.state)
    with pytest.raises(RuleError) as err:
        g.challenge_t(2, "blue", 2150, [0, 0, 100, 0])  # arrives after the grace, judged 2050 inside it
    assert err.value.code == "grace" and g.state == before
    assert only(g.challenge_t(2, "blue", 2150, [0, 0, 0, 0]), "challenged")["data"]["result"] == "success"


def test_the_winning_colour_card_judged_first_wins_the_match() -> None:
    g = Timed([["yellow"], ["links", "links"], ["red", *FILL], ["links"] * 5])
    g.throw(0, at=100)  # red's pile is empty now
    g.throw(2, at=200)  # red circle: red (seat 0) to play, with only its colour card left
    comp = [90, 0, 0, 0]
    g.challenge_t(3, "red", 2000, comp)
    ev = g.timed(0, {"kind": "colour"}, 2060, comp)  # judged 1970
    assert kinds(ev) == ["race_claimed", "race_settled", "colour_thrown", "finished"]
    assert RULES.outcome(g.state)["winners"] == [0]


def test_fold_of_the_log_reproduces_every_race() -> None:
    g = blue_to_play()
    comp = [0, 80, 30, 0]
    g.challenge_t(2, "blue", 2000, comp)
    g.challenge_t(3, "blue", 2010, comp)
    g.timer("race:turn:0", 2080)
    g.throw_t(0, 3000, comp)
    stored = json.loads(json.dumps(g.log))
    assert fold_all(RULES, stored) == g.state
    settled = [e for e in stored if e["kind"] == "race_settled"]
    claims = [e["data"]["claim"] for e in stored if e["kind"] == "race_claimed"]
    assert {(c["seat"], c["arrival_ms"], c["judged_ms"]) for c in claims} == {(2, 2000, 1970), (3, 2010, 2010)}
    assert settled[0]["data"]["winner"] == 2  # why: judged 1970 before 2010, in the log


def test_bad_timing_is_refused() -> None:
    g = blue_to_play()
    for bad in (Timing(2000, 2100, (0, 0, 0, 0)), Timing(2000, 2000, (0, 0, 0)), (2000, 2000)):
        with pytest.raises(RuleError) as err:
            RULES.decide(g.state, 2, {"kind": "throw"}, 2000, random.Random(0), timing=bad)  # type: ignore[arg-type]
        assert err.value.code == "bad_action"


# ----------------------------------------------------------- random play and bots


def test_random_play_with_random_timings_keeps_every_invariant() -> None:
    kinds_seen: set[str] = set()
    pending = before_throw = timings = 0
    whys: set[str] = set()
    for seed in range(40):
        report = play_random(HARNESS, 3 + seed % 4, 70_000 + seed, max_actions=2000, timings=True)
        timings += report.timings
        log = report.log
        kinds_seen.update(e["kind"] for e in log)
        for e in log:
            if e["kind"] == "timer" and e["data"]["id"].startswith("race:"):
                pending += 1
            if e["kind"] == "returned":
                whys.add(e["data"]["why"])
            if e["kind"] == "challenged" and e["data"].get("before_throw"):
                before_throw += 1
        check_settled_races(log)
    assert timings > 1000
    assert {"race_claimed", "race_settled", "challenged", "thrown", "returned"} <= kinds_seen
    assert "judging" in whys and pending > 20 and before_throw > 0


def test_bots_cope_with_pending_challenges() -> None:
    for seed in range(24):
        seats = 3 + seed % 4
        rules = RandomTimings(RULES, seed)
        levels = [("easy", "normal", "hard")[(seed + i) % 3] for i in range(seats)]
        report = play_bots(rules, BOT, levels, 9000 + seed, options={"stop_cards": seed % 2 == 0})  # type: ignore[arg-type]
        assert report.rule_errors == 0, f"seed {seed}"
        assert report.outcome is not None and len(report.outcome["winners"]) == 1, f"seed {seed}"
        assert fold_all(RULES, report.log) is not None


# --- a human floor (PROTOCOL "Fair play", rules [D floor]) ------------------------------------------------------


def floored(g: Timed, seat: int, action: dict[str, Any], at: int, comp: list[int], floor: int) -> list[dict[str, Any]]:
    g.now = at
    t = Timing(arrival_ms=at, judged_ms=at - comp[seat], comp_ms=tuple(comp), min_reaction_ms=floor)
    events = RULES.decide(g.state, seat, action, at, random.Random(0), timing=t)
    for e in events:
        g.state = RULES.fold(g.state, e)
        g.log.append(e)
    return events


def test_a_challenge_8_ms_after_the_box_changed_is_an_anticipation_and_a_wrong_challenge() -> None:
    g = blue_to_play()  # blue is to play since 100; a challenge against blue "too slow" has grounds on the box...
    ev = floored(g, 2, {"kind": "challenge", "target": "blue"}, 108, [0, 0, 0, 0], 100)
    claim = only(ev, "race_claimed")["data"]["claim"]
    assert claim["anticipated"] is True and claim["reaction_ms"] == 8
    assert only(ev, "race_settled")["data"]["winner"] is None, "an anticipation never wins"
    ch = only(ev, "challenged")["data"]
    # ...but nobody could have seen it yet: a wrong challenge, the challenger takes the box
    assert (ch["result"], ch["taker"], ch["anticipated"]) == ("fail", 2, True)


def test_a_challenge_120_ms_after_the_box_changed_can_win_at_a_floor_of_100() -> None:
    g = blue_to_play()
    ev = floored(g, 2, {"kind": "challenge", "target": "blue"}, 220, [0, 0, 0, 0], 100)
    assert "anticipated" not in only(ev, "race_claimed")["data"]["claim"]
    ch = only(ev, "challenged")["data"]
    assert (ch["result"], ch["taker"]) == ("success", 1)


def test_floor_0_disables_it_for_challenges() -> None:
    g = blue_to_play()
    ev = floored(g, 2, {"kind": "challenge", "target": "blue"}, 108, [0, 0, 0, 0], 0)
    ch = only(ev, "challenged")["data"]
    assert (ch["result"], ch["taker"]) == ("success", 1) and "anticipated" not in ch


def test_an_anticipated_challenge_judged_before_the_challenged_players_card_is_no_too_slow_call() -> None:
    g = blue_to_play()
    comp = [0, 0, 150, 0]  # yellow's challenge arrives later but is judged at 40 ms: an anticipation
    ev = floored(g, 1, {"kind": "throw"}, 250, comp, 100)  # blue throws in time (a real claim? no race yet: it lands)
    assert only(ev, "thrown")["seat"] == 1
    ev = floored(g, 2, {"kind": "challenge", "target": "blue"}, 290, comp, 100)  # judged 140: before blue's card...
    # ...and 40 ms after the box changed at 100: [D race b] does not apply, it is judged on the box as it is
    assert all(e["data"].get("before_throw") is None for e in ev if e["kind"] == "challenged")
    ch = only(ev, "challenged")["data"]
    assert ch["result"] == "fail" and ch["taker"] == 2


def test_a_zack_log_with_anticipations_folds_to_the_same_state() -> None:
    g = blue_to_play()
    floored(g, 2, {"kind": "challenge", "target": "blue"}, 108, [0, 0, 0, 0], 100)
    assert fold_all(RULES, json.loads(json.dumps(g.log))) == g.state


@pytest.mark.django_db
def test_table_create_keeps_the_floor_at_ranked_tables() -> None:
    from tests.games.floor_checks import check_floor_on_table_create

    check_floor_on_table_create("zack", 4)
