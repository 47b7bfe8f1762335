"""Simulated players for the fair-play tests: people, scripted clients and fake-lag clients (seeded).

A person's judged reaction is log-normal (a median drawn around 250 ms, log-sigma 0.25-0.35) and their
round trip honest; a scripted client reacts in 8-30 ms; a fake-lag client reacts like a person but
claims a round trip of about the cap, so it is judged 100-130 ms after the card, race after race.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass

from moderation.fair_play import Claim

SOAK_RACES = int(os.environ.get("FAIR_PLAY_SOAK_RACES", "2000"))


@dataclass
class Person:
    median_ms: float
    sigma: float
    rtt_ms: int

    def reaction(self, rng: random.Random) -> int:
        return max(1, round(math.exp(rng.gauss(math.log(self.median_ms), self.sigma))))


def person(rng: random.Random) -> Person:
    return Person(median_ms=rng.uniform(210, 300), sigma=rng.uniform(0.25, 0.35), rtt_ms=rng.randint(20, 180))


def person_claims(rng: random.Random, who: Person, races: int, first_match: int = 1, per_match: int = 10) -> list[Claim]:
    return [
        Claim(match_id=first_match + i // per_match, reaction_ms=who.reaction(rng), comp_ms=max(0, who.rtt_ms + rng.randint(-8, 8)))
        for i in range(races)
    ]


def scripted_claims(rng: random.Random, races: int, anticipated_under: int | None = None) -> list[Claim]:
    out = []
    for i in range(races):
        r = rng.randint(8, 30)
        out.append(Claim(match_id=1 + i // 10, reaction_ms=r, comp_ms=rng.randint(15, 40),
                         anticipated=anticipated_under is not None and r < anticipated_under))
    return out


def fake_lag_claims(rng: random.Random, races: int) -> list[Claim]:
    return [Claim(match_id=1 + i // 10, reaction_ms=rng.randint(100, 130), comp_ms=rng.randint(180, 200)) for i in range(races)]
