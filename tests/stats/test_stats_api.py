"""Statistics API and pages: PROTOCOL.md "Statistics", the leaderboard order, provisional ratings, 404s."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from stats import rating_services, ratings
from stats import services as stats_services
from stats.models import Rating
from tests.games.factories import user
from tests.replays.factories import finished_match

pytestmark = pytest.mark.django_db


def rated(name: str, game: str, mu: float, sigma: float, n: int) -> User:
    u = User.objects.create_user(name)
    Rating.objects.create(
        user=u, game=game, mu=mu, sigma=sigma, display=ratings.display_of(mu, sigma), rated_matches=n,
        provisional=ratings.is_provisional(rated_matches=n, sigma=sigma),
    )
    return u


def test_unknown_player_or_game_is_404(client: Client) -> None:
    assert client.get("/api/stats/players/nobody/").status_code == 404
    assert client.get("/api/stats/games/chess/").status_code == 404
    assert client.get("/api/leaderboards/chess/").status_code == 404
    assert client.get("/leaderboards/chess/").status_code == 404
    assert client.get("/api/leaderboards/zack/?limit=x").status_code == 400


def test_leaderboard_ranks_established_ratings_by_display_and_keeps_provisional_apart(client: Client) -> None:
    rated("low", "zack", 25, 3, 40)  # display 16
    rated("high", "zack", 35, 2, 40)  # 29
    rated("mid", "zack", 30, 3, 12)  # 21
    rated("newcomer", "zack", 60, 6, 3)  # 42, but too few matches
    rated("unsure", "zack", 50, 7.5, 40)  # 27.5, but too uncertain
    rated("other", "zwicker", 40, 1, 40)
    body = client.get("/api/leaderboards/zack/").json()
    assert [(r["rank"], r["username"], r["played"]) for r in body] == [(1, "high", 40), (2, "mid", 12), (3, "low", 40)]
    assert body[0]["rating"] == {
        "mu": 35.0, "sigma": 2.0, "display": 29.0, "provisional": False, "rated_matches": 40,
        "friendly": 2660, "friendly_spread": 80,  # additions: 1500 + 40 x 29, 40 x 2
    }
    assert [r["username"] for r in client.get("/api/leaderboards/zack/?limit=1&offset=1").json()] == ["mid"]
    prov = client.get("/api/leaderboards/zack/?provisional=true").json()
    assert [(r["rank"], r["username"]) for r in prov] == [(None, "newcomer"), (None, "unsure")]
    page = client.get("/leaderboards/zack/").content.decode()
    rows = [page.index(f'data-testid="leader-{n}"') for n in ("high", "mid", "low")]
    assert rows == sorted(rows) and rows[-1] < page.index('data-testid="provisional-newcomer"')
    assert 'data-testid="provisional-newcomer"' in page and 'data-testid="leader-newcomer"' not in page
    index = client.get("/leaderboards/").content.decode()
    assert "high" in index and "other" in index


def test_player_and_game_statistics(client: Client) -> None:
    a, b, c = user("ada"), user("bea"), user("cy")
    for i, places in enumerate([[1, 2, 3], [3, 1, 2], [1, 3, 2]]):
        m = finished_match("zack", [a, b, c], places, minute=i, ranked=i < 2)
        stats_services.match_finished_process(match_id=m.pk)
    body = client.get("/api/stats/players/ada/").json()
    zack = body["games"]["zack"]
    assert body["username"] == "ada" and set(body["games"]) == {"zack"}
    assert (zack["played"], zack["won"], zack["win_rate"], zack["average_place"]) == (3, 2, 0.667, 1.667)
    assert zack["rating"]["rated_matches"] == 2 and zack["rating"]["provisional"] is True and zack["rating"]["rank"] is None
    assert [h["match"] for h in zack["history"]] == list(
        Rating.objects.get(user=a).user.rating_changes.order_by("ended_at").values_list("match_id", flat=True)
    )
    assert zack["history"][-1]["display"] == round(Rating.objects.get(user=a).display, 2)
    for key in ("reaction_median_ms", "challenges_won_slow", "out_of_turn_throws", "out_of_turn_caught", "positions"):
        assert key in zack
    game = client.get("/api/stats/games/zack/").json()
    assert game["matches"] == 3 and game["rated_players"] == 3 and game["established_players"] == 0
    assert [p["played"] for p in game["positions"]] == [3, 3, 3]
    assert sum(p["won"] for p in game["positions"]) == 3


def test_history_is_thinned_keeping_the_last_point(client: Client) -> None:
    a, b = user("ada"), user("bea")
    for i in range(9):
        m = finished_match("zwicker", [a, b], [1 + i % 2, 2 - i % 2], minute=i)
        rating_services.match_rating_apply(match_id=m.pk)
    body = client.get("/api/stats/players/bea/?history=4").json()
    hist = body["games"]["zwicker"]["history"]
    assert len(hist) == 4 and hist[-1]["display"] == round(Rating.objects.get(user=b).display, 2)
    assert [h["at"] for h in hist] == sorted(h["at"] for h in hist)


def test_profile_page_shows_rating_chart_figures_and_recent_matches(client: Client) -> None:
    a, b, c = user("ada"), user("bea"), user("cy")
    matches = [finished_match("zack", [a, b, c], [1, 2, 3], minute=i) for i in range(2)]
    for m in matches:
        stats_services.match_finished_process(match_id=m.pk)
    page = client.get("/u/ada/").content.decode()
    assert 'data-testid="rating-chart-zack"' in page and 'id="rating-history-zack"' in page
    assert 'data-testid="figure-zack-reaction_median_ms"' in page and "Median reaction time" in page
    assert f'data-testid="recent-replay-{matches[1].pk}"' in page and "platform/chart.js" in page
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert "Mittlere Reaktionszeit" in client.get("/u/ada/").content.decode()
