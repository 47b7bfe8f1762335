"""Pure arithmetic of tournaments: table sizes, points by place, knockout advancement."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import formats


@pytest.mark.parametrize(
    ("field", "size", "allowed", "sizes", "byes"),
    [
        (12, 4, [3, 4], [4, 4, 4], 0),
        (13, 4, [3, 4], [4, 3, 3, 3], 0),  # one table smaller would need a 1-seat table: spread instead
        (14, 4, [3, 4], [4, 4, 3, 3], 0),
        (5, 4, [3, 4], [4], 1),  # 5 cannot be split into 3s and 4s: one bye
        (5, 4, [2, 3, 4], [3, 2], 0),
        (9, 4, [4], [4, 4], 1),  # ZIGZAG at 4: one bye
        (10, 6, [4, 6], [6, 4], 0),  # ZIGZAG: 6 + 4
        (7, 6, [4, 6], [6], 1),
        (2, 4, [3, 4], [], 2),
    ],
)
def test_table_sizes(field: int, size: int, allowed: list[int], sizes: list[int], byes: int) -> None:
    assert formats.table_sizes(field, size, allowed) == (sizes, byes)


@given(st.integers(0, 200), st.integers(2, 6), st.sets(st.integers(2, 6), min_size=1))
def test_table_sizes_seat_everyone_but_the_byes(field: int, size: int, allowed: set[int]) -> None:
    sizes, byes = formats.table_sizes(field, size, allowed)
    assert sum(sizes) + byes == field
    assert all(s in allowed and s <= size for s in sizes)
    usable = [s for s in allowed if s <= size]
    if usable and field >= max(usable) * min(usable):
        assert byes == 0 or byes < min(usable)  # any large field splits with fewer byes than a table
    assert sizes == sorted(sizes, reverse=True)


def test_points_by_place_last_zero_each_place_above_more() -> None:
    assert formats.place_points([1, 2, 3, 4], teams=False, full_units=4) == [3, 2, 1, 0]
    assert formats.place_points([4, 3, 2, 1], teams=False, full_units=4) == [0, 1, 2, 3]


def test_shared_places_share_the_points() -> None:
    # Competition ranking (1, 1, 3, 4) and dense ranking (1, 1, 2, 3) mean the same.
    assert formats.place_points([1, 1, 3, 4], teams=False, full_units=4) == [2.5, 2.5, 1, 0]
    assert formats.place_points([1, 1, 2, 3], teams=False, full_units=4) == [2.5, 2.5, 1, 0]
    assert formats.place_points([2, 1, 2, 2], teams=False, full_units=4) == [1, 3, 1, 1]
    assert formats.place_points([None, None, None], teams=False, full_units=3) == [1, 1, 1]  # aborted: all share


def test_smaller_table_is_scaled_to_the_same_range() -> None:
    three = formats.place_points([1, 2, 3], teams=False, full_units=4)
    assert three == [3, 1.5, 0]
    assert sum(three) / 3 == sum(formats.place_points([1, 2, 3, 4], teams=False, full_units=4)) / 4


def test_teams_share_their_place_and_points() -> None:
    # ZIGZAG, 4 seats: partners 0+2 and 1+3.
    assert formats.place_points([2, 1, 2, 1], teams=True, full_units=2) == [0, 1, 0, 1]
    # 6 seats: teams (0, 3), (1, 4), (2, 5).
    assert formats.place_points([1, 3, 2, 1, 3, 2], teams=True, full_units=3) == [2, 0, 1, 2, 0, 1]
    # A 4-seat table in a tournament of 6-seat tables: scaled to the 6-seat range.
    assert formats.place_points([1, 2, 1, 2], teams=True, full_units=3) == [2, 0, 2, 0]


def test_bye_scores_the_average() -> None:
    assert formats.bye_points(4) == 1.5
    assert formats.bye_points(2) == 0.5


def test_round_robin_rounds() -> None:
    assert formats.round_robin_rounds(4, 4) == 1
    assert formats.round_robin_rounds(9, 3) == 4
    assert formats.round_robin_rounds(8, 4) == 3


@pytest.mark.parametrize(
    ("units", "size", "teams", "min_units", "expected"),
    [
        ([4] * 15, 4, False, 3, [2] * 15),  # many tables: top half
        ([4, 4, 3], 4, False, 3, [1, 1, 1]),  # three tables: winners make a final of 3
        ([4, 4], 4, False, 3, [2, 2]),  # two tables: the top two of each fill the final
        ([4, 4], 6, False, 3, [3, 3]),
        ([2, 2], 4, True, 2, [1, 1]),  # ZIGZAG: the winning team of each of two tables
        ([4], 4, False, 3, [0]),  # the final
    ],
)
def test_knockout_advancing(units: list[int], size: int, teams: bool, min_units: int, expected: list[int]) -> None:
    assert formats.knockout_advancing(units, table_size=size, teams=teams, min_units=min_units) == expected


def test_knockout_losers_ties_at_the_cut_go_by_standings() -> None:
    players, places = [10, 11, 12, 13], [1, 2, 2, 4]
    assert formats.knockout_losers(players, places, 2, teams=False, rank={12: 0, 11: 1}) == [11, 13]
    assert formats.knockout_losers(players, places, 2, teams=False, rank={11: 0, 12: 1}) == [12, 13]
    # Teams leave together.
    assert sorted(formats.knockout_losers([1, 2, 3, 4], [2, 1, 2, 1], 1, teams=True, rank={})) == [1, 3]
