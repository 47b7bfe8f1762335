"""Rated results mean play: repeated pairs count less and less, bots alone are never rated, a marked cheater's results go."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import bot_user, token_for
from games.models import Match
from games.services.tables import table_create, table_join, table_resign, table_start
from stats import rating_services, ratings
from stats.models import Rating, RatingChange
from tests.conftest import Clock, run_jobs
from tests.games.factories import user
from tests.replays.factories import finished_match

pytestmark = pytest.mark.django_db

FARMED = 24


def population(rng: random.Random, matches: int = 120) -> list[User]:
    """Sixteen honest players of steady skills playing ranked Zwicker among themselves, 2 to 4 a table."""
    people = [user(f"honest{i}") for i in range(16)]
    for i in range(matches):
        table = rng.sample(people, rng.randint(2, 4))
        order = sorted(table, key=lambda u: int(u.username[6:]) + rng.gauss(0, 4.0))  # lower number: stronger, mostly
        finished_match("zwicker", table, [order.index(u) + 1 for u in table], minute=i)
    return people


def farm(rng: random.Random, start_minute: int) -> tuple[User, User]:
    """One person, two accounts: the second throws every one of FARMED ranked matches."""
    main, alt = user("farmer"), user("farmer-alt")
    for i in range(FARMED):
        finished_match("zwicker", [main, alt], [1, 2], minute=start_minute + i)
    return main, alt


def rate_all() -> None:
    for m in Match.objects.order_by("ended_at", "id"):
        rating_services.match_rating_apply(match_id=m.pk)


def leaderboard() -> list[str]:
    return [row["username"] for row in APIClient().get("/api/leaderboards/zwicker/").json()]


def standing(factor: float, monkeypatch: pytest.MonkeyPatch) -> tuple[float, list[str], float]:
    """Every Zwicker rating again with REPEAT_FACTOR `factor`: the farmer's display, the leaderboard, the best honest display."""
    monkeypatch.setattr(ratings, "REPEAT_FACTOR", factor)
    monkeypatch.setattr(ratings, "REPEAT_FREE", 3 if factor < 1 else 0)
    rating_services.ratings_recompute(game="zwicker")
    best_honest = max(r.display for r in Rating.objects.filter(user__username__startswith="honest"))
    return Rating.objects.get(user__username="farmer").display, leaderboard(), best_honest


def test_farming_a_second_account_gains_little_and_stays_off_the_top(monkeypatch: pytest.MonkeyPatch) -> None:
    """One person throws 24 ranked Zwicker matches from a second account: the same records rated without and with the damping."""
    rng = random.Random(21)
    population(rng, 80)
    farm(rng, 200)
    rate_all()
    damped = (Rating.objects.get(user__username="farmer").display, leaderboard())
    undamped_display, undamped_board, undamped_best = standing(1.0, monkeypatch)
    display, board, best_honest = standing(0.5, monkeypatch)
    assert (display, board) == damped  # the live path and the recompute agree
    print(f"farmer: {ratings.friendly_of(undamped_display)} undamped (best honest {ratings.friendly_of(undamped_best)}), {ratings.friendly_of(display)} damped (best honest {ratings.friendly_of(best_honest)}) {board}")
    assert undamped_board.index("farmer") < len(undamped_board) // 3  # what the damping is for: undamped, a top third rating
    assert "farmer" not in board and display < best_honest  # damped: still provisional (too uncertain), and well below
    assert display < undamped_display / 2
    gained = [
        ratings.display_of(c.mu, c.sigma) - ratings.display_of(c.mu_before, c.sigma_before)
        for c in RatingChange.objects.filter(user__username="farmer").order_by("ended_at")
    ]
    assert max(gained[6:]) < gained[0] / 10  # from the fourth repeat on, each counts half the one before


@pytest.mark.django_db(transaction=True)
def test_a_real_ranked_zwicker_table_thrown_24_times(clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through the platform: the second account resigns each of 24 ranked Zwicker matches at a table
    of the two (a bot plays the seat on, the resigned is placed last), rated live at each match's end."""
    rng = random.Random(23)
    population(rng, 80)
    rate_all()
    main, alt = user("farmer"), user("farmer-alt")
    for _ in range(FARMED):
        table = table_create(host=main, game="zwicker", seats=2, ranked=True)
        table_join(table_id=table.pk, user=alt)
        match = table_start(table_id=table.pk, by=main)
        table_resign(table_id=table.pk, user=alt)
        run_jobs(clock)  # bots play the match out; its end rates it (stats.match_finished)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.outcome["placements"][1]["place"] == 2
    assert RatingChange.objects.filter(user=main).count() == FARMED
    damped = Rating.objects.get(user=main).display
    undamped, undamped_board, _ = standing(1.0, monkeypatch)
    display, board, best_honest = standing(0.5, monkeypatch)
    assert display == pytest.approx(damped)
    print(f"real table: farmer {ratings.friendly_of(undamped)} undamped, {ratings.friendly_of(display)} damped (best honest {ratings.friendly_of(best_honest)})")
    assert display < undamped / 2 and display < best_honest and "farmer" not in board
    assert "farmer" in undamped_board[: len(undamped_board) // 3]


def test_the_damping_forgets_pairs_after_the_window() -> None:
    ada, bea = user("ada"), user("bea")
    for i in range(3):
        finished_match("zwicker", [ada, bea], [1, 2], minute=i)
    later = finished_match("zwicker", [ada, bea], [1, 2], minute=60 * 24 * (ratings.REPEAT_WINDOW_DAYS + 1))
    history = rating_services.PairHistory()
    for m in Match.objects.order_by("ended_at"):
        assert history.repeats(ada.pk, [ada.pk, bea.pk], m.ended_at) == {bea.pk: 0 if m == later else len(history._met.get((ada.pk, bea.pk), []))}
        history.add([ada.pk, bea.pk], m.ended_at)


def test_bot_only_matches_are_never_rated() -> None:
    bots = [bot_user(slug="zwicker", level=level) for level in ("easy", "hard")]
    m = finished_match("zwicker", bots, [1, 2])
    assert rating_services.match_rating_apply(match_id=m.pk) is False
    assert not Rating.objects.exists()
    mixed = finished_match("zwicker", [bots[0], user("ada")], [1, 2], minute=1)
    assert rating_services.match_rating_apply(match_id=mixed.pk) is True


def test_mark_annuls_every_rated_result_and_recomputes_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(22)
    people = population(rng, 40)
    main, alt = farm(rng, 100)
    cheat_vs_honest = finished_match("zwicker", [main, people[0]], [1, 2], minute=150)
    rate_all()
    assert Rating.objects.filter(user=main).exists()
    mod = user("mod")
    mod.is_staff = True
    mod.save(update_fields=["is_staff"])
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=mod)}")
    assert c.post("/api/moderation/actions/", {"username": "farmer", "action": "mark"}, format="json").status_code == 201
    # annulled: no rating and no history row of the marked account, and none of the match it played
    assert not Rating.objects.filter(user=main).exists() and not RatingChange.objects.filter(user=main).exists()
    assert not RatingChange.objects.filter(match=cheat_vs_honest).exists()
    assert "farmer" not in leaderboard() and "farmer" not in [r["username"] for r in APIClient().get("/api/leaderboards/zwicker/?provisional=true").json()]
    # the others as if the marked account had never played: a recompute with its matches left out
    touched = {r.user_id: (r.mu, r.sigma) for r in Rating.objects.all()}
    Match.objects.filter(players__user=main).delete()
    rating_services.ratings_recompute(game="zwicker")
    assert {r.user_id: (r.mu, r.sigma) for r in Rating.objects.all()} == touched
    # a new match of the marked account is not rated either
    later = finished_match("zwicker", [main, people[1]], [1, 2], minute=400)
    assert rating_services.match_rating_apply(match_id=later.pk) is False


def test_clear_gives_a_marked_account_its_results_back() -> None:
    ada, bea = user("ada"), user("bea")
    finished_match("zwicker", [ada, bea], [1, 2])
    rate_all()
    before = {r.user_id: (r.mu, r.sigma) for r in Rating.objects.all()}
    mod = user("mod")
    mod.is_staff = True
    mod.save(update_fields=["is_staff"])
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=mod)}")
    c.post("/api/moderation/actions/", {"username": "ada", "action": "mark"}, format="json")
    assert not Rating.objects.exists()
    c.post("/api/moderation/actions/", {"username": "ada", "action": "clear"}, format="json")
    assert {r.user_id: (r.mu, r.sigma) for r in Rating.objects.all()} == before
