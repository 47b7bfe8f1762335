"""What every race of a log must show, for the games whose claims race (ZACK!, Smack It!)."""

from __future__ import annotations

from typing import Any


def check_settled_races(log: list[dict[str, Any]]) -> None:
    """Every settled race's winner is the fastest judged claim, and every claim is recorded with both times.

    A claim may carry the claims it overtook (`earlier`, ZACK!'s); they count among the race's claims.
    """
    claims: list[dict[str, Any]] = []
    for e in log:
        if e["kind"] == "race_claimed":
            claims.extend(e["data"].get("earlier", []))
            claims.append(e["data"]["claim"])
            assert e["data"]["claim"]["judged_ms"] <= e["data"]["claim"]["arrival_ms"]
        elif e["kind"] == "race_settled":
            best = min(claims, key=lambda c: (c["judged_ms"], c["arrival_ms"], c["seat"]))
            assert e["data"]["winner"] == best["seat"] == e["data"]["ranking"][0]["seat"]
            assert len(e["data"]["ranking"]) == len(claims)
            claims = []
