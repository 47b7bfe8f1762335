"""Ratings: openskill's Plackett–Luce model applied to one match (pure, no Django).

One rating per account and game. A match is rated from its outcome's places
(shared places are ties). Team games (`Rules.teams`, ZIGZAG) are rated as
teams: with `n` seats, seat `s` and `s + n/2` are partners and share their
team's place.

Several seats of one match may belong to the same account (today only when a
person's export is imported oddly: every bot seat is its own account since bots
got persona identities, accounts.services.bot_user). Decision:
every seat enters the model as its own player, starting from the account's
rating, and the account then takes the *average* of its seats' new `mu` and
`sigma`: one update per account and match, whatever the number of seats. The
seats' results against each other cancel out in that average, so an account
learns only from the other accounts at the table. A match with fewer than
two accounts teaches nothing and is not rated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
Z = 3.0  # display = mu - Z * sigma: openskill's ordinal, the conservative figure used for ranking

PROVISIONAL_MATCHES = 10  # fewer rated matches than this: provisional
PROVISIONAL_SIGMA = 7.0  # more uncertain than this (the start is 8.33): provisional


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def display(self) -> float:
        return display_of(self.mu, self.sigma)


def initial() -> Rating:
    return Rating(MODEL.mu, MODEL.sigma)


# The figure people read: the conservative `display` on a scale people know from chess sites, a
# newcomer's 0 shown as 1500 and one point of openskill's scale as 40 (one `beta`, the spread of a
# single performance, is then about 170). Ranking, tie-breaks and the API's `display` stay as they were.
FRIENDLY_BASE = 1500
FRIENDLY_SCALE = 40


def friendly_of(display: float) -> int:
    """The people's figure of a conservative `display` (mu - 3 sigma): 1500 at the start."""
    return round(FRIENDLY_BASE + FRIENDLY_SCALE * display)


def friendly_spread(sigma: float) -> int:
    """How far the people's figure may still be off, ± (one sigma on the friendly scale)."""
    return round(FRIENDLY_SCALE * sigma)


def display_of(mu: float, sigma: float) -> float:
    """openskill's ordinal: 99.7% sure the true skill is at least this."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal(z=Z)


def is_provisional(*, rated_matches: int, sigma: float) -> bool:
    """Too few games or too uncertain to stand in the top list."""
    return rated_matches < PROVISIONAL_MATCHES or sigma > PROVISIONAL_SIGMA


# Rated results mean play (PROTOCOL.md "Fair play", docs/fair-play.md): after `n` earlier rated matches
# between the same two accounts within REPEAT_WINDOW_DAYS, their next result counts fully while
# n < REPEAT_FREE, then REPEAT_FACTOR ** (n - REPEAT_FREE + 1): a pair is worth at most
# REPEAT_FREE + REPEAT_FACTOR / (1 - REPEAT_FACTOR) full results a window, however often it plays.
REPEAT_FREE = 3
REPEAT_FACTOR = 0.5
REPEAT_WINDOW_DAYS = 30


def pair_weight(repeats: int) -> float:
    """How much a result against one opponent counts after `repeats` rated matches with them in the window."""
    if repeats < REPEAT_FREE:
        return 1.0
    return REPEAT_FACTOR ** (repeats - REPEAT_FREE + 1)


def account_weight(repeats_by_opponent: Mapping[Any, int]) -> float:
    """An account's weight in one match: the mean of its pair weights over the other accounts there."""
    if not repeats_by_opponent:
        return 1.0
    return sum(pair_weight(n) for n in repeats_by_opponent.values()) / len(repeats_by_opponent)


def damped(before: Rating, after: Rating, weight: float) -> Rating:
    """The rating moved `weight` of the way from `before` to `after` (mu and sigma alike)."""
    if weight >= 1.0:
        return after
    return Rating(before.mu + weight * (after.mu - before.mu), before.sigma + weight * (after.sigma - before.sigma))


def team_of(seat: int, seats: int, teams: bool) -> int:
    """The side a seat plays for: itself, or (team games) its pair of partners."""
    return seat % (seats // 2) if teams else seat


def places_of(outcome: Mapping[str, Any] | None, seats: int) -> dict[int, int]:
    """Each seat's place from an outcome; a seat the outcome leaves out is placed last."""
    given = {int(p["seat"]): int(p["place"]) for p in (outcome or {}).get("placements", []) if p.get("place") is not None}
    return {s: given.get(s, seats) for s in range(seats)}


def rate_match(
    *,
    accounts: Sequence[Any],
    ratings: Mapping[Any, Rating],
    places: Mapping[int, int],
    teams: bool,
) -> dict[Any, Rating]:
    """New ratings of every account of one match (empty when it cannot be rated).

    `accounts[s]` is the account at seat `s`; `ratings` holds each account's
    rating before the match (missing: the initial rating); `places[s]` the
    seat's place (1 = best, equal = shared).
    """
    seats = len(accounts)
    if len(set(accounts)) < 2 or (teams and seats % 2):
        return {}
    sides: dict[int, list[int]] = {}
    for s in range(seats):
        sides.setdefault(team_of(s, seats, teams), []).append(s)
    if len(sides) < 2:
        return {}
    order = sorted(sides)
    before = {a: ratings.get(a) or initial() for a in set(accounts)}
    model_teams = [[MODEL.rating(mu=before[accounts[s]].mu, sigma=before[accounts[s]].sigma) for s in sides[t]] for t in order]
    ranks = [float(min(places[s] for s in sides[t])) for t in order]
    result = MODEL.rate(model_teams, ranks=ranks)
    per_account: dict[Any, list[tuple[float, float]]] = {}
    for t, team in zip(order, result, strict=True):
        for s, r in zip(sides[t], team, strict=True):
            per_account.setdefault(accounts[s], []).append((r.mu, r.sigma))
    return {
        a: Rating(sum(mu for mu, _ in rs) / len(rs), sum(sg for _, sg in rs) / len(rs)) for a, rs in per_account.items()
    }
