"""Standings and tie-breaks on hand-built results (pure, no database)."""

from __future__ import annotations

from tournaments.standings import Bye, TableResult, compute, knockout_stages


def by_player(rows: list) -> dict:
    return {r.player: r for r in rows}


def test_points_sum_over_rounds_and_rank_by_points() -> None:
    results = [
        TableResult(1, (1, 2, 3, 4), (1, 2, 3, 4)),
        TableResult(2, (1, 2, 3, 4), (4, 1, 2, 3)),
    ]
    rows = compute([1, 2, 3, 4], results, table_size=4)
    p = by_player(rows)
    assert [p[i].points for i in (1, 2, 3, 4)] == [3, 5, 3, 1]
    assert rows[0].player == 2 and rows[0].rank == 1
    assert p[2].by_round == {1: 2, 2: 3}
    assert p[1].wins == 1 and p[2].wins == 1 and p[3].wins == 0


def test_opponents_points_break_a_tie_on_points() -> None:
    # 1 and 5 both score 3 in round 1, at tables with stronger / weaker opponents.
    results = [
        TableResult(1, (1, 2, 3, 4), (1, 2, 3, 4)),
        TableResult(1, (5, 6, 7, 8), (1, 2, 3, 4)),
        TableResult(2, (2, 3, 6, 7), (1, 2, 3, 4)),  # 2 and 3 (1's opponents) score more than 6, 7
        TableResult(2, (1, 4, 5, 8), (3, 4, 2, 1)),  # now 1 and 5 score 1 and 2 ...
    ]
    rows = compute(range(1, 9), results, table_size=4)
    p = by_player(rows)
    assert p[1].points == 4 and p[5].points == 5 and p[8].points == 3
    # Opponents' points: mean of the opponents' totals per table, summed.
    totals = {r.player: r.points for r in rows}
    assert p[1].opponents == round((totals[2] + totals[3] + totals[4]) / 3 + (totals[4] + totals[5] + totals[8]) / 3, 4)
    tie = [TableResult(1, (1, 2, 3), (1, 2, 2)), TableResult(1, (4, 5, 6), (1, 2, 2)), TableResult(2, (2, 3, 9), (1, 2, 3))]
    rows = compute([1, 2, 3, 4, 5, 6, 9], tie, table_size=3)
    p = by_player(rows)
    assert p[1].points == p[4].points == 2
    assert p[1].opponents > p[4].opponents and p[1].rank < p[4].rank


def test_wins_then_rating_break_remaining_ties_and_full_ties_share_a_rank() -> None:
    # 1: 1st + 4th = 3 points with one win; 2: 2nd + 3rd = 3 points, no win; same opponents' points.
    results = [TableResult(1, (1, 2, 3, 4), (1, 2, 3, 4)), TableResult(2, (1, 2, 3, 4), (4, 3, 2, 1))]
    rows = compute([1, 2, 3, 4], results, table_size=4, ratings={2: 30.0})
    p = by_player(rows)
    assert p[1].points == p[2].points == 3 and p[1].opponents == p[2].opponents
    assert p[1].wins == 1 and p[2].wins == 0
    assert p[1].rank < p[2].rank  # wins before rating
    rows = compute([1, 2, 3, 4], [TableResult(1, (1, 2, 3, 4), (1, 1, 3, 3))], table_size=4, ratings={2: 10.0})
    p = by_player(rows)
    assert p[2].rank == 1 and p[1].rank == 2  # the rating decides
    rows = compute([1, 2, 3, 4], [TableResult(1, (1, 2, 3, 4), (1, 1, 3, 3))], table_size=4)
    p = by_player(rows)
    assert p[1].rank == p[2].rank == 1 and p[3].rank == p[4].rank == 3  # full ties share


def test_byes_score_the_average_and_no_win() -> None:
    rows = compute([1, 2, 3, 4, 5], [TableResult(1, (1, 2, 3, 4), (1, 2, 3, 4))], table_size=4, byes=[Bye(1, 5)])
    p = by_player(rows)
    assert p[5].points == 1.5 and p[5].wins == 0 and p[5].byes == 1 and p[5].played == 0 and p[5].opponents == 0


def test_forfeit_scores_zero_and_others_keep_their_places() -> None:
    r = TableResult(1, (1, 2, 3), (1, 2, 3), forfeits=frozenset({1}))
    p = by_player(compute([1, 2, 3], [r], table_size=3))
    assert p[1].points == 0 and p[1].wins == 0
    assert p[2].points == 1 and p[3].points == 0


def test_team_results_and_opponents_exclude_partners() -> None:
    # ZIGZAG 4 seats: team (1, 3) beats team (2, 4).
    r = TableResult(1, (1, 2, 3, 4), (1, 2, 1, 2), teams=True)
    assert r.opponents(1) == [2, 4]
    rows = compute([1, 2, 3, 4], [r], table_size=4, teams=True)
    p = by_player(rows)
    assert p[1].points == p[3].points == 1 and p[2].points == p[4].points == 0
    assert p[1].wins == 1 and p[3].wins == 1
    assert p[2].opponents == 1 and p[1].opponents == 0


def test_withdrawn_players_keep_their_line() -> None:
    rows = compute([1, 2], [TableResult(1, (1, 2), (1, 2))], table_size=2, withdrawn=[1])
    assert rows[0].player == 1 and rows[0].withdrawn


def test_knockout_stage_ranks_the_final_first() -> None:
    results = [
        TableResult(1, (1, 2, 3, 4), (1, 2, 3, 4)),
        TableResult(1, (5, 6, 7, 8), (1, 2, 3, 4)),
        TableResult(2, (1, 2, 5, 6), (4, 3, 2, 1)),  # the final: 6 wins it
    ]
    stages = knockout_stages(results, [])
    rows = compute(range(1, 9), results, table_size=4, stages=stages)
    assert [r.player for r in rows[:4]] == [6, 5, 2, 1]
    # 1 had more points than 6 over the tournament, but lost the final.
    p = by_player(rows)
    assert p[1].points == 3 and p[6].points == 5
    assert {r.player for r in rows[4:6]} == {3, 7} and {r.player for r in rows[6:]} == {4, 8}
