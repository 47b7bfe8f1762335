"""ZIGZAG fair races: a take from the centre is judged by reaction time, not by arrival.

Every scenario is built by hand: the platform's `Timing` is written out (arrival = now, judged =
arrival minus the sender's capped round trip, `comp_ms` per seat), so each test knows who must win.
The random part plays whole matches with random round trips (tests/games/zigzag/race_driver.py) and
checks every invariant of the generic random play (tests/support/simulate.py) plus the race's own after every event.
"""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

import pytest

from games.engine import RuleError, Timing, fold_all
from games.kit.races import settle_at
from games.zigzag.rules import RULES
from tests.games.zigzag.race_driver import play_random_timed
from tests.games.zigzag.zigzag_helpers import (
    NONE_A,
    NONE_B,
    NONE_C,
    NONE_D,
    STOP_A,
    STOP_C,
    STOP_L,
    ZIG_PINK,
    act,
    deal_events,
    kinds,
    open_all,
    table,
)

GAMES = int(os.environ.get("RANDOM_GAMES", "16"))


def timing(seat: int, now: int, comp: tuple[int, ...]) -> Timing:
    """What the platform hands decide: judged = arrival minus the claimer's (capped) round trip."""
    return Timing(arrival_ms=now, judged_ms=now - comp[seat], comp_ms=comp)


def claim(state: Any, seat: int, action: dict[str, Any], now: int, comp: tuple[int, ...]) -> tuple[list[Any], Any]:
    events = RULES.decide(state, seat, action, now, random.Random(0), timing=timing(seat, now, comp))
    for e in events:
        state = RULES.fold(state, e)
    return events, state


def refused(
    state: Any, seat: int | None, action: dict[str, Any], now: int, code: str, comp: tuple[int, ...] | None = None
) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as info:
        t = None if comp is None or seat is None else timing(seat, now, comp)
        RULES.decide(state, seat, action, now, random.Random(0), timing=t)
    assert info.value.code == code, info.value
    assert state == before


def opened() -> Any:
    """Everyone opened at 1000 ms: the centre holds the four discarded first cards, each there since 1000."""
    return open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D]))


WANTED = NONE_D[0]  # seat 3's discard, in the centre since 1000 ms


def swap(state: Any, seat: int, take: int = WANTED) -> dict[str, Any]:
    return {"kind": "exchange", "give": state["hands"][seat][1], "take": take}


def test_races_are_the_takes_from_the_centre() -> None:
    assert RULES.races == frozenset({"exchange", "stop", "z"})


def test_without_compensation_the_first_claim_wins_at_once_as_before() -> None:
    state = opened()
    plain = RULES.decide(state, 1, swap(state, 1), 2000, random.Random(0))
    events, after = claim(state, 1, swap(state, 1), 2000, (0, 0, 0, 0))
    assert events == plain and kinds(events) == ["exchanged"]  # the move alone: nothing to judge
    assert WANTED in after["hands"][1] and after["races"] == []
    refused(after, 2, swap(after, 2), 2001, "gone")  # the second taker, as today
    # the same when the others' lines are slower than the claimer's: nobody could still be judged faster
    events, _ = claim(state, 1, swap(state, 1), 2000, (30, 120, 60, 90))
    assert kinds(events) == ["exchanged"]


def test_claims_arriving_out_of_judged_order_are_settled_by_judged_time() -> None:
    state = opened()
    comp = (0, 10, 120, 0)  # seat 2 plays over a slow line (its measured round trip, under the cap)
    give1, give2 = state["hands"][1][1], state["hands"][2][1]
    first, state = claim(state, 1, swap(state, 1), 2000, comp)
    # seat 1 arrives first, judged 1990; seat 2 could still be judged faster until 1990 + 120
    assert kinds(first) == ["race_claimed", "timer"]
    assert first[1]["data"] == {"id": f"race:{first[0]['data']['race']}", "due_ms": 2110}
    view1 = RULES.view(state, 1)
    assert view1["claim"] == {"race": first[0]["data"]["race"], "take": WANTED}
    assert [c["id"] for c in view1["centre"]] == state["centre"] and WANTED in state["centre"]  # still on the table
    assert RULES.view(state, None)["races"] == [
        {"id": first[0]["data"]["race"], "take": WANTED, "claimants": [1], "opened_ms": 1000}
    ]
    assert give1 in state["hands"][1]  # the hand is unchanged while the take is judged
    # seat 2's claim arrives 60 ms later but was made 50 ms earlier (judged 1940)
    second, state = claim(state, 2, swap(state, 2), 2060, comp)
    assert kinds(second) == ["race_claimed", "race_settled", "exchanged"]  # nobody left who could be faster
    settled = second[1]["data"]
    assert settled["winner"] == 2 and [c["seat"] for c in settled["ranking"]] == [2, 1]
    assert [(c["arrival_ms"], c["judged_ms"]) for c in settled["ranking"]] == [(2060, 1940), (2000, 1990)]
    assert WANTED in state["hands"][2] and give2 in state["centre"]
    assert give1 in state["hands"][1] and WANTED not in state["hands"][1]  # the loser keeps its card
    assert state["races"] == [] and RULES.view(state, 1)["claim"] is None


def test_a_claim_beyond_the_window_loses_however_fast_it_says_it_was() -> None:
    state = opened()
    comp = (0, 0, 100, 0)  # the cap bounds every compensation; seat 2's window closes at 2100
    _, state = claim(state, 1, swap(state, 1), 2000, comp)
    race = state["races"][0]
    assert settle_at(race) == 2100 <= 2000 + max(comp)
    # a claim arriving after the window: its judged time (1950 with a compensation over the cap) does not count
    refused(state, 2, swap(state, 2), 2150, "gone", comp=(0, 0, 200, 0))
    # and the next action settles the race for seat 1 first (lazily): the timer may be late
    events, state = act(state, 3, {"kind": "signal", "sign": "zig"}, now_ms=2150)
    assert kinds(events) == ["race_settled", "exchanged", "signalled"]
    assert events[0]["data"]["winner"] == 1 and WANTED in state["hands"][1]


def test_the_timer_settles_a_race_when_its_window_closes_then_is_stale() -> None:
    state = opened()
    first, state = claim(state, 1, swap(state, 1), 2000, (0, 0, 0, 150))
    tid = first[1]["data"]["id"]
    assert first[1]["data"]["due_ms"] == 2150
    events, state = act(state, None, {"kind": "timer", "id": tid}, now_ms=2150)
    assert kinds(events) == ["race_settled", "exchanged"]
    assert WANTED in state["hands"][1]
    assert state["timer"]["id"] == "tour:1:1"  # a race's timer is not the tour's
    assert RULES.decide(state, None, {"kind": "timer", "id": tid}, 2200, random.Random(0)) == []


def test_every_seat_claimed_settles_at_once() -> None:
    state = opened()
    comp = (20, 40, 60, 80)  # each later claim comes over a slower line: until the last, someone could still be faster
    for seat, now in ((0, 2000), (1, 2010), (2, 2020)):
        events, state = claim(state, seat, swap(state, seat), now, comp)
        assert kinds(events) == ["race_claimed", "timer"]
    events, state = claim(state, 3, swap(state, 3), 2030, comp)
    assert kinds(events) == ["race_claimed", "race_settled", "exchanged"]
    # judged: 1980, 1970, 1960, 1950: the last arrival was the fastest
    assert [c["seat"] for c in events[1]["data"]["ranking"]] == [3, 2, 1, 0]
    assert WANTED in state["hands"][3]


def test_a_tie_in_judged_time_goes_to_the_earlier_arrival() -> None:
    state = opened()
    _, state = claim(state, 1, swap(state, 1), 2000, (0, 0, 50, 0))  # open until 2050
    events, state = claim(state, 2, swap(state, 2), 2049, (0, 0, 49, 0))  # judged 2000 too
    ranking = events[1]["data"]["ranking"]
    assert [(c["seat"], c["judged_ms"]) for c in ranking] == [(1, 2000), (2, 2000)]
    assert events[1]["data"]["winner"] == 1 and WANTED in state["hands"][1]


def test_nobody_is_judged_before_the_card_was_in_the_centre() -> None:
    state = opened()
    comp = (0, 0, 500, 0)  # a round trip that would put the claim before the card came (1000)
    _, state = claim(state, 1, swap(state, 1), 1100, comp)
    events, state = claim(state, 2, swap(state, 2), 1200, comp)
    ranking = events[1]["data"]["ranking"]
    assert ranking[0]["seat"] == 2 and ranking[0]["judged_ms"] == 1000 and ranking[0]["reaction_ms"] == 0


def test_one_claim_at_a_time_and_a_pass_waits_for_the_judgement() -> None:
    state = opened()
    comp = (0, 0, 0, 100)
    _, state = claim(state, 1, swap(state, 1), 2000, comp)
    other = state["centre"][0]
    refused(state, 1, swap(state, 1, other), 2010, "claim_pending", comp=comp)
    refused(state, 1, {"kind": "pass"}, 2010, "claim_pending")
    # others may race for other cards meanwhile: a race per card
    events, state = claim(state, 2, swap(state, 2, other), 2020, comp)
    assert len(state["races"]) == 2 and {r["take"] for r in state["races"]} == {WANTED, other}
    # once seat 1's window is over, its next move is judged on the table the settlements leave
    events, state = act(state, 1, {"kind": "pass"}, now_ms=2200)
    assert kinds(events) == ["race_settled", "exchanged", "race_settled", "exchanged", "passed"]
    assert WANTED in state["hands"][1] and other in state["hands"][2]


def test_a_pass_does_not_end_the_tour_while_a_passed_players_take_is_judged() -> None:
    state = opened()
    comp = (0, 0, 0, 100)
    for s in (0, 1, 2):
        _, state = act(state, s, {"kind": "pass"}, now_ms=1500)
    _, state = claim(state, 2, swap(state, 2), 2000, comp)  # seat 2 passed, then reached for a card
    events, state = act(state, 3, {"kind": "pass"}, now_ms=2010)
    assert kinds(events) == ["passed"]  # not the end of the tour: seat 2 is still playing it
    events, state = act(state, None, {"kind": "timer", "id": f"race:{state['races'][0]['id']}"}, now_ms=2100)
    assert kinds(events) == ["race_settled", "exchanged"] and state["passed"] == [True, True, False, True]


def test_an_announcement_a_counter_and_the_tour_timer_settle_every_open_race_first() -> None:
    comp = (0, 0, 0, 100)
    for action in ({"kind": "announce", "combo": "zig"}, {"kind": "counter", "team": 0}):
        state = opened()
        _, state = claim(state, 1, swap(state, 1), 2000, comp)
        seat = 0 if action["kind"] == "announce" else 1
        events, state = act(state, seat, action, now_ms=2010)
        assert kinds(events)[:2] == ["race_settled", "exchanged"], action
        assert events[0]["data"]["winner"] == 1
    state = opened()
    _, state = claim(state, 1, swap(state, 1), 2000, comp)
    events, state = act(state, None, {"kind": "timer", "id": "tour:1:1"}, now_ms=2010)
    assert kinds(events)[:3] == ["race_settled", "exchanged", "tour_ended"]
    assert WANTED in state["hands"][1]


def test_a_stop_being_laid_counts_against_the_limit_of_two() -> None:
    hands = [[STOP_L, *NONE_A[1:]], [STOP_C, *NONE_B[1:]], [STOP_A, *NONE_C[1:]], NONE_D]
    state = open_all(table(hands), [3])
    for s in (0, 1, 2):
        _, state = act(state, s, {"kind": "open", "card": state["hands"][s][1]})
    comp = (0, 0, 0, 100)
    _, state = claim(state, 0, {"kind": "stop", "card": STOP_L, "target": 1, "take": state["centre"][0]}, 2000, comp)
    _, state = act(state, 0, {"kind": "pass"}, now_ms=2200)  # settled: one STOP before seat 1
    _, state = claim(state, 2, {"kind": "stop", "card": STOP_A, "target": 1, "take": state["centre"][1]}, 3000, comp)
    assert state["stops"][1] == [STOP_L] and len(state["races"]) == 1  # the second one is still being laid
    # a third STOP before seat 1 while the second is judged: refused as the limit
    hands_state = copy.deepcopy(state)
    hands_state["hands"][0] = [STOP_C, *hands_state["hands"][0][1:]]
    refused(
        hands_state, 0, {"kind": "stop", "card": STOP_C, "target": 1, "take": state["centre"][2]}, 3010, "stop_limit", comp=comp
    )


@pytest.mark.parametrize("seen", [False, True])
def test_a_sign_riding_on_a_take_waits_in_the_claim_and_rides_on_the_move_that_wins(seen: bool) -> None:
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D], options={"signals_seen": seen}))
    comp = (0, 0, 0, 100)
    plain, p_after = claim(state, 0, swap(state, 0), 2000, comp)
    signed, s_after = claim(state, 0, {**swap(state, 0), "sign": "zag"}, 2000, comp)
    assert signed[0]["data"]["pending_signal"] == {"sign": "zag", "partner": 2, "public": seen}
    assert s_after["signals"][0] is None  # not made yet: it describes the hand the take would leave
    for seat in (1, 3, None):  # outsiders: the bytes of an unsigned claim
        assert json.dumps([RULES.redact(e, seat) for e in signed]) == json.dumps([RULES.redact(e, seat) for e in plain])
        assert json.dumps(RULES.view(s_after, seat)) == json.dumps(RULES.view(p_after, seat))
    assert RULES.redact(signed[0], 2)["data"]["pending_signal"]["sign"] == "zag"
    assert "move" not in RULES.redact(signed[0], 2)["data"]  # the partner does not see my hand either
    assert RULES.redact(signed[0], 0)["data"]["move"]["give"]["id"] == state["hands"][0][1]
    # the claim wins: the sign rides on the exchange, as new as the hand it made
    events, s_after = act(s_after, None, {"kind": "timer", "id": signed[1]["data"]["id"]}, now_ms=2100)
    assert events[-1]["kind"] == "exchanged" and events[-1]["data"]["signal"]["sign"] == "zag"
    assert s_after["signals"][0]["at"] == s_after["changed_at"][0] == s_after["clock"]
    # a claim that loses makes no sign
    _, lost = claim(state, 0, {**swap(state, 0), "sign": "zig"}, 2000, comp)
    events, lost = claim(lost, 3, swap(lost, 3), 2050, (0, 0, 0, 100))  # judged 1950: faster
    assert events[-2]["data"]["winner"] == 3 and "signal" not in events[-1]["data"] and lost["signals"][0] is None


def test_a_losing_claim_shows_nobody_the_card_it_would_have_given() -> None:
    state = opened()
    comp = (0, 0, 0, 100)
    give = state["hands"][1][1]
    first, state = claim(state, 1, swap(state, 1), 2000, comp)
    second, state = claim(state, 3, swap(state, 3), 2050, comp)
    assert second[1]["data"]["winner"] == 3
    for seat in (0, 2, 3, None):
        for e in [*first, *second]:
            red = RULES.redact(e, seat)
            assert give not in {c["id"] for c in _cards(red)}, (seat, e["kind"])
    assert give in state["hands"][1]


def _cards(obj: Any) -> list[dict[str, Any]]:
    from tests.support.simulate import iter_cards

    return list(iter_cards(obj))


def test_the_log_refolds_to_the_same_state_and_survives_json() -> None:
    log = [dict(e) for e in deal_events([ZIG_PINK, NONE_B, NONE_C, NONE_D])]
    state = fold_all(RULES, log)
    comp = (0, 30, 90, 0)
    for s in range(4):
        events = RULES.decide(state, s, {"kind": "open", "card": state["hands"][s][0]}, 1000, random.Random(0))
        for e in events:
            state = RULES.fold(state, e)
        log += events
    steps = [(1, 2000, WANTED), (2, 2030, WANTED), (0, 2040, None), (3, 2500, None)]
    for seat, now, take in steps:
        take = take if take is not None else state["centre"][0]
        if seat == 3:
            events = RULES.decide(state, None, {"kind": "timer", "id": "tour:1:1"}, now, random.Random(0))
        else:
            events = RULES.decide(state, seat, swap(state, seat, take), now, random.Random(0), timing=timing(seat, now, comp))
        for e in events:
            state = RULES.fold(state, e)
        log += events
    assert "race_settled" in kinds(log)
    again = fold_all(RULES, json.loads(json.dumps(log)))
    assert again == state and json.loads(json.dumps(state)) == state


@pytest.mark.parametrize("seats", (4, 6))
def test_random_play_with_random_round_trips_keeps_every_invariant(seats: int) -> None:
    pending = settled = contested = finished = 0
    games = max(2, GAMES // 4)
    for i in range(games):
        report = play_random_timed(seats, seed=70_000 + 100 * seats + i, max_actions=800)
        pending += report.pending
        settled += report.settled
        contested += report.contested
        finished += report.finished
    assert pending > 0 and contested > 0 and settled > 0, (pending, contested, settled)
    assert finished >= games * 0.3, f"only {finished} of {games} random games finished"


# --- a human floor (PROTOCOL "Fair play", rules [D floor]) ------------------------------------------------------


def floored(state: Any, seat: int, action: dict[str, Any], now: int, comp: tuple[int, ...], floor: int) -> tuple[list[Any], Any]:
    t = Timing(arrival_ms=now, judged_ms=now - comp[seat], comp_ms=comp, min_reaction_ms=floor)
    events = RULES.decide(state, seat, action, now, random.Random(0), timing=t)
    for e in events:
        state = RULES.fold(state, e)
    return events, state


def test_a_take_8_ms_after_the_card_came_is_an_anticipation_and_refused() -> None:
    state = opened()  # WANTED lies in the centre since 1000
    hand = list(state["hands"][0])
    events, state = floored(state, 0, swap(state, 0), 1008, (0, 0, 0, 0), 100)
    assert kinds(events) == ["race_claimed", "race_settled"], "never the bare move"
    assert events[0]["data"]["claim"]["anticipated"] is True and events[0]["data"]["claim"]["reaction_ms"] == 8
    assert events[1]["data"]["winner"] is None
    assert state["hands"][0] == hand and WANTED in state["centre"], "the card stays, the claimer keeps its cards"
    # a person's take a little later gets it
    events, state = floored(state, 1, swap(state, 1), 1180, (0, 0, 0, 0), 100)
    assert kinds(events) == ["exchanged"] and WANTED in state["hands"][1]


def test_an_anticipation_judged_first_ranks_last_and_the_real_claim_takes_the_card() -> None:
    state = opened()
    comp = (0, 200, 0, 0)
    events, state = floored(state, 0, swap(state, 0), 1250, comp, 100)  # real, 250 ms; waits for seat 1
    assert kinds(events) == ["race_claimed", "timer"]
    events, state = floored(state, 1, swap(state, 1), 1260, comp, 100)  # judged 1060: 60 ms, an anticipation
    assert events[0]["data"]["claim"]["anticipated"] is True
    settled = [e for e in events if e["kind"] == "race_settled"][0]["data"]
    assert settled["winner"] == 0 and [c["seat"] for c in settled["ranking"]] == [0, 1]
    assert WANTED in state["hands"][0] and WANTED not in state["hands"][1]


def test_a_take_120_ms_after_the_card_came_wins_at_a_floor_of_100() -> None:
    state = opened()
    events, state = floored(state, 0, swap(state, 0), 1120, (0, 0, 0, 0), 100)
    assert kinds(events) == ["exchanged"] and WANTED in state["hands"][0]


def test_floor_0_disables_it_for_takes() -> None:
    state = opened()
    events, state = floored(state, 0, swap(state, 0), 1008, (0, 0, 0, 0), 0)
    assert kinds(events) == ["exchanged"]


def test_an_anticipator_cannot_reach_for_the_same_card_again() -> None:
    state = opened()
    _, state = floored(state, 0, swap(state, 0), 1008, (0, 0, 0, 0), 100)
    refused(state, 0, swap(state, 0), 1150, "anticipated", (0, 0, 0, 0))
    events, state = floored(state, 1, swap(state, 1), 1180, (0, 0, 0, 0), 100)
    assert kinds(events) == ["exchanged"]


@pytest.mark.django_db
def test_table_create_keeps_the_floor_at_ranked_tables() -> None:
    from tests.games.floor_checks import check_floor_on_table_create

    check_floor_on_table_create("zigzag", 4)


def test_a_card_the_seat_anticipated_is_not_offered_to_it_again() -> None:
    """The legal list holds what the rules accept (punished mistakes included), never what they refuse: a take
    of a card its seat already anticipated is refused (`anticipated`), so it leaves that seat's list, and only
    that card, only for that seat. Asked before the anticipation too: the memoised list must not go stale."""

    def takes(state: Any, seat: int) -> set[int]:
        return {a["take"] for a in RULES.legal_actions(state, seat) if "take" in a}

    state = opened()
    assert WANTED in takes(state, 0)
    _, state = floored(state, 0, swap(state, 0), 1008, (0, 0, 0, 0), 100)
    assert WANTED not in takes(state, 0)
    assert takes(state, 0) == set(state["centre"]) - {WANTED}
    assert WANTED in takes(state, 1)
    assert all(a.get("take") != WANTED for a in RULES.view(state, 0)["legal"])
    for action in RULES.legal_actions(state, 0):  # whatever is listed is accepted (or punished), not refused
        if action.get("take") is not None and action["kind"] == "exchange":
            RULES.decide(state, 0, action, 1150, random.Random(0), timing=timing(0, 1150, (0, 0, 0, 0)))
