"""Smack It!'s smack races judged by the platform's `Timing` (PROTOCOL "Fair races", rules [D16]-[D18]).

Scenarios are exact (hand-built deals from test_rules); a claim's Timing is
written out: arrival, judged time, and the compensation each seat would get.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest

from games.engine import RuleError, Timing, fold_all
from games.kit.races import settle_at
from games.smackit.bot import BOT, LEVELS
from games.smackit.rules import DECK, RULES
from tests.games.race_checks import check_settled_races
from tests.games.race_timings import RandomTimings
from tests.games.smackit.harness import HARNESS
from tests.games.smackit.test_rules import RNG, C, Play, S, num, only
from tests.support.simulate import play_bots, play_random


def timing(arrival: int, comp: list[int], seat: int) -> Timing:
    """The platform's Timing for a claim by `seat` arriving at `arrival` (judged = arrival - own comp)."""
    return Timing(arrival_ms=arrival, judged_ms=arrival - comp[seat], comp_ms=tuple(comp))


class Timed(Play):
    """The scenario driver, with the platform's Timing for smacks."""

    def smack_t(self, seat: int, at: int, comp: list[int]) -> list[dict[str, Any]]:
        self.now = at
        before = copy.deepcopy(self.state)
        events = RULES.decide(self.state, seat, {"kind": "smack"}, at, RNG, timing=timing(at, comp, seat))
        assert self.state == before, "decide must not mutate the state"
        for e in events:
            self.state = RULES.fold(self.state, e)
            self.log.append(e)
        return events

    def timer(self, tid: str, at: int) -> list[dict[str, Any]]:
        return self.act(None, {"kind": "timer", "id": tid}, at)


def smack_on_top() -> Timed:
    """Seat 1 flips a Smack it! card at 1000; seat 2 holds the turn."""
    p = Timed([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]])
    p.flip(0, at=0)
    p.flip(1, at=1000)
    return p


def test_smack_is_the_race_action() -> None:
    assert RULES.races == frozenset({"smack"})


def test_claims_arriving_out_of_judged_order_are_settled_by_judged_time() -> None:
    p = smack_on_top()
    comp = [0, 80, 0]  # seat 1 sits 80 ms of round trip away
    ev = p.smack_t(0, 1300, comp)  # first to arrive...
    claimed = only(ev, "race_claimed")
    assert claimed["seat"] == 0 and claimed["data"]["race"] == "smack:0"
    assert claimed["data"]["claim"] == {"seat": 0, "arrival_ms": 1300, "judged_ms": 1300, "reaction_ms": 300}
    assert claimed["data"]["comp_ms"] == comp and claimed["data"]["opened_ms"] == 1000
    # seat 1 could still arrive judged faster until 1300 + 80: the race waits, the card stays contested
    assert only(ev, "timer")["data"] == {"id": "race:smack:0", "due_ms": 1380}
    assert p.kinds(ev) == ["race_claimed"]
    assert p.view["centre"]["top"]["face"] == "smack" and p.view["piles"] == [1, 1, 2]
    assert p.view["race"] == {"id": "smack:0", "opened_ms": 1000, "claims": [{"seat": 0, "reaction_ms": 300}], "due_ms": 1380}
    ev = p.smack_t(1, 1340, comp)  # ...arrives later but reacted 40 ms faster (judged 1260)
    assert p.kinds(ev) == ["race_claimed", "race_settled", "smacked", "pile_won", "smacked"]
    settled = only(ev, "race_settled")
    assert settled["data"]["winner"] == 1 and [c["seat"] for c in settled["data"]["ranking"]] == [1, 0]
    assert [c["judged_ms"] for c in settled["data"]["ranking"]] == [1260, 1300]
    win, late = [e for e in ev if e["kind"] == "smacked"]
    assert win["seat"] == 1 and win["data"]["result"] == "win"
    assert (win["data"]["at_ms"], win["data"]["judged_ms"], win["data"]["reaction_ms"]) == (1340, 1260, 260)
    assert only(ev, "pile_won")["seat"] == 1 and p.state["turn"] == 1
    # "the slowest takes back" on judged time: seat 0 was 40 ms behind, within the grace
    assert late["seat"] == 0 and late["data"]["result"] == "ignored" and late["data"]["behind_ms"] == 40
    assert p.view["race"] is None
    assert p.view["last_smack"] == {"seat": 1, "at_ms": 1340, "reaction_ms": 260, "behind": [{"seat": 0, "ms": 40}]}
    # the race's timer is stale now
    assert p.timer("race:smack:0", 1380) == []


def test_a_claim_beyond_the_cap_loses_even_if_the_player_reacted_faster() -> None:
    # seat 1 is 300 ms of round trip away, the cap is 200: it is compensated 200 and no more
    p = smack_on_top()
    comp = [0, 200, 0]
    ev = p.smack_t(0, 1250, comp)
    assert only(ev, "timer")["data"]["due_ms"] == 1450  # never later than the cap after the first claim
    assert settle_at(p.state["race"]) - 1250 <= max(comp)
    # seat 1 reacted at 1200 on its own clock, its smack arrives at 1200 + 300 = 1500: judged 1300, beyond the window
    ev = p.smack_t(1, 1500, comp)
    assert p.kinds(ev)[:4] == ["race_settled", "smacked", "pile_won", "smacked"]  # settled lazily first
    assert only(ev, "race_settled")["data"]["winner"] == 0
    late = [e for e in ev if e["kind"] == "smacked"][1]
    assert late["seat"] == 1 and late["data"]["result"] == "ignored" and late["data"]["behind_ms"] == 50
    assert late["data"]["judged_ms"] == 1300 and late["data"]["at_ms"] == 1500
    assert not [e for e in ev if e["kind"] == "race_claimed"]  # after the settlement it is no claim


def test_settlement_by_the_timer_when_the_window_closes() -> None:
    p = smack_on_top()
    comp = [0, 120, 30]
    ev = p.smack_t(2, 1400, comp)  # seat 2 (30 ms) claims: judged 1370; seat 1 could still beat it until 1490
    assert only(ev, "timer")["data"] == {"id": "race:smack:0", "due_ms": 1490}
    assert p.timer("race:smack:0", 1489) == []  # a timer early by a millisecond settles nothing
    ev = p.timer("race:smack:0", 1490)
    assert p.kinds(ev) == ["race_settled", "smacked", "pile_won"]
    assert only(ev, "race_settled")["data"]["winner"] == 2 and p.state["turn"] == 2
    # the winner's turn gets a fresh idle timer
    assert [e["data"]["id"] for e in ev if e["kind"] == "timer"] == [p.state["flip_timer"]]
    assert p.timer("race:smack:0", 1600) == []  # stale


def test_lazy_settlement_by_the_next_action_after_the_window() -> None:
    p = smack_on_top()
    comp = [0, 120, 0]
    p.smack_t(0, 1300, comp)  # due 1420
    # the winner's own flip at 1500 arrives before the late timer: the race is settled first, then it flips
    ev = p.flip(0, at=1500)
    assert p.kinds(ev) == ["race_settled", "smacked", "pile_won", "flipped"]
    assert only(ev, "flipped")["seat"] == 0
    assert p.timer("race:smack:0", 1520) == []


def test_an_action_refused_after_the_window_commits_no_settlement() -> None:
    p = smack_on_top()
    p.smack_t(0, 1300, [0, 120, 0])
    before = copy.deepcopy(p.state)
    with pytest.raises(RuleError) as err:
        p.flip(2, at=1500)  # judged against the settled race: seat 0 flips next, not seat 2
    assert err.value.code == "not_your_turn"
    assert p.state == before and p.state["race"] is not None
    assert only(p.timer("race:smack:0", 1500), "race_settled")["data"]["winner"] == 0


def test_all_seats_claimed_settles_at_once() -> None:
    p = smack_on_top()
    comp = [0, 150, 200]
    ev = p.smack_t(0, 1300, comp)  # judged 1300: seats 1 and 2 may still be judged faster
    assert p.kinds(ev) == ["race_claimed"] and only(ev, "timer")["data"]["due_ms"] == 1500
    ev = p.smack_t(1, 1320, comp)  # judged 1170: seat 2 may still beat it until 1370
    assert p.kinds(ev) == ["race_claimed"] and only(ev, "timer")["data"]["due_ms"] == 1370
    ev = p.smack_t(2, 1330, comp)  # judged 1130, and every seat has claimed: nobody left who could be faster
    assert p.kinds(ev)[:2] == ["race_claimed", "race_settled"]
    assert [c["seat"] for c in only(ev, "race_settled")["data"]["ranking"]] == [2, 1, 0]


def test_without_compensation_the_first_smack_wins_at_once() -> None:
    p = smack_on_top()
    ev = p.smack_t(2, 1300, [0, 0, 0])
    assert p.kinds(ev) == ["race_claimed", "race_settled", "smacked", "pile_won"]
    # no Timing at all (bots' models, harnesses) is judged on arrival, the same
    q = smack_on_top()
    ev2 = q.smack(2, at=1300)
    assert [e for e in ev2 if e["kind"] != "timer"] == [e for e in ev if e["kind"] != "timer"]


def test_slower_claimant_beyond_the_grace_forfeits_at_the_settlement() -> None:
    p = Timed([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]], smack_grace_ms=50)
    p.flip(0, at=0)
    p.flip(1, at=1000)
    comp = [0, 100, 100]
    p.smack_t(0, 1300, comp)  # judged 1300; seats 1 and 2 may still be judged faster until 1400
    ev = p.smack_t(2, 1320, comp)  # judged 1220, 80 ms ahead of seat 0; seat 1 may still beat it until 1320
    assert p.kinds(ev)[:2] == ["race_claimed", "race_settled"]
    assert only(ev, "race_settled")["data"]["winner"] == 2
    late = [e for e in ev if e["kind"] == "smacked"][1]
    assert late["seat"] == 0 and late["data"]["result"] == "false"  # 80 ms behind, the grace is 50
    assert only(ev, "forfeited")["seat"] == 0 and p.view["centre"]["count"] == 1


def test_a_second_smack_while_the_own_claim_is_judged_is_refused() -> None:
    p = smack_on_top()
    comp = [0, 120, 0]
    p.smack_t(0, 1300, comp)
    before = copy.deepcopy(p.state)
    with pytest.raises(RuleError) as err:
        p.smack_t(0, 1350, comp)
    assert err.value.code == "already_smacked" and p.state == before


def test_play_stops_while_a_race_is_judged() -> None:
    p = Timed([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]], auto_flip_seconds=1)
    p.flip(0, at=0)
    p.flip(1, at=1000)
    p.smack_t(0, 1300, [0, 200, 0])  # due 1500
    before = copy.deepcopy(p.state)
    for seat, code in ((2, "smack_pending"), (0, "not_your_turn")):
        with pytest.raises(RuleError) as err:
            p.flip(seat, at=1400)
        assert err.value.code == code
    # the idle timer does not flip over a contested card
    assert p.act(None, {"kind": "timer", "id": p.state["flip_timer"]}, at=1450) == []
    assert p.state == before


def test_the_length_limit_settles_a_pending_race_then_ends_the_match() -> None:
    p = Timed([[num(1), num(2)], [S[0], num(3)], [num(4), num(5)]], max_minutes=1)
    p.flip(0, at=59_000)
    p.flip(1, at=59_500)
    p.smack_t(2, 59_900, [0, 200, 0])
    ev = p.act(None, {"kind": "timer", "id": "limit"}, at=60_000)
    assert p.kinds(ev) == ["race_settled", "smacked", "pile_won", "finished"]
    fin = only(ev, "finished")
    assert fin["data"]["reason"] == "time_limit" and fin["data"]["outcome"]["winners"] == [2]


def test_a_race_for_the_last_card_of_a_challenge_round_ends_the_round() -> None:
    # [D15] with a pending race: the round waits for the race, the fastest judged smacker wins it all
    p = Timed([[C[0], S[0], num(1)], [num(30), num(3)], [num(20), num(4)]])
    p.flip(0, at=0)
    p.flip(1, at=100)
    p.flip(2, at=200)
    p.flip(0, at=300)  # the round's last card is a Smack it! card
    comp = [0, 90, 0]
    ev = p.smack_t(2, 600, comp)
    assert p.kinds(ev) == ["race_claimed"] and only(ev, "timer")["data"]["due_ms"] == 690
    assert p.view["challenge"]["active"]  # the round is not settled while the card is raced for
    ev = p.smack_t(1, 640, comp)  # judged 550: faster
    won = only(ev, "pile_won")
    assert won["seat"] == 1 and won["data"]["by"] == "smack" and won["data"]["next"] == 1
    assert not p.view["challenge"]["active"] and p.state["turn"] == 1


def test_a_smack_judged_before_the_card_lay_there_is_no_claim_on_it() -> None:
    # [D19]: judged 30 ms before the flip, the sender could not have seen it: a false smack on what lay there then
    p = smack_on_top()
    ev = p.smack_t(2, 1030, [0, 0, 60])
    assert not [e for e in ev if e["kind"] == "race_claimed"] and p.state["race"] is None
    false = only(ev, "smacked")
    assert false["data"] == {"result": "false", "at_ms": 1030, "judged_ms": 970, "top": DECK[num(1)], "early": True}
    assert only(ev, "forfeited")["seat"] == 2
    assert p.view["centre"]["top"]["face"] == "smack"  # the smack card still waits for its smack
    ev = p.smack_t(0, 1300, [0, 0, 60])
    assert only(ev, "race_claimed")["data"]["claim"]["reaction_ms"] == 300


def test_a_slow_lines_smack_for_the_card_just_won_does_not_win_the_next_smack_card() -> None:
    # The CI failure this rule answers: far (seat 1, 360 ms round trip, compensated 200) smacks the
    # first smack card in reaction to it; near won it, flipped at once, and turned up the next one.
    p = Timed([[S[0], S[1], num(1)], [num(2), num(3)]])
    comp = [0, 200]
    p.flip(0, at=1000)
    p.smack_t(0, 1260, comp)  # near reacted in 260 ms; far may still be judged faster until 1460
    ev = p.timer("race:smack:0", 1460)
    assert only(ev, "race_settled")["data"]["winner"] == 0 and p.state["turn"] == 0
    p.flip(0, at=1462)  # the second smack card
    ev = p.smack_t(1, 1560, comp)  # far's smack for the first card: seen at 1180, sent at 1380, here at 1560
    late = only(ev, "smacked")
    assert late["data"]["result"] == "ignored" and late["data"]["early"] is True and late["data"]["behind_ms"] == 100
    assert p.state["race"] is None and p.view["centre"]["top"]["id"] == S[1]
    ev = p.smack_t(0, 1722, comp)  # near reacts to the second card in 260 ms again
    assert only(ev, "race_claimed")["data"]["claim"]["reaction_ms"] == 260
    ev = p.timer("race:smack:1", 1922)
    assert only(ev, "race_settled")["data"]["winner"] == 0


def test_an_early_false_smack_that_leaves_one_holder_settles_the_pending_race_first() -> None:
    p = Timed([[num(1), num(2)], [S[0]], [num(3)]])
    comp = [0, 0, 200]
    p.flip(0, at=0)
    p.flip(1, at=1000)  # seat 1's last card: it is out, and may still smack
    p.smack_t(0, 1100, comp)  # pending: seat 2 could be judged faster until 1300
    ev = p.smack_t(2, 1150, comp)  # judged 950, before the card: false, and its last card goes
    assert p.kinds(ev) == ["smacked", "forfeited", "turn", "out", "race_settled", "smacked", "pile_won", "finished"]
    assert ev[0]["data"]["early"] is True and ev[0]["data"]["result"] == "false"
    assert only(ev, "race_settled")["data"]["winner"] == 0
    assert only(ev, "finished")["data"]["outcome"]["winners"] == [0]


def test_a_forfeited_smack_card_is_raced_for_from_the_moment_it_lay_there() -> None:
    p = Timed([[num(1), num(2)], [num(3), num(4)], [S[0], num(5)]])
    p.smack_t(2, 50, [0, 0, 0])  # a false smack forfeits the smack card onto the empty centre [D8]
    ev = p.smack_t(1, 400, [0, 0, 0])
    assert only(ev, "race_claimed")["data"]["opened_ms"] == 50
    assert only(ev, "smacked")["data"]["reaction_ms"] == 350


def test_bad_timing_is_refused() -> None:
    p = smack_on_top()
    for bad in (
        Timing(arrival_ms=1300, judged_ms=1400, comp_ms=(0, 0, 0)),  # judged after arrival
        Timing(arrival_ms=1300, judged_ms=1300, comp_ms=(0, 0)),  # not one figure per seat
        {"arrival_ms": 1300},
    ):
        with pytest.raises(RuleError) as err:
            RULES.decide(p.state, 0, {"kind": "smack"}, 1300, RNG, timing=bad)  # type: ignore[arg-type]
        assert err.value.code == "bad_action"


def test_fold_of_the_log_reproduces_every_race() -> None:
    p = smack_on_top()
    comp = [0, 80, 40]
    p.smack_t(0, 1300, comp)
    p.smack_t(2, 1320, comp)
    p.timer("race:smack:0", 1380)
    p.flip(2, at=2000)  # the winner flips next
    stored = json.loads(json.dumps(p.log))
    assert fold_all(RULES, stored) == p.state
    settled = [e for e in stored if e["kind"] == "race_settled"]
    claims = [e["data"]["claim"] for e in stored if e["kind"] == "race_claimed"]
    assert len(settled) == 1 and {(c["arrival_ms"], c["judged_ms"]) for c in claims} == {(1300, 1300), (1320, 1280)}
    assert settled[0]["data"]["winner"] == 2  # why it went this way is in the log: 1280 < 1300


# ----------------------------------------------------------- random play and bots


def timed_harness(seed: int) -> tuple[Any, RandomTimings]:
    rules = RandomTimings(RULES, seed, lambda st: st["seats"])
    return dataclasses.replace(HARNESS, rules=rules), rules


def test_random_play_with_random_timings_keeps_every_invariant() -> None:
    kinds: set[str] = set()
    pending = settled_by_timer = timings = 0
    for seed in range(30):
        harness, rules = timed_harness(seed)
        report = play_random(harness, 2 + seed % 5, 50_000 + seed, max_actions=2500)
        timings += rules.timings
        kinds.update(e["kind"] for e in report.log)
        log = report.log
        for i, e in enumerate(log):
            if e["kind"] == "timer" and e["data"]["id"].startswith("race:"):
                pending += 1
            if e["kind"] == "race_settled" and i and log[i - 1]["kind"] != "race_claimed":
                settled_by_timer += 1  # settled by the timer or lazily by another action
        check_settled_races(log)
    assert timings > 500
    assert {"race_claimed", "race_settled", "smacked", "pile_won", "finished"} <= kinds
    assert pending > 20 and settled_by_timer > 20


def test_bots_cope_with_pending_races() -> None:
    # bots at a table whose other lines are long: their claims pend, and they never smack twice
    names = list(LEVELS)
    for seed in range(40):
        seats = 2 + seed % 5
        rng = random.Random(seed)
        levels = [rng.choice(names) for _ in range(seats)]
        rules = RandomTimings(RULES, seed, lambda st: st["seats"])
        report = play_bots(rules, BOT, levels, 7000 + seed)  # type: ignore[arg-type]
        assert report.rule_errors == 0, (seed, levels)
        assert report.outcome is not None and report.outcome["winners"]
        assert fold_all(RULES, report.log) is not None


# --- a human floor (PROTOCOL "Fair play", rules [D20]) ----------------------------------------------------------


def floored(arrival: int, comp: list[int], seat: int, floor: int) -> Timing:
    return dataclasses.replace(timing(arrival, comp, seat), min_reaction_ms=floor)


def smack_floored(p: Timed, seat: int, at: int, comp: list[int], floor: int) -> list[dict[str, Any]]:
    p.now = at
    events = RULES.decide(p.state, seat, {"kind": "smack"}, at, RNG, timing=floored(at, comp, seat, floor))
    for e in events:
        p.state = RULES.fold(p.state, e)
        p.log.append(e)
    return events


def test_a_smack_8_ms_after_the_card_is_an_anticipation_a_false_smack_and_never_wins() -> None:
    p = smack_on_top()  # the smack card lies on top since 1000
    comp = [0, 0, 0]
    ev = smack_floored(p, 0, 1008, comp, 100)
    claimed = only(ev, "race_claimed")
    assert claimed["data"]["claim"]["anticipated"] is True and claimed["data"]["claim"]["reaction_ms"] == 8
    false = only(ev, "smacked")
    assert false["seat"] == 0 and false["data"]["result"] == "false" and false["data"]["anticipated"] is True
    assert false["data"]["top"]["face"] == "smack", "judged against the smack card it came too early for"
    assert only(ev, "forfeited")["seat"] == 0, "the rulebook's penalty for a false smack: one card"
    settled = only(ev, "race_settled")
    assert settled["data"]["winner"] is None, "a race of anticipations alone has no winner"
    assert p.view["centre"]["top"]["face"] == "smack", "the card stays on top for the others"
    # the honest player reacting 180 ms after the card wins it
    ev = smack_floored(p, 2, 1180, comp, 100)
    win = [e for e in ev if e["kind"] == "smacked"][0]
    assert win["seat"] == 2 and win["data"]["result"] == "win" and win["data"]["reaction_ms"] == 180
    assert "anticipated" not in only(ev, "race_claimed")["data"]["claim"]


def test_an_anticipation_ranks_after_a_slower_real_claim_and_its_seat_cannot_smack_again() -> None:
    p = smack_on_top()  # the smack card lies on top since 1000
    comp = [100, 0, 200]  # seats 0 and 2 are compensated: the race waits for them
    ev = smack_floored(p, 1, 1250, comp, 100)  # a real claim: 250 ms
    assert p.kinds(ev) == ["race_claimed"] and p.state["race"] is not None
    # seat 2 arrives later but is judged first (1260 - 200 = 1060): 60 ms after the card, an anticipation
    ev = smack_floored(p, 2, 1260, comp, 100)
    assert only(ev, "race_claimed")["data"]["claim"]["anticipated"] is True
    false = only(ev, "smacked")
    assert (false["seat"], false["data"]["result"], false["data"]["anticipated"]) == (2, "false", True)
    assert p.state["race"] is not None, "seat 0 could still be judged faster than 1250 until 1350"
    with pytest.raises(RuleError) as err:
        smack_floored(p, 2, 1300, comp, 100)
    assert err.value.code == "already_smacked", "an anticipation is a claim: no free retry in the same race"
    ev = p.timer("race:smack:0", 1350)
    settled = only(ev, "race_settled")
    assert settled["data"]["winner"] == 1, "the anticipation judged first never wins"
    assert [c["seat"] for c in settled["data"]["ranking"]] == [1, 2], "anticipations after every real claim"
    assert [e["seat"] for e in ev if e["kind"] == "smacked"] == [1], "the anticipation paid once, when it came"


def test_a_120_ms_smack_wins_at_a_floor_of_100() -> None:
    p = smack_on_top()
    ev = smack_floored(p, 0, 1120, [0, 0, 0], 100)
    win = only(ev, "smacked")
    assert win["data"]["result"] == "win" and win["data"]["reaction_ms"] == 120
    assert "anticipated" not in only(ev, "race_claimed")["data"]["claim"]


def test_floor_0_disables_it() -> None:
    p = smack_on_top()
    ev = smack_floored(p, 0, 1008, [0, 0, 0], 0)
    win = only(ev, "smacked")
    assert win["seat"] == 0 and win["data"]["result"] == "win" and win["data"]["reaction_ms"] == 8


def test_a_negative_floor_is_a_bad_timing() -> None:
    p = smack_on_top()
    with pytest.raises(RuleError) as err:
        smack_floored(p, 0, 1120, [0, 0, 0], -1)
    assert err.value.code == "bad_action"


def test_a_log_with_anticipations_folds_to_the_same_state() -> None:
    p = smack_on_top()
    smack_floored(p, 0, 1008, [0, 0, 0], 100)
    smack_floored(p, 2, 1180, [0, 0, 0], 100)
    assert fold_all(RULES, json.loads(json.dumps(p.log))) == p.state


def test_an_anticipators_hand_stays_on_the_card_after_its_race_settled() -> None:
    p = smack_on_top()
    smack_floored(p, 0, 1008, [0, 0, 0], 100)  # anticipated, settled at once without a winner
    assert p.state["race"] is None
    with pytest.raises(RuleError) as err:
        smack_floored(p, 0, 1150, [0, 0, 0], 100)  # past the floor now, but the same card: no retry
    assert err.value.code == "already_smacked"
    ev = smack_floored(p, 2, 1180, [0, 0, 0], 100)
    assert [e["data"]["result"] for e in ev if e["kind"] == "smacked"] == ["win"]


@pytest.mark.django_db
def test_table_create_keeps_the_floor_at_ranked_tables() -> None:
    from tests.games.floor_checks import check_floor_on_table_create

    check_floor_on_table_create("smackit", 2)
