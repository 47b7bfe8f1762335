"""Zwicker's snap as a fair race: judged time, the lag cap, settlement by timer and lazily.

Three seats: seat 0 is on turn, seats 1 and 2 each hold a 4 that matches
the 4d on the discard pile, and so does seat 0 (its 4h in slot 2).
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from games.engine import RuleError, Timing, event, fold_all, timer_event
from games.zwicker.bot import BOT
from games.zwicker.rules import RULES
from tests.games.race_timings import RandomTimings
from tests.games.zwicker.harness import HARNESS
from tests.games.zwicker.zwicker_helpers import act, c, cid, dealt, grid, kinds
from tests.support.simulate import play_bots, play_random, visible_ids

GRIDS = [["Ac", "9s", "4h", "3d"], ["Jc", "4c", "8h", "Kd"], ["4s", "6h", "7d", "2s"]]


def _log_and_state(grids: list[list[str]] = GRIDS, **options: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    d = dealt(grids, "4d", **options)
    peeks = [event("peeked", p, target=p, slot=i, card=c(grids[p][i]), until_ms=5000) for p in range(len(grids)) for i in (2, 3)]
    log = [d, *peeks, timer_event("look-5000", 5000), event("turn", 0, no=1, final=False), timer_event("turn-1", 60_000)]
    return log, fold_all(RULES, log)


def _claim(
    state: dict[str, Any], seat: int, arrival: int, judged: int, comp: tuple[int, ...], slots: list[int], log: list[Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state, ev = act_timed(state, seat, {"kind": "snap", "slots": slots}, Timing(arrival, judged, comp))
    log.extend(ev)
    return state, ev


def act_timed(state: dict[str, Any], seat: int, action: dict[str, Any], timing: Timing) -> tuple[dict[str, Any], list[Any]]:
    events = RULES.decide(state, seat, action, timing.arrival_ms, random.Random(0), timing=timing)
    for e in events:
        state = RULES.fold(state, e)
    return state, events


def test_snap_is_a_race_action() -> None:
    assert RULES.races == frozenset({"snap"})


def test_claims_arriving_out_of_judged_order_are_settled_by_judged_time() -> None:
    log, s = _log_and_state()
    # seat 1 is near (10 ms), seat 2 is far (150 ms): seat 1's claim arrives first
    s, ev = _claim(s, 1, 1000, 990, (0, 10, 150), [1], log)
    assert kinds(ev) == ["race_claimed", "timer"]
    claim = ev[0]["data"]["claim"]
    assert (claim["seat"], claim["arrival_ms"], claim["judged_ms"], claim["slots"]) == (1, 1000, 990, [1])
    assert ev[0]["data"]["race"] == "snap:1" and ev[0]["data"]["comp_ms"] == [0, 10, 150]
    assert ev[1]["data"]["due_ms"] == 1140  # seat 2 could still be judged faster until 990 + 150
    assert grid(s, 1)[1] == cid("4c") and s["discard"][-1] == cid("4d")  # nothing moved yet: contested
    assert visible_ids(RULES.redact(ev[0], None)) == set()  # a claim shows no card
    assert RULES.view(s, 0)["race"]["claims"][0]["seat"] == 1
    # seat 2 reacted faster but is 150 ms away: it arrives later, judged earlier
    s, ev = _claim(s, 2, 1100, 950, (0, 10, 150), [0], log)
    assert kinds(ev) == ["race_claimed", "race_settled", "snapped", "snap_taken_back"]
    settled = ev[1]["data"]
    assert settled["winner"] == 2 and [c["seat"] for c in settled["ranking"]] == [2, 1]
    assert [(c["arrival_ms"], c["judged_ms"]) for c in settled["ranking"]] == [(1100, 950), (1000, 990)]
    assert ev[2]["seat"] == 2 and ev[2]["data"]["at"] == 950
    assert ev[3]["seat"] == 1 and ev[3]["data"]["first"] == 2
    assert grid(s, 2)[0] is None and grid(s, 1)[1] == cid("4c") and s["discard"][-1] == cid("4s")
    assert s["race"] is None and RULES.view(s, 1)["race"] is None


def test_a_claim_judged_faster_but_beyond_the_cap_loses() -> None:
    log, s = _log_and_state()
    s, ev = _claim(s, 1, 1000, 1000, (0, 0, 200), [1], log)  # seat 2 may be helped by up to 200 ms
    assert ev[1]["data"]["due_ms"] == 1200
    # seat 2's snap arrives after the window closed: whatever it claims, the race is settled first
    s, ev = _claim(s, 2, 1250, 990, (0, 0, 200), [0], log)
    assert kinds(ev) == ["race_settled", "snapped", "snap_taken_back"]
    assert ev[0]["data"]["winner"] == 1 and ev[1]["seat"] == 1
    assert ev[2]["seat"] == 2 and ev[2]["data"]["judged_ms"] == 990
    assert grid(s, 2)[0] == cid("4s")  # taken back, no penalty


def test_a_compensation_is_never_more_than_the_timing_gives() -> None:
    log, s = _log_and_state()
    s, ev = _claim(s, 1, 1000, 1000, (0, 0, 80), [1], log)
    assert ev[1]["data"]["due_ms"] == 1080
    # at 1081 seat 2 is past its bound (80 ms): it cannot join any more, however early it says it was
    s, ev = _claim(s, 2, 1081, 1001, (0, 0, 80), [0], log)
    assert kinds(ev)[:2] == ["race_settled", "snapped"] and ev[0]["data"]["winner"] == 1


def test_settlement_when_the_window_closes_by_its_timer() -> None:
    log, s = _log_and_state()
    s, ev = _claim(s, 1, 1000, 1000, (0, 0, 200), [1], log)
    timer_id = ev[1]["data"]["id"]
    s, ev = act(s, None, {"kind": "timer", "id": timer_id}, now=1200)
    assert kinds(ev) == ["race_settled", "snapped"] and ev[0]["data"]["winner"] == 1
    s, ev = act(s, None, {"kind": "timer", "id": timer_id}, now=1300)  # a repeated timer: nothing
    assert ev == []


def test_an_early_race_timer_asks_again() -> None:
    log, s = _log_and_state()
    s, ev = _claim(s, 1, 1000, 1000, (0, 0, 200), [1], log)
    s, ev = act(s, None, {"kind": "timer", "id": ev[1]["data"]["id"]}, now=1150)
    assert kinds(ev) == ["timer"] and ev[0]["data"]["due_ms"] == 1200 and s["race"] is not None
    s, ev = act(s, None, {"kind": "timer", "id": ev[0]["data"]["id"]}, now=1200)
    assert kinds(ev) == ["race_settled", "snapped"]


def test_lazy_settlement_by_any_later_action() -> None:
    log, s = _log_and_state()
    s, ev = _claim(s, 1, 1000, 1000, (0, 0, 200), [1], log)
    s, ev = act(s, 0, {"kind": "draw"}, now=1100)  # inside the window: the race stays open
    assert kinds(ev) == ["drawn"] and s["race"] is not None
    s, ev = act(s, 2, {"kind": "snap", "slots": [2]}, now=1150)  # a wrong snap is no claim: punished at once
    assert kinds(ev) == ["snap_wrong"] and s["race"] is not None
    s, ev = act(s, 0, {"kind": "discard"}, now=1210)  # the timer is late: the discard settles the race first
    assert kinds(ev)[:3] == ["race_settled", "snapped", "discarded"]
    assert s["discard"][-2] == cid("4c")  # the snap landed before the discard, as it was judged


def test_a_turn_move_inside_the_window_settles_the_race_first() -> None:
    log, s = _log_and_state()
    s, _ = act(s, 0, {"kind": "draw"}, now=500)
    s, ev = _claim(s, 1, 1000, 1000, (0, 0, 200), [1], log)
    s, ev = act(s, 0, {"kind": "discard"}, now=1050)  # play does not stop for a snap race
    assert kinds(ev)[:3] == ["race_settled", "snapped", "discarded"] and s["race"] is None
    # a turn timer too: settle first, then time the turn out
    log, s = _log_and_state()
    s, ev = _claim(s, 1, 59_950, 59_950, (0, 0, 200), [1], log)
    s, ev = act(s, None, {"kind": "timer", "id": "turn-1"}, now=60_000)
    assert kinds(ev)[:3] == ["race_settled", "snapped", "turn_timeout"]


def test_every_seat_claimed_settles_at_once() -> None:
    log, s = _log_and_state()
    comp = (200, 60, 100)
    s, ev = _claim(s, 1, 1000, 940, comp, [1], log)
    assert kinds(ev) == ["race_claimed", "timer"]
    s, ev = _claim(s, 2, 1010, 910, comp, [0], log)
    assert kinds(ev) == ["race_claimed", "timer"] and ev[1]["data"]["due_ms"] == 1110  # seat 0 could be 200 ms away
    s, ev = _claim(s, 0, 1020, 820, comp, [2], log)  # the last seat: nobody is left who could be faster
    assert kinds(ev) == ["race_claimed", "race_settled", "snapped", "snap_taken_back", "snap_taken_back"]
    assert [c["seat"] for c in ev[1]["data"]["ranking"]] == [0, 2, 1] and ev[2]["seat"] == 0


def test_a_seat_whose_claim_is_judged_may_not_snap_again() -> None:
    log, s = _log_and_state()
    s, _ = _claim(s, 1, 1000, 1000, (0, 0, 200), [1], log)
    with pytest.raises(RuleError) as err:
        RULES.decide(s, 1, {"kind": "snap", "slots": [1]}, 1010, random.Random(0))
    assert err.value.code == "snap_pending"


def test_window_zero_lands_every_claim_in_judged_order() -> None:
    log, s = _log_and_state(snap_window_ms=0)
    s, _ = _claim(s, 1, 1000, 1000, (0, 0, 200), [1], log)
    s, ev = _claim(s, 2, 1100, 980, (0, 0, 200), [0], log)
    assert kinds(ev) == ["race_claimed", "race_settled", "snapped", "snapped"]
    assert [e["seat"] for e in ev[2:]] == [2, 1] and s["discard"][-2:] == [cid("4s"), cid("4c")]


def test_reaction_counts_from_when_the_top_discard_appeared() -> None:
    log, s = _log_and_state()
    s, _ = act(s, 0, {"kind": "draw"}, now=100)
    s, ev = act(s, 0, {"kind": "discard"}, now=500)  # the drawn card goes up at 500
    top = s["discard"][-1]
    holder = next((seat, i) for seat in (1, 2) for i, c in enumerate(grid(s, seat)) if c is not None and c % 13 == top % 13)
    s, ev = act_timed(s, holder[0], {"kind": "snap", "slots": [holder[1]]}, Timing(950, 900, (0, 0, 0)))
    assert ev[0]["data"]["opened_ms"] == 500 and ev[0]["data"]["claim"]["reaction_ms"] == 400


def test_after_settlement_the_slowest_takes_back_by_judged_time() -> None:
    log, s = _log_and_state()
    s, _ = _claim(s, 1, 1000, 1000, (0, 0, 0), [1], log)  # settled at once (nobody compensated)
    assert s["race"] is None and s["last_snap"]["at"] == 1000
    s, ev = _claim(s, 2, 2050, 1990, (0, 0, 60), [0], log)  # arrives after the window, judged inside it
    assert kinds(ev) == ["snap_taken_back"] and ev[0]["data"]["judged_ms"] == 1990


def test_fold_of_the_log_reproduces_the_races() -> None:
    log, s = _log_and_state()
    for seat, arrival, judged, slots in ((1, 1000, 990, [1]), (2, 1100, 950, [0])):
        s, _ = _claim(s, seat, arrival, judged, (0, 10, 150), slots, log)
    s2, ev = act(s, 0, {"kind": "draw"}, now=1500)
    log.extend(ev)
    stored = json.loads(json.dumps(log))
    assert fold_all(RULES, stored) == s2
    assert [e["data"]["winner"] for e in stored if e["kind"] == "race_settled"] == [2]


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_random_play_with_random_timings_keeps_every_invariant(seats: int) -> None:
    kinds_seen: set[str] = set()
    finished = timed = 0
    for seed in range(12):
        rules = RandomTimings(HARNESS.rules, seed)  # type: ignore[arg-type]
        report = play_random(dataclasses.replace(HARNESS, rules=rules), seats, seed * 31 + seats, max_actions=400)
        finished += report.finished
        timed += rules.timings
        kinds_seen.update(e["kind"] for e in report.log)
        for e in report.log:
            if e["kind"] == "race_settled":
                ranking = e["data"]["ranking"]
                assert ranking == sorted(ranking, key=lambda c: (c["judged_ms"], c["arrival_ms"], c["seat"]))
                assert all(c["judged_ms"] <= c["arrival_ms"] <= c["judged_ms"] + 200 for c in ranking)  # the cap
    assert finished >= 10 and timed > 50
    assert {"race_claimed", "race_settled", "snapped"} <= kinds_seen
    if seats >= 3:
        assert "snap_taken_back" in kinds_seen


@pytest.mark.parametrize("seats", [2, 4])
def test_bot_matches_with_random_timings_end_without_errors(seats: int) -> None:
    """Bots act through the platform with their own waits; with remote players' timings they still never err."""
    for seed in range(4):
        rules = RandomTimings(RULES, seed)
        levels = [("easy", "normal", "hard")[(seed + s) % 3] for s in range(seats)]
        report = play_bots(rules, BOT, levels, 500 + seed)  # type: ignore[arg-type]
        assert report.rule_errors == 0, (seed, levels)
        assert report.outcome is not None
        assert fold_all(RULES, json.loads(json.dumps(report.log))) == fold_all(RULES, report.log)


def test_a_bot_does_not_snap_again_while_its_claim_is_judged() -> None:
    from games.engine import BotContext
    from tests.support.simulate import redacted_history

    grids = [GRIDS[0], ["Jc", "9d", "4c", "Kd"], ["6h", "7d", "2s", "4s"]]  # the 4s they peeked at
    log, s = _log_and_state(grids)
    s, _ = _claim(s, 1, 1000, 1000, (0, 0, 200), [2], log)
    history = [dict(e, seq=i + 1, t_ms=0) for i, e in enumerate(log)]
    for level in ("easy", "normal", "hard"):
        ctx = BotContext(seat=1, level=level, view=RULES.view(s, 1), history=redacted_history(RULES, history, 1), now_ms=1010)
        move = BOT.choose(ctx, random.Random(0))
        assert move is None or move.action["kind"] != "snap"
        # seat 2, which has not claimed, may still snap its 4 into the open race
        ctx2 = BotContext(seat=2, level=level, view=RULES.view(s, 2), history=redacted_history(RULES, history, 2), now_ms=1010)
        move2 = BOT.choose(ctx2, random.Random(0))
        assert move2 is not None and move2.action == {"kind": "snap", "slots": [3]}


# --- a human floor (PROTOCOL "Fair play", rules [D floor]) ------------------------------------------------------


def _floored(state: dict[str, Any], seat: int, at: int, slots: list[int], floor: int, comp: tuple[int, ...] = (0, 0, 0)):
    return act_timed(state, seat, {"kind": "snap", "slots": slots}, Timing(at, at - comp[seat], comp, min_reaction_ms=floor))


def test_a_snap_8_ms_after_the_discard_is_an_anticipation_and_a_wrong_snap() -> None:
    _, s = _log_and_state()
    top = s["top_ms"]
    drawn = len(s["draw"])
    s, ev = _floored(s, 1, top + 8, [1], 100)
    claim = ev[0]["data"]["claim"]
    assert ev[0]["kind"] == "race_claimed" and claim["anticipated"] is True and claim["reaction_ms"] == 8
    wrong = [e for e in ev if e["kind"] == "snap_wrong"]
    assert len(wrong) == 1 and wrong[0]["data"]["anticipated"] is True and wrong[0]["data"]["penalty"] is not None
    assert [e for e in ev if e["kind"] == "race_settled"][0]["data"]["winner"] is None
    assert not [e for e in ev if e["kind"] == "snapped"], "an anticipation never lands"
    assert grid(s, 1)[1] == cid("4c") and len(grid(s, 1)) == 5 and len(s["draw"]) == drawn - 1, "cards back, one penalty card"
    assert s["discard"][-1] == cid("4d")


def test_an_anticipation_judged_first_never_lands_and_the_real_snap_wins() -> None:
    _, s = _log_and_state()
    top = s["top_ms"]
    comp = (0, 0, 250)
    s, ev = _floored(s, 1, top + 300, [1], 100, comp)  # real: 300 ms; the race waits for seat 2 (until 550)
    assert kinds(ev) == ["race_claimed", "timer"]
    s, ev = _floored(s, 2, top + 320, [0], 100, comp)  # arrives later, judged 70 ms after the card: an anticipation
    assert ev[0]["data"]["claim"]["anticipated"] is True
    assert kinds(ev) == ["race_claimed", "snap_wrong", "race_settled", "snapped"], "seat 0 could not be faster: settled"
    settled = [e for e in ev if e["kind"] == "race_settled"][0]["data"]
    assert settled["winner"] == 1 and [c["seat"] for c in settled["ranking"]] == [1, 2], "anticipations last"
    assert [e["seat"] for e in ev if e["kind"] == "snapped"] == [1]
    assert grid(s, 2)[0] == cid("4s") and grid(s, 1)[1] is None, "the anticipation's card went back"


def test_a_snap_120_ms_after_the_discard_lands_at_a_floor_of_100() -> None:
    _, s = _log_and_state()
    s, ev = _floored(s, 1, s["top_ms"] + 120, [1], 100)
    assert "anticipated" not in ev[0]["data"]["claim"]
    assert [e["seat"] for e in ev if e["kind"] == "snapped"] == [1]


def test_floor_0_disables_it_for_snaps() -> None:
    _, s = _log_and_state()
    s, ev = _floored(s, 1, s["top_ms"] + 8, [1], 0)
    assert [e["seat"] for e in ev if e["kind"] == "snapped"] == [1]


@pytest.mark.django_db
def test_table_create_keeps_the_floor_at_ranked_tables() -> None:
    from tests.games.floor_checks import check_floor_on_table_create

    check_floor_on_table_create("zwicker", 3)
