"""`python -m tools.commands bench_stats` — player statistics and leaderboard speed, on PostgreSQL.

Builds (once; `--rebuild` to redo) two data sets in the configured database:

- a player, `bench-star`, with `--matches` (10,000) finished ranked ZACK!
  matches of four seats against a pool of opponents. Their event logs are
  real bot matches (tools.sim.play_bots), a few dozen distinct deals
  reused, stored as ordinary matches; the statistics and ratings are then
  built by the real `stats_recompute` and `ratings_recompute` (both timed).
- `--players` (100,000) rated players of Zwicker (users and ratings written
  directly, random figures, most of them established).

Then it times requests through the real URL, middleware and API views
(django.test.Client) — `/api/stats/players/bench-star/`, the profile page,
`/api/leaderboards/zwicker/` (first and a deep page) and the leaderboard page
— and prints p50/p95/max against the target (100 ms). Figures, not
assertions.
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test import Client, override_settings
from django.utils import timezone

from accounts.models import User
from games.kit.registry import get_bot, get_rules
from games.models import Match, MatchEvent, MatchPlayer
from stats import rating_services, ratings
from stats import services as stats_services
from stats.models import MatchStats, PlayerGameStats, Rating, RatingChange
from tools.sim import play_bots

TARGET_MS = 100
STAR = "bench-star"
LB_GAME = "zwicker"
LB_PREFIX = "bench-lb-"
BATCH = 2000


def _timed(client: Client, url: str, repeat: int) -> list[float]:
    client.get(url)  # warm up (imports, connection, caches)
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url)
        out.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return out


def _line(name: str, times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    mark = "ok" if p95 <= TARGET_MS else "OVER"
    return f"  {name:<52} p50 {statistics.median(times):7.1f} ms   p95 {p95:7.1f} ms   max {times[-1]:7.1f} ms   [{mark}]"


class Command(BaseCommand):
    help = "Time player statistics (10,000 matches) and a 100,000-player leaderboard."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=10_000)
        parser.add_argument("--players", type=int, default=100_000)
        parser.add_argument("--repeat", type=int, default=30)
        parser.add_argument("--logs", type=int, default=40, help="distinct bot match logs to reuse")
        parser.add_argument("--rebuild", action="store_true", help="delete and rebuild the bench data")

    def handle(self, *args: Any, **opts: Any) -> None:
        if connection.vendor != "postgresql":
            self.stdout.write(self.style.WARNING(f"database is {connection.vendor}: the targets are for PostgreSQL"))
        if opts["rebuild"]:
            self._delete()
        if not User.objects.filter(username=STAR).exists():
            self._build_matches(opts["matches"], opts["logs"])
        have = Rating.objects.filter(game=LB_GAME, user__username__startswith=LB_PREFIX).count()
        if have < opts["players"]:
            self._build_leaderboard(opts["players"], have)
        if connection.vendor == "postgresql":  # what autovacuum does to a live table: statistics, visibility map
            with connection.cursor() as c:
                for model in (Rating, RatingChange, MatchPlayer, Match, PlayerGameStats):
                    c.execute(f"VACUUM ANALYZE {model._meta.db_table}")
        self._measure(opts["repeat"])

    # --- data ------------------------------------------------------------------------------

    def _delete(self) -> None:
        start = time.perf_counter()
        star = User.objects.filter(username=STAR).first()
        if star is not None:
            ids = list(Match.objects.filter(players__user=star).values_list("id", flat=True))
            for i in range(0, len(ids), BATCH):
                Match.objects.filter(pk__in=ids[i : i + BATCH]).delete()
        User.objects.filter(username__startswith="bench-").delete()
        stats_services.stats_recompute(game="zack")
        rating_services.ratings_recompute(game="zack")
        self.stdout.write(f"deleted the bench data in {time.perf_counter() - start:.1f} s")

    def _build_matches(self, count: int, logs: int) -> None:
        rng = random.Random(8)
        start = time.perf_counter()
        rules, bot = get_rules("zack"), get_bot("zack")
        reports = [play_bots(rules, bot, ["hard", "normal", "normal", "easy"], seed) for seed in range(logs)]
        reports = [r for r in reports if r.outcome is not None]
        star = User.objects.create_user(STAR)
        pool = User.objects.bulk_create([User(username=f"bench-opp-{i}", password="!") for i in range(60)])
        base = timezone.now() - dt.timedelta(days=400)
        self.stdout.write(f"{len(reports)} bot match logs played in {time.perf_counter() - start:.1f} s; storing {count} matches…")
        for first in range(0, count, 500):
            with transaction.atomic():
                matches, players, events = [], [], []
                for i in range(first, min(count, first + 500)):
                    report = reports[i % len(reports)]
                    began = base + dt.timedelta(minutes=50 * i)
                    matches.append(
                        Match(
                            game="zack", seats=4, options=report.log[0]["data"]["options"], ranked=True, state=None,
                            seq=len(report.log), status=Match.Status.FINISHED, outcome=report.outcome, started_at=began,
                            ended_at=began + dt.timedelta(milliseconds=report.duration_ms), seed=str(i),
                        )
                    )
                Match.objects.bulk_create(matches)
                for i, m in zip(range(first, first + len(matches)), matches, strict=True):
                    report = reports[i % len(reports)]
                    places = {p["seat"]: p["place"] for p in report.outcome["placements"]}
                    others = rng.sample(pool, 3)
                    star_seat = i % 4
                    seated = others[:star_seat] + [star] + others[star_seat:]
                    players += [MatchPlayer(match=m, seat=s, user=u, place=places.get(s)) for s, u in enumerate(seated)]
                    events += [
                        MatchEvent(match=m, seq=e["seq"], t_ms=e["t_ms"], kind=e["kind"], seat=e["seat"], data=e["data"])
                        for e in report.log
                    ]
                MatchPlayer.objects.bulk_create(players, batch_size=BATCH)
                MatchEvent.objects.bulk_create(events, batch_size=BATCH)
        self.stdout.write(f"stored in {time.perf_counter() - start:.1f} s ({MatchEvent.objects.filter(match__game='zack').count()} ZACK! events)")
        t = time.perf_counter()
        done = stats_services.stats_recompute(game="zack")["zack"]
        self.stdout.write(f"recompute_stats zack: {done} matches in {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        done = rating_services.ratings_recompute(game="zack")["zack"]
        self.stdout.write(f"recompute_ratings zack: {done} matches in {time.perf_counter() - t:.1f} s")

    def _build_leaderboard(self, count: int, have: int) -> None:
        start = time.perf_counter()
        rng = random.Random(9)
        for first in range(have, count, 5000):
            with transaction.atomic():
                users = User.objects.bulk_create(
                    [User(username=f"{LB_PREFIX}{i}", password="!") for i in range(first, min(count, first + 5000))]
                )
                rows = []
                for u in users:
                    mu, sigma, n = rng.gauss(25, 4), rng.uniform(1.0, 8.33), rng.randint(0, 400)
                    rows.append(
                        Rating(
                            user=u, game=LB_GAME, mu=mu, sigma=sigma, display=ratings.display_of(mu, sigma), rated_matches=n,
                            provisional=ratings.is_provisional(rated_matches=n, sigma=sigma),
                        )
                    )
                Rating.objects.bulk_create(rows, batch_size=BATCH)
        self.stdout.write(f"{count - have} rated players written in {time.perf_counter() - start:.1f} s")

    # --- timing ------------------------------------------------------------------------------

    @override_settings(DEBUG=False)
    def _measure(self, repeat: int) -> None:
        star = User.objects.get(username=STAR)
        played = PlayerGameStats.objects.get(user=star, game="zack").tally["played"]
        history = RatingChange.objects.filter(user=star, game="zack").count()
        lb = Rating.objects.filter(game=LB_GAME).count()
        established = Rating.objects.filter(game=LB_GAME, provisional=False).count()
        mid = Rating.objects.filter(game=LB_GAME, provisional=False).order_by("-display")[established // 2].user.username
        self.stdout.write(
            f"data: {STAR} has {played} ZACK! matches ({history} rating changes, {MatchStats.objects.filter(game='zack').count()} match stats); "
            f"{LB_GAME} leaderboard: {lb} rated players, {established} established"
        )
        client = Client()
        self.stdout.write(f"timings over {repeat} requests each (django.test.Client, {connection.vendor}):")
        self.stdout.write(_line(f"GET /api/stats/players/{STAR}/", _timed(client, f"/api/stats/players/{STAR}/", repeat)))
        self.stdout.write(_line(f"GET /u/{STAR}/ (profile page)", _timed(client, f"/u/{STAR}/", repeat)))
        self.stdout.write(_line(f"GET /api/leaderboards/{LB_GAME}/ (top 100)", _timed(client, f"/api/leaderboards/{LB_GAME}/", repeat)))
        deep = f"/api/leaderboards/{LB_GAME}/?offset={established // 2}&limit=100"
        self.stdout.write(_line(f"GET {deep}", _timed(client, deep, repeat)))
        self.stdout.write(_line(f"GET /leaderboards/{LB_GAME}/ (page)", _timed(client, f"/leaderboards/{LB_GAME}/", repeat)))
        self.stdout.write(_line(f"GET /api/stats/players/{mid}/ (rank among {established})", _timed(client, f"/api/stats/players/{mid}/", repeat)))
        self.stdout.write(_line(f"GET /api/stats/games/{LB_GAME}/", _timed(client, f"/api/stats/games/{LB_GAME}/", repeat)))
