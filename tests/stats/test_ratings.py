"""Rating updates of one match, checked against openskill's own Plackett–Luce results (pure)."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from stats import ratings
from stats.ratings import Rating, places_of, rate_match

OPENSKILL = PlackettLuce()


def random_ratings(rng: random.Random, n: int) -> list[Rating]:
    return [Rating(rng.uniform(15, 35), rng.uniform(2, 8.4)) for _ in range(n)]


def direct(teams: list[list[Rating]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    """openskill itself on the same teams."""
    result = OPENSKILL.rate([[OPENSKILL.rating(mu=r.mu, sigma=r.sigma) for r in t] for t in teams], ranks=[float(x) for x in ranks])
    return [[(p.mu, p.sigma) for p in t] for t in result]


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(5))
def test_free_for_all_equals_openskill(seats: int, seed: int) -> None:
    rng = random.Random(seats * 100 + seed)
    before = random_ratings(rng, seats)
    places = list(range(1, seats + 1))
    rng.shuffle(places)
    accounts = [f"p{s}" for s in range(seats)]
    got = rate_match(
        accounts=accounts, ratings=dict(zip(accounts, before, strict=True)), places=dict(enumerate(places)), teams=False
    )
    want = direct([[r] for r in before], places)
    assert len(got) == seats
    for s in range(seats):
        assert (got[f"p{s}"].mu, got[f"p{s}"].sigma) == pytest.approx(want[s][0], abs=1e-12)
    winner = places.index(1)
    assert got[f"p{winner}"].mu > before[winner].mu  # the winner gains


@pytest.mark.parametrize("places", [[1, 1, 3], [1, 2, 2, 4], [2, 1, 2, 4, 4], [1, 1, 1, 4, 5, 5], [3, 3, 1, 1, 5, 6]])
def test_shared_places_are_ties(places: list[int]) -> None:
    rng = random.Random(len(places))
    before = random_ratings(rng, len(places))
    accounts = list(range(len(places)))
    got = rate_match(accounts=accounts, ratings=dict(enumerate(before)), places=dict(enumerate(places)), teams=False)
    want = direct([[r] for r in before], places)
    for s in accounts:
        assert (got[s].mu, got[s].sigma) == pytest.approx(want[s][0], abs=1e-12)


def test_tied_equals_gain_the_same() -> None:
    got = rate_match(accounts=["a", "b", "c", "d"], ratings={}, places={0: 1, 1: 1, 2: 3, 3: 4}, teams=False)
    assert got["a"] == got["b"] and got["a"].mu > ratings.MODEL.mu > got["d"].mu


@pytest.mark.parametrize("seats", [4, 6])
def test_teams_are_partners_opposite(seats: int) -> None:
    rng = random.Random(seats)
    before = random_ratings(rng, seats)
    half = seats // 2
    team_places = list(range(1, half + 1))
    rng.shuffle(team_places)
    places = {s: team_places[s % half] for s in range(seats)}
    accounts = [f"u{s}" for s in range(seats)]
    got = rate_match(accounts=accounts, ratings=dict(zip(accounts, before, strict=True)), places=places, teams=True)
    want = direct([[before[t], before[t + half]] for t in range(half)], team_places)
    for t in range(half):
        assert (got[f"u{t}"].mu, got[f"u{t}"].sigma) == pytest.approx(want[t][0], abs=1e-12)
        assert (got[f"u{t + half}"].mu, got[f"u{t + half}"].sigma) == pytest.approx(want[t][1], abs=1e-12)


def test_team_game_tie_between_teams() -> None:
    before = [Rating(25, 8), Rating(30, 5), Rating(20, 7), Rating(27, 6), Rating(22, 3), Rating(29, 4)]
    places = {0: 1, 3: 1, 1: 1, 4: 1, 2: 3, 5: 3}
    got = rate_match(accounts=list(range(6)), ratings=dict(enumerate(before)), places=places, teams=True)
    want = direct([[before[0], before[3]], [before[1], before[4]], [before[2], before[5]]], [1, 1, 3])
    assert (got[0].mu, got[0].sigma) == pytest.approx(want[0][0], abs=1e-12)
    assert (got[5].mu, got[5].sigma) == pytest.approx(want[2][1], abs=1e-12)


def test_one_account_in_several_seats_takes_the_average_once() -> None:
    human, bot = Rating(25, 8.333), Rating(28, 4)
    accounts = ["ada", "bot", "bot", "bot"]
    places = {0: 2, 1: 1, 2: 3, 3: 4}
    got = rate_match(accounts=accounts, ratings={"ada": human, "bot": bot}, places=places, teams=False)
    want = direct([[human], [bot], [bot], [bot]], [2, 1, 3, 4])
    assert set(got) == {"ada", "bot"}
    assert (got["ada"].mu, got["ada"].sigma) == pytest.approx(want[0][0], abs=1e-12)
    assert got["bot"].mu == pytest.approx(sum(want[s][0][0] for s in (1, 2, 3)) / 3, abs=1e-12)
    assert got["bot"].sigma == pytest.approx(sum(want[s][0][1] for s in (1, 2, 3)) / 3, abs=1e-12)


def test_a_match_of_one_account_is_not_rated() -> None:
    assert rate_match(accounts=["bot", "bot", "bot"], ratings={}, places={0: 1, 1: 2, 2: 3}, teams=False) == {}
    assert rate_match(accounts=["a", "b", "a", "b"], ratings={}, places={0: 1, 1: 2, 2: 1, 3: 2}, teams=True) != {}


def test_missing_placements_are_last_and_display_is_the_ordinal() -> None:
    assert places_of({"placements": [{"seat": 1, "place": 1}]}, 3) == {0: 3, 1: 1, 2: 3}
    r = Rating(30.0, 2.0)
    assert r.display == pytest.approx(OPENSKILL.rating(mu=30.0, sigma=2.0).ordinal()) == pytest.approx(24.0)
    assert ratings.initial().display == pytest.approx(0.0, abs=1e-9)


def test_provisional_until_enough_matches_and_certainty() -> None:
    assert ratings.is_provisional(rated_matches=ratings.PROVISIONAL_MATCHES - 1, sigma=1.0)
    assert ratings.is_provisional(rated_matches=50, sigma=ratings.PROVISIONAL_SIGMA + 0.01)
    assert not ratings.is_provisional(rated_matches=ratings.PROVISIONAL_MATCHES, sigma=ratings.PROVISIONAL_SIGMA)
