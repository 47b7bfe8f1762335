"""Fair races (PROTOCOL.md "Fair races"): a race is plain state the rules keep, judged by the platform's `Timing`.

Pure like `games.engine`, and a namespace of its own so a game reads
`races.open(...)`, `races.settle_at(...)`: what is raced for, who claimed how
fast, and from when no seat could still be judged faster. Every real game and
the test race game share these, so a claim is recorded and ranked one way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.engine import Timing


def open(race_id: str, opened_ms: int, eligible: list[int] | tuple[int, ...]) -> dict[str, Any]:
    """A race is state: what was raced for (`id`), since when, who may claim, and the claims so far."""
    return {"id": race_id, "opened_ms": opened_ms, "eligible": sorted(eligible), "claims": [], "comp_ms": []}


def claim_record(race: dict[str, Any], seat: int, timing: Timing, **data: Any) -> dict[str, Any]:
    """What a claim's event carries: both times, the judged reaction time, and the game's own `data`."""
    return {
        "seat": seat,
        "arrival_ms": timing.arrival_ms,
        "judged_ms": timing.judged_ms,
        "reaction_ms": max(0, timing.judged_ms - race["opened_ms"]),
        **data,
    }


def with_claim(race: dict[str, Any], claim: dict[str, Any], comp_ms: tuple[int, ...] | list[int]) -> dict[str, Any]:
    """The race after one more claim (fold side: pure, no clock). `comp_ms` is the claim's `Timing.comp_ms`."""
    return {**race, "claims": [*race["claims"], claim], "comp_ms": list(comp_ms)}


def ranking(race: dict[str, Any]) -> list[dict[str, Any]]:
    """Claims fastest first: judged time, then arrival, then seat (a deterministic tie-break)."""
    return sorted(race["claims"], key=lambda c: (c["judged_ms"], c["arrival_ms"], c["seat"]))


def settle_at(race: dict[str, Any]) -> int:
    """The match time from which no seat that has not claimed could still be judged faster.

    An unclaimed seat s could still beat the best judged time J if its claim
    arrived before J + comp_ms[s]; so the race is settled at the latest of
    those bounds, and at once when every eligible seat has claimed. Since
    J <= first arrival and comp <= lag_cap_ms, this is never later than
    `lag_cap_ms` after the first claim.
    """
    fastest = ranking(race)
    if not fastest:
        raise ValueError("a race without claims is not settled")
    best = fastest[0]["judged_ms"]
    claimed = {c["seat"] for c in race["claims"]}
    comp = race.get("comp_ms") or []
    bounds = [best + (comp[s] if s < len(comp) else 0) for s in race["eligible"] if s not in claimed]
    latest_arrival = max(c["arrival_ms"] for c in race["claims"])
    return max([latest_arrival, *bounds])
