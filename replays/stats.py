"""Statistics from event logs (pure, no Django).

A finished match's log is read once into `MatchFigures`: for every seat its
place, whether it won, its position in the playing order, and the
game-specific counts and samples (reaction times, totals) found in the log.
Figures add up into a *tally* (plain JSON: counters plus histograms of the
samples), one per player and game and one per game, so a profile never
re-reads ten thousand logs: medians come from the histograms, exactly.

Each game's extractor follows that game's rules page and event kinds
(`/work/shared/rules/<slug>.md`, `games/<slug>/rules.py`):

- ZACK!: reaction time = from the `thrown` card that made it your turn (a
  card thrown by someone else) to your own in-turn throw; turns given by a
  challenge, a `choose` or the deal, and cards you threw yourself (a Stop card
  sending you again) are not reactions. Challenges won by reason and lost,
  challenges against you, out-of-turn throws and how many were caught: an
  out-of-turn card is caught when a `wrong_turn` challenge against its
  thrower succeeds while it lies among the four topmost cards of the box.
- Zwicker: final totals, calls won and lost, snaps right/wrong/taken back,
  powers used.
- ZIGZAG: combinations scored by your team, correct and false announcements,
  counters confirmed and failed, counters against your team confirmed, signs.
- Smack It!: smacks won, smack reaction time (a won smack's `reaction_ms`;
  a late smack counts the winner's reaction plus its `behind_ms`), false and
  late smacks, challenge rounds won.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Event = Mapping[str, Any]

MAX_SAMPLE_MS = 600_000  # a sample beyond ten minutes is clipped (histogram keys stay bounded)


@dataclass
class SeatFigures:
    seat: int
    place: int | None
    won: bool
    position: int  # 0 = the first player (left of the dealer)
    counts: dict[str, int] = field(default_factory=dict)
    samples: dict[str, list[int]] = field(default_factory=dict)

    def count(self, key: str, by: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + by

    def sample(self, key: str, value: int) -> None:
        self.samples.setdefault(key, []).append(max(0, min(int(value), MAX_SAMPLE_MS)))


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
    extractor = EXTRACTORS.get(game)
    if extractor is not None:
        extractor(events, per_seat, outcome or {})
    duration = max((int(e.get("t_ms") or 0) for e in events), default=0)
    return MatchFigures(game=game, seats=seats, events=len(events), duration_ms=duration, per_seat=per_seat)


def zack_figures(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    turn: int | None = None
    given_by: int | None = None  # the thrower of the card that made it `turn`'s turn (None: not a card)
    since = 0
    box: list[dict[str, Any]] = []  # what lies in the box: {seat, oot} for cards, {seat, colour} for colour cards
    for e in events:
        kind, seat, d = e["kind"], e.get("seat"), e.get("data") or {}
        t = int(e.get("t_ms") or 0)
        if kind == "dealt":
            turn, given_by, since = d.get("first"), None, t
        elif kind == "thrown":
            me = per_seat[seat]
            me.count("throws")
            oot = bool(d.get("out_of_turn"))
            if oot:
                me.count("out_of_turn_throws")
            elif given_by is not None and given_by != seat and turn == seat:
                me.sample("reaction_ms", t - since)
            box.append({"seat": seat, "oot": oot})
            turn, given_by, since = d.get("next"), seat, t
        elif kind == "colour_thrown":
            if not d.get("win"):
                per_seat[seat].count("colour_errors")
                box.append({"seat": seat, "colour": True})
        elif kind == "challenged":
            by, target = d["by"], d["target_seat"]
            if d.get("result") == "success":
                reason = d.get("reason")
                per_seat[by].count(f"challenges_won_{reason}")
                per_seat[target].count(f"challenged_caught_{reason}")
                if reason == "wrong_turn":
                    caught = sum(1 for x in box[-4:] if x["seat"] == target and x.get("oot"))
                    if caught:
                        per_seat[target].count("out_of_turn_caught", caught)
            else:
                per_seat[by].count("challenges_lost")
                per_seat[target].count("challenged_survived")
            box = []
            turn, given_by, since = d.get("next"), None, t
        elif kind == "chosen":
            turn, given_by, since = d.get("target_seat"), None, t


def zwicker_figures(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    winners = {int(s) for s in outcome.get("winners", [])}
    totals: list[int] | None = None
    for e in events:
        kind, seat, d = e["kind"], e.get("seat"), e.get("data") or {}
        if kind == "called":
            per_seat[seat].count("calls_won" if seat in winners else "calls_lost")
        elif kind == "snapped":
            per_seat[seat].count("snaps_right")
        elif kind == "snap_wrong":
            per_seat[seat].count("snaps_wrong")
        elif kind == "snap_taken_back":
            per_seat[seat].count("snaps_taken_back")
        elif kind == "used":
            per_seat[seat].count("powers_used")
            per_seat[seat].count(f"powers_{d.get('power')}")
        elif kind == "revealed":
            totals = d.get("totals")
    if totals is None:
        scores = {int(p["seat"]): p.get("score") for p in outcome.get("placements", [])}
        totals = [scores.get(s) for s in range(len(per_seat))]  # type: ignore[misc]
    for s, value in enumerate(totals):
        if isinstance(value, int):
            per_seat[s].sample("final_total", value)


def zigzag_figures(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    half = len(per_seat) // 2  # partners: seat t and t + n/2 (team t)

    def team(t: int) -> list[SeatFigures]:
        return [per_seat[t], per_seat[t + half]]

    for e in events:
        kind, seat, d = e["kind"], e.get("seat"), e.get("data") or {}
        if kind == "announced":
            per_seat[seat].count("announcements_correct" if d.get("correct") else "false_announcements")
        elif kind == "manche_ended":
            for f in team(int(d["team"])):
                f.count("combinations_scored")
        elif kind == "countered":
            if d.get("confirmed"):
                per_seat[seat].count("counters_confirmed")
                for f in team(int(d["team"])):
                    f.count("countered_against")
            else:
                per_seat[seat].count("counters_failed")
        elif kind == "signalled" or isinstance(d.get("signal"), dict):  # a sign of its own, or riding on a move
            per_seat[seat].count("signs_sent")


def smackit_figures(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    last_win: tuple[int, int] | None = None  # (winner seat, its reaction)
    for e in events:
        kind, seat, d = e["kind"], e.get("seat"), e.get("data") or {}
        if kind == "smacked":
            result = d.get("result")
            if result == "win":
                per_seat[seat].count("smacks_won")
                reaction = int(d.get("reaction_ms") or 0)
                per_seat[seat].sample("smack_reaction_ms", reaction)
                last_win = (seat, reaction)
            elif result == "ignored":
                per_seat[seat].count("late_smacks")
                if last_win is not None and last_win[0] == d.get("winner") and seat != last_win[0]:
                    per_seat[seat].sample("smack_reaction_ms", last_win[1] + int(d.get("behind_ms") or 0))
            elif result == "false":
                per_seat[seat].count("false_smacks")
        elif kind == "pile_won" and d.get("by") == "challenge":
            per_seat[seat].count("challenge_rounds_won")


EXTRACTORS: dict[str, Callable[[Sequence[Event], list[SeatFigures], Mapping[str, Any]], None]] = {
    "zack": zack_figures,
    "zwicker": zwicker_figures,
    "zigzag": zigzag_figures,
    "smackit": smackit_figures,
}


# --- tallies ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One game-specific figure: `count` of a counter, `median` or `mean` of a sample."""

    key: str
    kind: str
    source: str


def _counts(*keys: str) -> tuple[Figure, ...]:
    return tuple(Figure(k, "count", k) for k in keys)


GAME_FIGURES: dict[str, tuple[Figure, ...]] = {
    "zack": (
        Figure("reaction_median_ms", "median", "reaction_ms"),
        *_counts("challenges_won_slow", "challenges_won_wrong_turn", "challenges_lost"),
        *_counts("challenged_caught_slow", "challenged_caught_wrong_turn", "challenged_survived"),
        *_counts("out_of_turn_throws", "out_of_turn_caught", "colour_errors"),
    ),
    "zwicker": (
        Figure("average_final_total", "mean", "final_total"),
        *_counts("calls_won", "calls_lost", "snaps_right", "snaps_wrong", "snaps_taken_back", "powers_used"),
    ),
    "zigzag": _counts(
        "combinations_scored",
        "announcements_correct",
        "false_announcements",
        "counters_confirmed",
        "counters_failed",
        "countered_against",
        "signs_sent",
    ),
    "smackit": (
        *_counts("smacks_won"),
        Figure("smack_reaction_median_ms", "median", "smack_reaction_ms"),
        *_counts("false_smacks", "late_smacks", "challenge_rounds_won"),
    ),
}


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
    for fig in GAME_FIGURES.get(game, ()):
        if fig.kind == "count":
            out[fig.key] = tally["counts"].get(fig.source, 0)
        elif fig.kind == "median":
            out[fig.key] = hist_median(tally["hists"].get(fig.source, {}))
        else:
            out[fig.key] = hist_mean(tally["hists"].get(fig.source, {}))
    return out
