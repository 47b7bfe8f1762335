"""The fair-play statistics alone (moderation/fair_play.py): people pass, scripts and fake lag are caught."""

from __future__ import annotations

import math
import random

import pytest

from moderation import fair_play
from moderation.fair_play import Claim, assess, binomial_tail
from tests.moderation.players import SOAK_RACES, fake_lag_claims, person, person_claims, scripted_claims


def test_binomial_tail_matches_the_sum_of_terms() -> None:
    n, p = 30, 0.1
    exact = sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(7, n + 1))
    assert binomial_tail(7, n, p) == pytest.approx(exact, rel=1e-9)
    assert binomial_tail(0, n, p) == 1.0
    assert binomial_tail(31, n, p) == 0.0
    assert binomial_tail(20, 20, 0.5) == pytest.approx(0.5**20)
    assert 0 < binomial_tail(3000, 3000, 0.03) < 1e-300 or binomial_tail(3000, 3000, 0.03) == 0.0  # no overflow


def test_histogram_buckets_every_value_once() -> None:
    h = fair_play.histogram([0, 49, 50, 120, 999, 5000])
    assert sum(b["count"] for b in h) == 6
    assert h[0] == {"from_ms": 0, "to_ms": 50, "count": 2}
    assert h[-1] == {"from_ms": 2000, "to_ms": None, "count": 1}


def test_nothing_but_rtt_inflation_is_judged_before_the_minimum_races() -> None:
    rng = random.Random(1)
    few = scripted_claims(rng, fair_play.MIN_RACES - 1)
    assert assess(few).flagged is False
    assert assess(few, rtt_inflated=fair_play.RTT_INFLATED_FLAG).reasons == ["rtt_inflated"]


def races_until_flagged(claims: list[Claim], rtt_inflated: int = 0) -> int | None:
    for n in range(1, len(claims) + 1):
        if assess(claims[:n], rtt_inflated).flagged:
            return n
    return None


def test_a_scripted_client_is_flagged_at_the_minimum_races_with_reasons_and_evidence() -> None:
    claims = scripted_claims(random.Random(2), 60)
    assert races_until_flagged(claims) == fair_play.MIN_RACES
    record = assess(claims[: fair_play.MIN_RACES])
    assert {"median_below_human", "fast_share"} <= set(record.reasons)
    assert record.judged_median_ms is not None and record.judged_median_ms < 31
    assert record.evidence["histogram"][0]["count"] == fair_play.MIN_RACES  # every reaction under 50 ms
    assert record.evidence["matches"] and record.evidence["round_trips"]["max_ms"] <= 40


def test_a_scripted_client_behind_the_human_floor_is_flagged_for_anticipations_too() -> None:
    record = assess(scripted_claims(random.Random(3), 40, anticipated_under=100))
    assert record.anticipations == 40 and "anticipations" in record.reasons


def test_a_fake_lag_client_is_flagged_with_its_round_trips_in_the_evidence() -> None:
    claims = fake_lag_claims(random.Random(4), 60)
    assert races_until_flagged(claims) == fair_play.MIN_RACES
    record = assess(claims[:40], rtt_inflated=6)
    assert record.reasons[0] == "median_below_human" and "rtt_inflated" in record.reasons
    assert record.evidence["round_trips"]["median_ms"] >= 180


def test_a_fixed_delay_bot_is_flagged_for_its_low_variance() -> None:
    rng = random.Random(5)
    claims = [Claim(match_id=1, reaction_ms=rng.randint(240, 260)) for _ in range(40)]
    assert assess(claims).reasons == ["low_variance"]
    assert assess(claims[:29]).flagged is False  # not before LOW_LOG_SD_MIN_RACES


def test_soak_people_reacting_like_people_are_never_flagged() -> None:
    """SOAK_RACES races (FAIR_PLAY_SOAK_RACES, default 2,000) among simulated people, assessed after every race."""
    rng = random.Random(6)
    flagged: list[tuple[int, list[str]]] = []
    looked = 0
    people = max(1, SOAK_RACES // 100)
    for p in range(people):
        claims = person_claims(rng, person(rng), SOAK_RACES // people)
        for n in range(fair_play.MIN_RACES, len(claims) + 1):
            looked += 1
            record = assess(claims[:n])
            if record.flagged:
                flagged.append((p, record.reasons))
    assert looked > 0
    assert flagged == []


def test_the_slowest_honest_line_and_the_fastest_people_pass() -> None:
    rng = random.Random(7)
    fast = [Claim(match_id=1, reaction_ms=max(1, round(math.exp(rng.gauss(math.log(200), 0.35)))), comp_ms=200) for _ in range(400)]
    assert assess(fast).flagged is False


def test_claims_are_read_from_race_claimed_events_of_one_seat() -> None:
    events = [
        {"kind": "race_claimed", "seat": 1, "data": {"claim": {"reaction_ms": 210, "seat": 1}, "comp_ms": [0, 44]}},
        {"kind": "race_claimed", "seat": 0, "data": {"claim": {"reaction_ms": 9, "seat": 0}, "comp_ms": [0, 44]}},
        {"kind": "race_claimed", "seat": 1, "data": {"claim": {"reaction_ms": 40, "seat": 1, "anticipated": True}, "comp_ms": [0, 50]}},
        {"kind": "race_settled", "seat": None, "data": {}},
        {"kind": "race_claimed", "seat": 1, "data": {"claim": {}}},
    ]
    assert fair_play.claims_of_events(7, 1, events) == [
        Claim(match_id=7, reaction_ms=210, comp_ms=44),
        Claim(match_id=7, reaction_ms=40, comp_ms=50, anticipated=True),
    ]
