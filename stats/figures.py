"""Statistics from event logs: the platform's part (pure, no Django).

A finished match's log is read once into `MatchFigures`: for every seat its
place, whether it won, its position in the playing order, and the
game-specific counts and samples that the game's own extractor finds in the
log (`games/<slug>/stats.py`, found by `games.kit.registry.get_stats`; the
contract is games/kit/figures.py). Figures add up into a *tally* (plain JSON:
counters plus histograms of the samples), one per player and game and one per
game, so a profile never re-reads ten thousand logs: medians come from the
histograms, exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.figures import Event, SeatFigures
from games.kit.registry import get_stats


@dataclass
class MatchFigures:
    game: str
    seats: int
    events: int
    duration_ms: int
    per_seat: list[SeatFigures]

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": self.seats,
            "events": self.events,
            "duration_ms": self.duration_ms,
            "per_seat": [
                {"seat": f.seat, "place": f.place, "won": f.won, "position": f.position, "counts": f.counts, "samples": f.samples}
                for f in self.per_seat
            ],
        }


# --- reading one log --------------------------------------------------------------------


def first_player(events: Sequence[Event], seats: int, options: Mapping[str, Any] | None = None) -> int:
    """The seat that plays first: the deal's `first`, else left of the dealer (-1 = the last seat)."""
    for e in events:
        if e["kind"] == "dealt":
            data = e.get("data") or {}
            if isinstance(data.get("first"), int):
                return data["first"] % seats
            dealer = data.get("dealer", (data.get("options") or {}).get("dealer"))
            break
    else:
        dealer = None
    if not isinstance(dealer, int):
        dealer = (options or {}).get("dealer", -1)
    if not isinstance(dealer, int) or dealer < 0:
        dealer = seats - 1
    return (dealer + 1) % seats


def match_figures(
    game: str,
    events: Sequence[Event],
    seats: int,
    outcome: Mapping[str, Any] | None,
    options: Mapping[str, Any] | None = None,
) -> MatchFigures:
    """Everything the statistics count in one finished match."""
    places = {int(p["seat"]): p.get("place") for p in (outcome or {}).get("placements", [])}
    winners = {int(s) for s in (outcome or {}).get("winners", [])}
    first = first_player(events, seats, options)
    per_seat = [
        SeatFigures(seat=s, place=places.get(s), won=s in winners, position=(s - first) % seats) for s in range(seats)
    ]
    get_stats(game).extract(events, per_seat, outcome or {})
    duration = max((int(e.get("t_ms") or 0) for e in events), default=0)
    return MatchFigures(game=game, seats=seats, events=len(events), duration_ms=duration, per_seat=per_seat)


# --- tallies ------------------------------------------------------------------------------


def tally_empty() -> dict[str, Any]:
    return {"played": 0, "won": 0, "placed": 0, "place_sum": 0, "events": 0, "ms": 0, "positions": {}, "counts": {}, "hists": {}}


def _add_seat_parts(tally: dict[str, Any], seats: int, f: SeatFigures) -> None:
    row = tally["positions"].setdefault(str(seats), [[0, 0] for _ in range(seats)])
    row[f.position][0] += 1
    row[f.position][1] += int(f.won)
    counts = tally["counts"]
    for key, value in f.counts.items():
        counts[key] = counts.get(key, 0) + value
    for key, values in f.samples.items():
        hist = tally["hists"].setdefault(key, {})
        for v in values:
            hist[str(v)] = hist.get(str(v), 0) + 1


def tally_add_seat(tally: dict[str, Any], match: MatchFigures, f: SeatFigures) -> dict[str, Any]:
    """A player's tally takes one seat of a match (an account with two seats takes both)."""
    tally["played"] += 1
    tally["won"] += int(f.won)
    if f.place is not None:
        tally["placed"] += 1
        tally["place_sum"] += int(f.place)
    tally["events"] += match.events
    tally["ms"] += match.duration_ms
    _add_seat_parts(tally, match.seats, f)
    return tally


def tally_add_match(tally: dict[str, Any], match: MatchFigures) -> dict[str, Any]:
    """A game's tally takes the whole match: `played` counts matches, the rest adds every seat."""
    tally["played"] += 1
    tally["won"] += int(any(f.won for f in match.per_seat))
    tally["events"] += match.events
    tally["ms"] += match.duration_ms
    for f in match.per_seat:
        if f.place is not None:
            tally["placed"] += 1
            tally["place_sum"] += int(f.place)
        _add_seat_parts(tally, match.seats, f)
    return tally


def hist_median(hist: Mapping[str, int]) -> float | None:
    """The exact median of the samples a histogram holds (mean of the two middle ones when even)."""
    items = sorted((int(k), c) for k, c in hist.items() if c > 0)
    n = sum(c for _, c in items)
    if n == 0:
        return None
    lo_i, hi_i = (n - 1) // 2, n // 2
    lo = hi = None
    seen = 0
    for value, c in items:
        if lo is None and seen + c > lo_i:
            lo = value
        if seen + c > hi_i:
            hi = value
            break
        seen += c
    assert lo is not None and hi is not None
    return (lo + hi) / 2


def hist_mean(hist: Mapping[str, int]) -> float | None:
    n = sum(hist.values())
    return None if n == 0 else sum(int(k) * c for k, c in hist.items()) / n


def _ratio(a: float, b: float) -> float | None:
    return None if b == 0 else a / b


def figures(tally: Mapping[str, Any], game: str) -> dict[str, Any]:
    """The published figures of a tally: the general ones, then the game's own."""
    played = tally["played"]
    positions = []
    for size, rows in sorted(tally["positions"].items(), key=lambda kv: int(kv[0])):
        for p, (n, w) in enumerate(rows):
            positions.append({"seats": int(size), "position": p + 1, "played": n, "won": w, "win_rate": _ratio(w, n)})
    out: dict[str, Any] = {
        "played": played,
        "won": tally["won"],
        "win_rate": _ratio(tally["won"], played),
        "average_place": _ratio(tally["place_sum"], tally["placed"]),
        "average_events": _ratio(tally["events"], played),
        "average_seconds": None if played == 0 else tally["ms"] / played / 1000,
        "positions": positions,
    }
    for fig in get_stats(game).figures:
        if fig.kind == "count":
            out[fig.key] = tally["counts"].get(fig.source, 0)
        elif fig.kind == "median":
            out[fig.key] = hist_median(tally["hists"].get(fig.source, {}))
        else:
            out[fig.key] = hist_mean(tally["hists"].get(fig.source, {}))
    return out
