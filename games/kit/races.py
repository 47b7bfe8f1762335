"""Fair races (PROTOCOL.md "Fair races"): a race is plain state the rules keep, judged by the platform's `Timing`.

Pure like `games.engine`, and a namespace of its own so a game reads
`races.open(...)`, `races.settle_at(...)`: what is raced for, who claimed how
fast, and from when no seat could still be judged faster. Every real game and
the test race game share these, so a claim is recorded and ranked one way.

A human floor (PROTOCOL.md "Fair play"): a claim judged sooner than the
table's `min_reaction_ms` after its card was shown (`Timing.min_reaction_ms`)
cannot be a person's reaction to that card: it is an *anticipation*, marked
`"anticipated": true` in its record. It stays in the race (its seat has
claimed: a second, later claim is not a free retry), is ranked after every
real claim and never wins; a race holding nothing but anticipations is
settled at once without a winner. What one costs is each game's decision
(its rules docstring and help page; docs/fair-races.md, "A human floor").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.engine import Timing


def open(race_id: str, opened_ms: int, eligible: list[int] | tuple[int, ...]) -> dict[str, Any]:
    """A race is state: what was raced for (`id`), since when, who may claim, and the claims so far."""
    return {"id": race_id, "opened_ms": opened_ms, "eligible": sorted(eligible), "claims": [], "comp_ms": []}


def anticipated(reaction_ms: int, min_reaction_ms: int) -> bool:
    """Whether a claim judged `reaction_ms` after its card was shown is below the floor (never with the floor off)."""
    return min_reaction_ms > 0 and reaction_ms < min_reaction_ms


def claim_record(race: dict[str, Any], seat: int, timing: Timing, **data: Any) -> dict[str, Any]:
    """What a claim's event carries: both times, the judged reaction time, and the game's own `data`.

    `anticipated: True` only on an anticipation: a record without the key is a
    real claim, as every record from before the floor was.
    """
    record = {
        "seat": seat,
        "arrival_ms": timing.arrival_ms,
        "judged_ms": timing.judged_ms,
        "reaction_ms": max(0, timing.judged_ms - race["opened_ms"]),
        **data,
    }
    if anticipated(timing.judged_ms - race["opened_ms"], timing.min_reaction_ms):
        record["anticipated"] = True
    return record


def is_anticipation(claim: dict[str, Any]) -> bool:
    return bool(claim.get("anticipated"))


def with_claim(race: dict[str, Any], claim: dict[str, Any], comp_ms: tuple[int, ...] | list[int]) -> dict[str, Any]:
    """The race after one more claim (fold side: pure, no clock). `comp_ms` is the claim's `Timing.comp_ms`."""
    return {**race, "claims": [*race["claims"], claim], "comp_ms": list(comp_ms)}


def ranking(race: dict[str, Any]) -> list[dict[str, Any]]:
    """Real claims fastest first (judged time, then arrival, then seat: a deterministic tie-break), then anticipations."""
    return sorted(race["claims"], key=lambda c: (is_anticipation(c), c["judged_ms"], c["arrival_ms"], c["seat"]))


def winner(race: dict[str, Any]) -> dict[str, Any] | None:
    """The claim that wins: the fastest real one; None when the race holds only anticipations."""
    fastest = ranking(race)
    return fastest[0] if fastest and not is_anticipation(fastest[0]) else None


def settle_at(race: dict[str, Any]) -> int:
    """The match time from which no seat that has not claimed could still be judged faster.

    An unclaimed seat s could still beat the best judged time J if its claim
    arrived before J + comp_ms[s]; so the race is settled at the latest of
    those bounds, and at once when every eligible seat has claimed. Since
    J <= first arrival and comp <= lag_cap_ms, this is never later than
    `lag_cap_ms` after the first claim.

    Anticipations hold nothing: they count as their seats' claims (no seat
    waited for twice) but the bound is of the best real claim, and a race of
    anticipations alone is settled at its latest arrival, at once.
    """
    fastest = ranking(race)
    if not fastest:
        raise ValueError("a race without claims is not settled")
    latest_arrival = max(c["arrival_ms"] for c in race["claims"])
    if is_anticipation(fastest[0]):
        return latest_arrival
    best = fastest[0]["judged_ms"]
    claimed = {c["seat"] for c in race["claims"]}
    comp = race.get("comp_ms") or []
    bounds = [best + (comp[s] if s < len(comp) else 0) for s in race["eligible"] if s not in claimed]
    return max([latest_arrival, *bounds])
