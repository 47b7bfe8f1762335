"""Ratings in the database: applied at match end by the Celery task, once, in order; recompute equals live."""

from __future__ import annotations

import io
import random
import re

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from accounts.services import bot_user
from games.models import Match
from games.services.tables import table_create_for
from stats import rating_services, ratings
from stats.models import MatchStats, PlayerGameStats, Rating, RatingChange
from stats.tasks import match_finished
from tests.conftest import run_jobs
from tests.games.factories import user
from tests.replays.factories import finished_match

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot() -> tuple[list[tuple], list[tuple]]:
    current = sorted(Rating.objects.values_list("user_id", "game", "mu", "sigma", "display", "rated_matches", "provisional"))
    history = sorted(
        RatingChange.objects.values_list("match_id", "user_id", "game", "place", "mu_before", "sigma_before", "mu", "sigma", "display")
    )
    return current, history


def test_a_ranked_match_is_rated_and_counted_by_the_task_at_its_end(clock) -> None:
    ada, bea = user("ada"), user("bea")
    table = table_create_for(
        organiser=ada, game="tiny", players=[(ada, ""), (bea, ""), (None, "easy")], options={"hand": 2, "turn_seconds": 1}, ranked=True
    )
    run_jobs(clock)
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.FINISHED
    bot = bot_user(slug="tiny", level="easy")
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert set(changes) == {ada.pk, bea.pk, bot.pk}
    places = dict(match.players.values_list("user_id", "place"))
    best = min(places, key=places.get)
    assert changes[best].mu > ratings.MODEL.mu  # the winner went up
    for u, c in changes.items():
        r = Rating.objects.get(user_id=u, game="tiny")
        assert (r.mu, r.sigma, r.rated_matches, r.provisional) == (c.mu, c.sigma, 1, True)
        assert c.place == places[u]
    assert MatchStats.objects.filter(match=match).exists()
    assert PlayerGameStats.objects.get(user=ada, game="tiny").tally["played"] == 1


def test_casual_and_aborted_matches_change_no_rating(clock) -> None:
    ada, bea = user("ada"), user("bea")
    table_create_for(organiser=ada, game="tiny", players=[(ada, ""), (bea, "")], options={"hand": 1, "turn_seconds": 1})
    run_jobs(clock)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert PlayerGameStats.objects.get(user=bea, game="tiny").tally["played"] == 1  # statistics count casual play
    aborted = finished_match("zack", [ada, bea, user("cy")], [1, 2, 3], status=Match.Status.ABORTED)
    assert rating_services.match_rating_apply(match_id=aborted.pk) is False
    assert not RatingChange.objects.exists()


def test_applied_once_however_often_the_task_runs() -> None:
    a, b, c = user("a"), user("b"), user("c")
    m = finished_match("zack", [a, b, c], [2, 1, 3])
    match_finished(m.pk)
    first = snapshot()
    match_finished(m.pk)
    assert rating_services.match_rating_apply(match_id=m.pk) is False
    assert snapshot() == first
    assert RatingChange.objects.filter(match=m).count() == 3
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingChange.objects.create(match=m, user=a, game="zack", ended_at=m.ended_at, mu_before=1, sigma_before=1, mu=1, sigma=1, display=1)


def test_live_ratings_chain_match_after_match_like_openskill() -> None:
    a, b, c, d = user("a"), user("b"), user("c"), user("d")
    m1 = finished_match("zack", [a, b, c], [1, 2, 3], minute=1)
    m2 = finished_match("zack", [c, d, a, b], [1, 2, 2, 4], minute=2)
    for m in (m1, m2):
        rating_services.match_rating_apply(match_id=m.pk)
    step1 = ratings.rate_match(accounts=[a.pk, b.pk, c.pk], ratings={}, places={0: 1, 1: 2, 2: 3}, teams=False)
    step2 = ratings.rate_match(accounts=[c.pk, d.pk, a.pk, b.pk], ratings=step1, places={0: 1, 1: 2, 2: 2, 3: 4}, teams=False)
    for u in (a, b, c, d):
        r = Rating.objects.get(user=u, game="zack")
        assert (r.mu, r.sigma) == (step2[u.pk].mu, step2[u.pk].sigma)
    assert Rating.objects.get(user=a).rated_matches == 2 and Rating.objects.get(user=d).rated_matches == 1
    change = RatingChange.objects.get(match=m2, user=a)
    assert (change.mu_before, change.sigma_before) == (step1[a.pk].mu, step1[a.pk].sigma)


def random_matches(rng: random.Random, count: int) -> list[Match]:
    people = [user(f"u{i}") for i in range(6)]
    bots = [bot_user(slug="zack", level="easy"), bot_user(slug="zack", level="hard"), bot_user(slug="zigzag", level="normal")]
    out = []
    for i in range(count):
        if rng.random() < 0.3:  # ZIGZAG: teams of partners opposite, a bot account may fill several seats
            seats = rng.choice([4, 6])
            pool = people + [bots[2]] * 3
            players = [rng.choice(pool) for _ in range(seats)]
            if len(set(players)) < 2:
                players[0] = people[0]
            team_places = list(range(1, seats // 2 + 1))
            rng.shuffle(team_places)
            places = [team_places[s % (seats // 2)] for s in range(seats)]
            game = "zigzag"
        else:
            seats = rng.randint(3, 6)
            pool = people + bots[:2]
            players = rng.sample(pool, seats - 1) + [bots[0]]  # the easy bot often twice
            places = [rng.randint(1, seats) for _ in range(seats)]  # with ties
            game = "zack"
        ranked = rng.random() < 0.85
        out.append(finished_match(game, players, places, ranked=ranked, minute=i + rng.random() * 0.5))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_recompute_equals_live_even_when_matches_arrive_late(seed: int) -> None:
    rng = random.Random(seed)
    matches = random_matches(rng, 24)
    arrival = list(matches)
    if seed == 2:
        rng.shuffle(arrival)  # commits overtaken, imported old matches: the game re-rates from the late one
    for m in arrival:
        rating_services.match_rating_apply(match_id=m.pk)
    live = snapshot()
    assert len(live[1]) > 40 and {g for _, g, *_ in live[0]} == {"zack", "zigzag"}
    RatingChange.objects.all().delete()  # the recompute starts from the match records alone
    Rating.objects.update(mu=0, sigma=1, rated_matches=0)
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    rated = sum(int(n) for n in re.findall(r"^\w+: (\d+) ranked matches rated$", out.getvalue(), re.M))
    assert rated == sum(1 for m in matches if m.ranked and m.players.filter(user__is_bot=False).exists())  # bots alone: unrated
    assert snapshot() == live
    for m in arrival:  # nothing left to apply
        assert rating_services.match_rating_apply(match_id=m.pk) is False
    assert snapshot() == live


def test_in_order_arrivals_never_rewrite_history() -> None:
    rng = random.Random(5)
    matches = random_matches(rng, 8)
    ids_seen: list[int] = []
    for m in matches:
        before = set(RatingChange.objects.values_list("id", flat=True))
        rating_services.match_rating_apply(match_id=m.pk)
        after = set(RatingChange.objects.values_list("id", flat=True))
        assert before <= after  # appended only
        ids_seen.extend(sorted(after - before))
    assert len(ids_seen) == RatingChange.objects.count()
