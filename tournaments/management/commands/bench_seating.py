"""Figures for the Swiss seating: repeated meetings against a random seating, and the time to seat a round.

    python manage.py bench_seating                      # 60 players, 6 rounds, tables of 4, 20 seeds (pure)
    python manage.py bench_seating --db                 # also seat real rounds through the services (rolled back)
    python manage.py bench_seating --players 200 --rounds 8 --table-size 6

Results are random places at every table. "Repeated meetings" counts, over the
whole tournament, the pairs seated together who had already met.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments import formats, seating
from tournaments.formats import place_points


@dataclass
class Simulated:
    """A simulated tournament: repeated meetings in all, the tables of every round, the time each seating took."""

    repeats: int = 0
    rounds: list[list[list[int]]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)


def simulate(players: int, rounds: int, size: int, seed: int, method: str = "swiss", allowed: list[int] | None = None) -> Simulated:
    """Seat `rounds` rounds by `method` ("swiss", "cut" or "random") with random places at every table.

    The seating tests (tests/tournaments/test_seating.py) run this same simulation, so the figures and the
    properties speak of one thing.
    """
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    allowed = allowed or list(range(2, size + 1))
    points: dict[int, float] = {}
    met: dict[int, dict[int, int]] = {}
    out = Simulated()
    for r in range(rounds):
        sizes, byes = formats.table_sizes(players, size, allowed)
        order = sorted(ids, key=lambda p: (-points.get(p, 0.0), p)) if r else rng.sample(ids, players)
        seated = order[: players - byes]
        started = time.perf_counter()
        if method == "swiss":
            tables = seating.seat_swiss(seated, sizes, met, points if r else None, rng)
        elif method == "cut":
            tables = seating.cut(seated, sizes)
        else:
            tables = seating.random_seating(seated, sizes, rng)
        out.times.append(time.perf_counter() - started)
        out.repeats += seating.repeated_pairs(tables, met)
        seating.meetings(tables, met)
        for table in tables:
            places = list(range(1, len(table) + 1))
            rng.shuffle(places)
            for p, value in zip(table, place_points(places, teams=False, full_units=size), strict=True):
                points[p] = points.get(p, 0.0) + value
        out.rounds.append(tables)
    return out


class RollbackError(Exception):
    pass


class Command(BaseCommand):
    help = "Swiss seating figures: repeated meetings versus random seating, and the time to seat a round."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, default=60)
        parser.add_argument("--rounds", type=int, default=6)
        parser.add_argument("--table-size", type=int, default=4)
        parser.add_argument("--seeds", type=int, default=20)
        parser.add_argument("--db", action="store_true", help="also seat rounds through the services (zack tables; rolled back)")

    def handle(self, *args: Any, **opts: Any) -> None:
        n, rounds, size, seeds = opts["players"], opts["rounds"], opts["table_size"], opts["seeds"]
        self.stdout.write(f"Swiss: {n} players, {rounds} rounds, tables of {size}; random places; {seeds} seeds")
        for method, label in (("swiss", "swiss"), ("cut", "standings cut"), ("random", "random")):
            reps, all_times = [], []
            for seed in range(seeds):
                run = simulate(n, rounds, size, seed, method)
                reps.append(run.repeats)
                all_times.extend(run.times)
            self.stdout.write(
                f"  {label:14s} repeated meetings per tournament: mean {statistics.mean(reps):6.1f}, "
                f"min {min(reps)}, max {max(reps)}"
                + (f"; seating time per round: median {statistics.median(all_times) * 1000:.1f} ms, max {max(all_times) * 1000:.1f} ms" if method == "swiss" else "")
            )
        if opts["db"]:
            self._db(n, rounds, size)

    def _db(self, n: int, rounds: int, size: int) -> None:
        """Seat every round through the services (standings, seating, game tables); roll everything back."""
        from accounts.models import User
        from tournaments import services
        from tournaments.models import Round, Tournament

        times: list[float] = []
        rng = random.Random(1)
        try:
            with transaction.atomic():
                org = User.objects.create_user("bench-organiser-tmp", password=None)
                t = services.tournament_create(organiser=org, name="bench", game="zack", format="swiss", table_size=size, rounds=rounds)
                services.tournament_add_bots(tournament_id=t.pk, by=org, count=min(n, services.MAX_BOTS_AT_ONCE))
                if n > services.MAX_BOTS_AT_ONCE:
                    services.tournament_add_bots(tournament_id=t.pk, by=org, level="hard", count=n - services.MAX_BOTS_AT_ONCE)
                started = time.perf_counter()
                services.tournament_start(tournament_id=t.pk, by=org)
                times.append(time.perf_counter() - started)
                t = Tournament.objects.get(pk=t.pk)
                for number in range(2, rounds + 1):
                    last = Round.objects.get(tournament=t, number=number - 1)
                    for tt in last.tables.all():
                        seats = list(tt.seats.all())
                        places = list(range(1, len(seats) + 1))
                        rng.shuffle(places)
                        for s, place in zip(seats, places, strict=True):
                            s.place = place
                            s.save(update_fields=["place"])
                        tt.done = True
                        tt.save(update_fields=["done"])
                    last.status = Round.Status.FINISHED
                    last.save(update_fields=["status"])
                    started = time.perf_counter()
                    services._seat_round(t, number)
                    times.append(time.perf_counter() - started)
                raise RollbackError
        except RollbackError:
            pass
        self.stdout.write(
            f"  through the services (standings + seating + {n // size} zack tables created and started): "
            f"median {statistics.median(times):.2f} s, max {max(times):.2f} s per round"
        )
