"""Seating properties (pure): everyone seated once, table sizes right, repeat meetings minimised."""

from __future__ import annotations

import os
import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import formats, seating
from tournaments.management.commands.bench_seating import simulate

SIM_SEEDS = int(os.environ.get("SEATING_SEEDS", "3"))


def swiss(players: int, rounds: int, size: int, allowed: list[int], seed: int, method: str = "swiss") -> tuple[int, list[list[list[int]]]]:
    """Run a simulated Swiss (random results, bench_seating's simulation); returns (repeated pairs, rounds of tables)."""
    run = simulate(players, rounds, size, seed, method, allowed)
    return run.repeats, run.rounds


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 70), st.integers(2, 6), st.integers(0, 10_000))
def test_everyone_seated_once_at_tables_of_the_right_size(players: int, size: int, seed: int) -> None:
    allowed = list(range(2, size + 1))
    sizes, byes = formats.table_sizes(players, size, allowed)
    rng = random.Random(seed)
    ids = list(range(players))
    met = seating.meetings([rng.sample(ids, min(size, players)) for _ in range(5)], {})
    points = {p: float(rng.randint(0, 6)) for p in ids}
    order = sorted(ids, key=lambda p: -points[p])[: players - byes]
    tables = seating.seat_swiss(order, sizes, met, points, rng)
    assert sorted(len(t) for t in tables) == sorted(sizes)
    assert sorted(p for t in tables for p in t) == sorted(order)
    rr = seating.seat_round_robin(order, sizes, met, rng, restarts=2)
    assert sorted(p for t in rr for p in t) == sorted(order) and sorted(len(t) for t in rr) == sorted(sizes)
    ko = seating.seat_knockout(order, sizes, rng)
    assert sorted(p for t in ko for p in t) == sorted(order) and sorted(len(t) for t in ko) == sorted(sizes)


def test_swiss_repeats_far_fewer_than_random_seating() -> None:
    for seed in range(SIM_SEEDS):
        ours, history = swiss(60, 6, 4, [3, 4], seed)
        rnd, _ = swiss(60, 6, 4, [3, 4], seed, method="random")
        cut, _ = swiss(60, 6, 4, [3, 4], seed, method="cut")
        assert ours <= rnd // 10, (ours, rnd)
        assert ours < cut, (ours, cut)
        for tables in history:
            assert sorted(p for t in tables for p in t) == list(range(1, 61))
            assert all(len(t) == 4 for t in tables)


def test_swiss_seats_leaders_together() -> None:
    """With nothing to avoid, the table of the leaders holds exactly the best four."""
    ids = list(range(16))
    points = {p: float(16 - p) for p in ids}
    tables = seating.seat_swiss(ids, [4] * 4, {}, points)
    assert [sorted(t) for t in tables] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]


def test_swiss_moves_as_little_as_possible_to_avoid_a_repeat() -> None:
    ids = list(range(8))
    points = {p: float(8 - p) for p in ids}
    met = seating.meetings([[0, 1]], {})  # the two leaders met already
    tables = seating.seat_swiss(ids, [4, 4], met, points)
    assert seating.repeated_pairs(tables, met) == 0
    top = next(t for t in tables if 0 in t)
    assert 1 not in top and len(set(top) & {2, 3, 4}) == 3  # the swap partner comes from the next table's top


def test_uneven_field_sizes_and_byes_in_a_whole_swiss() -> None:
    _, history = swiss(13, 4, 4, [3, 4], 1)
    for tables in history:
        assert sorted(len(t) for t in tables) == [3, 3, 3, 4]
    _, history = swiss(9, 3, 4, [4], 1)  # ZIGZAG-like: only 4 allowed, one bye each round
    for tables in history:
        assert [len(t) for t in tables] == [4, 4]


def round_robin(players: int, size: int, seed: int, rounds: int | None = None) -> tuple[dict, dict, list[int]]:
    rng = random.Random(seed)
    allowed = list(range(2, size + 1))
    sizes, _ = formats.table_sizes(players, size, allowed)
    rounds = rounds or formats.round_robin_rounds(players, size, allowed)
    met: dict[int, dict[int, int]] = {}
    random_met: dict[int, dict[int, int]] = {}
    ids = list(range(players))
    for r in range(rounds):
        tables = seating.seat_round_robin(ids, sizes, met, rng, round_index=r)
        assert sorted(p for t in tables for p in t) == ids
        seating.meetings(tables, met)
        seating.meetings(seating.random_seating(ids, sizes, rng), random_met)
    return met, random_met, ids


def pair_counts(met: dict, ids: list[int]) -> list[int]:
    return [met.get(a, {}).get(b, 0) for a, b in combinations(ids, 2)]


def test_round_robin_meets_every_pair_exactly_once_where_a_schedule_allows() -> None:
    # 9 players at tables of 3 in 4 rounds (the affine plane of order 3), pairs at tables of 2.
    for players, size in ((9, 3), (6, 2), (8, 2)):
        met, random_met, ids = round_robin(players, size, seed=players)
        assert set(pair_counts(met, ids)) == {1}, (players, size)
        assert set(pair_counts(random_met, ids)) != {1}


def test_round_robin_every_pair_meets_as_evenly_as_possible() -> None:
    """Meetings as even as random seating never is: a lower sum of squares (the same total),
    at most two apart, and fewer pairs that never meet."""
    never = random_never = 0
    for players, size in ((8, 4), (6, 3), (12, 4), (7, 4), (13, 4), (10, 3), (16, 4)):
        for seed in range(SIM_SEEDS):
            met, random_met, ids = round_robin(players, size, seed)
            ours, theirs = pair_counts(met, ids), pair_counts(random_met, ids)
            assert sum(ours) == sum(theirs)
            assert sum(c * c for c in ours) <= sum(c * c for c in theirs), (players, size, seed)
            assert max(ours) - min(ours) <= 2, (players, size, seed, Counter(ours))
            never, random_never = never + ours.count(0), random_never + theirs.count(0)
    assert never < random_never / 2, (never, random_never)


def test_knockout_snake_spreads_the_seeds() -> None:
    tables = seating.seat_knockout(list(range(16)), [4] * 4)
    assert [t[0] for t in tables] == [0, 1, 2, 3]  # one top seed per table
    assert [sorted(t) for t in tables][0] == [0, 7, 8, 15]


def test_arena_seats_the_longest_waiting_and_waits_for_a_full_table() -> None:
    tables, waiting = seating.seat_arena([5, 1, 2, 3, 4], table_size=4, allowed=[2, 3, 4], points={}, met={}, anyone_playing=True)
    assert sorted(tables[0]) == [1, 2, 3, 5] and waiting == [4]
    tables, waiting = seating.seat_arena([1, 2, 3], table_size=4, allowed=[2, 3, 4], points={}, met={}, anyone_playing=True)
    assert tables == [] and waiting == [1, 2, 3]
    # Nobody else plays: a smaller table starts rather than waiting for ever.
    tables, waiting = seating.seat_arena([1, 2, 3], table_size=4, allowed=[2, 3, 4], points={}, met={}, anyone_playing=False)
    assert sorted(tables[0]) == [1, 2, 3] and waiting == []
    tables, waiting = seating.seat_arena([1, 2, 3], table_size=4, allowed=[4], points={}, met={}, anyone_playing=False)
    assert tables == [] and waiting == [1, 2, 3]
    # Eight waiting: two tables by points, the two who just met kept apart where possible.
    pts = {p: float(p) for p in range(8)}
    tables, waiting = seating.seat_arena(list(range(8)), table_size=4, allowed=[4], points=pts, met={}, anyone_playing=True)
    assert sorted(map(sorted, tables)) == [[0, 1, 2, 3], [4, 5, 6, 7]] and waiting == []
