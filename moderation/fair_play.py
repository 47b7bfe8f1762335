"""Is a player's record of race claims a person's? Pure statistics (no Django, no I/O).

A race claim's *judged reaction* is its judged time minus the moment the card
was shown (`games.kit.races.claim_record`'s `reaction_ms`): the sender's measured
round trip is already taken off, so for an honest line it is the person's own
reaction. Simple visual reactions of people are close to log-normal (median
about 250 ms in these games, log-sigma 0.25-0.35) and almost never under
100 ms. A script reacts in a few ms; a client that lies about its round trip
is judged faster than it reacted, 100-130 ms again and again.

Every rule is a test of the whole record, never of one claim, and each is
set so that a person is flagged with a probability far below one in a million
per look (docs/fair-play.md has the figures):

- `median_below_human`: more judged reactions under MEDIAN_FLOOR_MS than a
  player whose median is at that floor would give (binomial tail, p = 0.5).
- `fast_share`: more judged reactions under FAST_MS than the fastest people
  give (binomial tail against FAST_RATE_HUMAN).
- `anticipations`: more claims judged as anticipations (`"anticipated": true`)
  than a person guessing now and then (binomial tail against ANTICIPATION_RATE_HUMAN).
- `low_variance`: the spread of the log reactions below LOW_LOG_SD (a person's
  is 0.25 or more; a chi-square tail below 1e-12 for n >= 30).
- `rtt_inflated`: RTT_INFLATED_FLAG sockets or more whose pongs ran late.

Nothing but `rtt_inflated` is judged before MIN_RACES claims.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

MIN_RACES = 20
TAIL_P = 1e-6  # a rule fires when a person would do this with a probability below this
MEDIAN_FLOOR_MS = 150  # no person's median judged reaction is this fast
FAST_MS = 100  # a judged reaction under this is faster than a person reacts
FAST_RATE_HUMAN = 0.03  # the share of such reactions the fastest people give (median 200 ms, sigma 0.35: 2.4 %)
ANTICIPATION_RATE_HUMAN = 0.05  # a person guessing now and then
LOW_LOG_SD_MIN_RACES = 30
LOW_LOG_SD = 0.08  # the standard deviation of ln(judged reaction) of a person is 0.25 or more
RTT_INFLATED_FLAG = 5  # sockets whose pongs ran more than rtt_slack_ms above the transport's round trip
HISTOGRAM_EDGES_MS = (0, 50, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 2000)
EVIDENCE_MATCHES = 20


@dataclass(frozen=True)
class Claim:
    """One race claim of the player: the judged reaction and the round trip it was credited with."""

    match_id: int
    reaction_ms: int
    comp_ms: int = 0
    anticipated: bool = False


@dataclass
class Record:
    races: int
    judged_median_ms: float | None
    anticipations: int
    rtt_inflated: int
    flagged: bool
    reasons: list[str]
    evidence: dict[str, Any] = field(default_factory=dict)

    def public(self) -> dict[str, Any]:
        """The PROTOCOL.md `fair_play` object (evidence is separate: the moderators' queue shows it)."""
        return {
            "races": self.races,
            "judged_median_ms": self.judged_median_ms,
            "anticipations": self.anticipations,
            "rtt_inflated": self.rtt_inflated,
            "flagged": self.flagged,
            "reasons": list(self.reasons),
        }


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), summed in log space (exact, no overflow for n in the thousands)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    lp, lq = math.log(p), math.log1p(-p)
    terms = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq for i in range(k, n + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def log_sd(values: Sequence[int]) -> float | None:
    """The sample standard deviation of ln(reaction) (a reaction of 0 counts as 1 ms)."""
    if len(values) < 2:
        return None
    return statistics.stdev(math.log(max(1, v)) for v in values)


def histogram(values: Iterable[int]) -> list[dict[str, Any]]:
    """Counts per bucket of HISTOGRAM_EDGES_MS (`to_ms` None: the open last bucket)."""
    edges = HISTOGRAM_EDGES_MS
    counts = [0] * len(edges)
    for v in values:
        i = len(edges) - 1
        while i > 0 and v < edges[i]:
            i -= 1
        counts[i] += 1
    return [
        {"from_ms": edges[i], "to_ms": edges[i + 1] if i + 1 < len(edges) else None, "count": counts[i]} for i in range(len(edges))
    ]


def _per_match(claims: Sequence[Claim]) -> list[dict[str, Any]]:
    by_match: dict[int, list[Claim]] = {}
    for c in claims:
        by_match.setdefault(c.match_id, []).append(c)
    latest = sorted(by_match, reverse=True)[:EVIDENCE_MATCHES]
    return [
        {
            "match": m,
            "races": len(by_match[m]),
            "judged_median_ms": statistics.median(c.reaction_ms for c in by_match[m]),
            "rtt_median_ms": statistics.median(c.comp_ms for c in by_match[m]),
            "anticipations": sum(c.anticipated for c in by_match[m]),
        }
        for m in latest
    ]


def assess(claims: Sequence[Claim], rtt_inflated: int = 0) -> Record:
    """The fair-play record of one player from their claims (any order) and rtt_inflated count."""
    n = len(claims)
    reactions = [c.reaction_ms for c in claims]
    median = float(statistics.median(reactions)) if reactions else None
    anticipations = sum(c.anticipated for c in claims)
    below_floor = sum(r < MEDIAN_FLOOR_MS for r in reactions)
    fast = sum(r < FAST_MS for r in reactions)
    p_median = binomial_tail(below_floor, n, 0.5)
    p_fast = binomial_tail(fast, n, FAST_RATE_HUMAN)
    p_anticipations = binomial_tail(anticipations, n, ANTICIPATION_RATE_HUMAN)
    spread = log_sd(reactions)
    reasons: list[str] = []
    if n >= MIN_RACES:
        if p_median < TAIL_P:
            reasons.append("median_below_human")
        if p_fast < TAIL_P:
            reasons.append("fast_share")
        if p_anticipations < TAIL_P:
            reasons.append("anticipations")
        if n >= LOW_LOG_SD_MIN_RACES and spread is not None and spread < LOW_LOG_SD:
            reasons.append("low_variance")
    if rtt_inflated >= RTT_INFLATED_FLAG:
        reasons.append("rtt_inflated")
    rtts = [c.comp_ms for c in claims]
    evidence = {
        "histogram": histogram(reactions),
        "round_trips": {
            "median_ms": float(statistics.median(rtts)) if rtts else None,
            "max_ms": max(rtts) if rtts else None,
        },
        "below_median_floor": below_floor,
        "fast": fast,
        "log_sd": None if spread is None else round(spread, 4),
        "p": {"median_below_human": p_median, "fast_share": p_fast, "anticipations": p_anticipations},
        "matches": _per_match(claims),
    }
    return Record(
        races=n,
        judged_median_ms=median,
        anticipations=anticipations,
        rtt_inflated=rtt_inflated,
        flagged=bool(reasons),
        reasons=reasons,
        evidence=evidence,
    )


def claims_of_events(match_id: int, seat: int, events: Iterable[dict[str, Any]]) -> list[Claim]:
    """The claims of one seat in one match's stored events (`race_claimed` data, as every game writes it)."""
    out = []
    for e in events:
        if e.get("kind") != "race_claimed" or e.get("seat") != seat:
            continue
        d = e.get("data") or {}
        claim = d.get("claim") or {}
        if not isinstance(claim.get("reaction_ms"), int):
            continue
        comps = d.get("comp_ms") or []
        comp = comps[seat] if isinstance(comps, list) and 0 <= seat < len(comps) and isinstance(comps[seat], int) else 0
        anticipated = bool(claim.get("anticipated") or d.get("anticipated"))
        out.append(Claim(match_id=match_id, reaction_ms=claim["reaction_ms"], comp_ms=comp, anticipated=anticipated))
    return out
