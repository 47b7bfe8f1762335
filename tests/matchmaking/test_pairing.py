"""Who sits together (matchmaking/pairing.py, pure): nearest ratings first, bands widening with the wait."""

from __future__ import annotations

import random

from matchmaking.pairing import BAND_BASE, BAND_PER_SECOND, Waiting, band, groups


def ids(found: list[list[Waiting]]) -> list[list[int]]:
    return [[w.user_id for w in g] for g in found]


def test_nearest_ratings_are_seated_first() -> None:
    waiting = [Waiting(1, 1500, 0), Waiting(2, 1900, 0), Waiting(3, 1540, 0), Waiting(4, 1950, 0)]
    assert ids(groups(waiting, 2)) == [[1, 3], [2, 4]]


def test_a_wide_gap_waits_until_the_bands_have_widened() -> None:
    gap = 600.0
    seconds = (gap - BAND_BASE) / BAND_PER_SECOND
    assert groups([Waiting(1, 1500, 0), Waiting(2, 1500 + gap, 0)], 2) == []
    # both must accept: one long wait is not enough while the other has just come
    assert groups([Waiting(1, 1500, seconds + 1), Waiting(2, 1500 + gap, 0)], 2) == []
    assert ids(groups([Waiting(1, 1500, seconds + 1), Waiting(2, 1500 + gap, seconds)], 2)) == [[1, 2]]
    assert band(0) == BAND_BASE


def test_tables_of_four_and_the_rest_waits() -> None:
    waiting = [Waiting(i, 1500 + 10 * i, 0) for i in range(7)]
    found = groups(waiting, 4)
    assert len(found) == 1 and len(found[0]) == 4


def test_every_player_is_seated_at_most_once_and_each_group_within_its_bands() -> None:
    rng = random.Random(3)
    for _ in range(200):
        seats = rng.choice([2, 3, 4])
        waiting = [Waiting(i, rng.gauss(1500, 200), rng.uniform(0, 60)) for i in range(rng.randint(0, 20))]
        found = groups(waiting, seats)
        seated = [w.user_id for g in found for w in g]
        assert len(seated) == len(set(seated))
        for g in found:
            spread = max(w.rating for w in g) - min(w.rating for w in g)
            assert len(g) == seats and all(spread <= band(w.waited_s) for w in g)


def test_players_who_keep_apart_are_never_grouped_and_the_next_nearest_takes_the_place() -> None:
    waiting = [Waiting(1, 1500, 0), Waiting(2, 1505, 0), Waiting(3, 1510, 0), Waiting(4, 1515, 0)]
    apart = {frozenset((1, 2))}
    found = ids(groups(waiting, 2, apart))
    assert len(found) == 2 and all(sorted(g) != [1, 2] for g in found)
    assert sorted(u for g in found for u in g) == [1, 2, 3, 4]  # nobody is left waiting for it
    assert groups([Waiting(1, 1500, 0), Waiting(2, 1500, 600)], 2, {frozenset((1, 2))}) == []  # no wait is long enough


def test_no_group_holds_a_pair_that_keeps_apart() -> None:
    rng = random.Random(5)
    for _ in range(200):
        seats = rng.choice([2, 3, 4])
        waiting = [Waiting(i, rng.gauss(1500, 100), rng.uniform(0, 60)) for i in range(rng.randint(0, 16))]
        apart = {frozenset(rng.sample(range(16), 2)) for _ in range(rng.randint(0, 10))}
        for g in groups(waiting, seats, apart):
            members = [w.user_id for w in g]
            assert len(g) == seats
            assert not any(frozenset((a, b)) in apart for i, a in enumerate(members) for b in members[i + 1 :])
