"""Pure standings: points by place, then the tie-breaks.

Order: (for knockout, the stage reached first) points, then opponents'
points, then wins, then rating. Players equal on all of these share a rank.

- **Opponents' points**: for every table a player sat at, the mean final
  points of their opponents there (partners in a team game are not
  opponents), summed over the tables. The mean, not the sum, so a table one
  seat smaller does not count against its players.
- **Wins**: tables where the player (or their team) took first place, shared
  first included. A bye is not a win; a forfeit is not either.
- **Rating**: whatever the rating selector gives (0 without ratings).

A forfeit (a no-show replaced by a bot who never connected) scores 0 for
that table; the other players keep the points of the places they played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.formats import bye_points, place_points, units_at


@dataclass(frozen=True)
class TableResult:
    """One finished table: players and places by seat (`None` places: no result, everyone shares)."""

    round: int
    players: tuple[int, ...]
    places: tuple[int | None, ...]
    teams: bool = False
    forfeits: frozenset[int] = frozenset()

    def opponents(self, player: int) -> list[int]:
        n = len(self.players)
        seat = self.players.index(player)
        if self.teams and n % 2 == 0 and n >= 4:
            half = n // 2
            return [p for s, p in enumerate(self.players) if s % half != seat % half]
        return [p for p in self.players if p != player]


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


@dataclass
class Row:
    player: int
    rank: int = 0
    points: float = 0.0
    opponents: float = 0.0
    wins: int = 0
    rating: float = 0.0
    played: int = 0
    byes: int = 0
    stage: tuple[float, ...] = ()
    by_round: dict[int, float] = field(default_factory=dict)
    withdrawn: bool = False

    def key(self) -> tuple[float, ...]:
        return (*self.stage, self.points, self.opponents, self.wins, self.rating)


def table_points(result: TableResult, *, table_size: int) -> dict[int, float]:
    """Points each player of one table scored (forfeits 0)."""
    pts = place_points(result.places, teams=result.teams, full_units=units_at(table_size, result.teams))
    return {p: (0.0 if p in result.forfeits else pts[s]) for s, p in enumerate(result.players)}


def compute(
    players: Sequence[int],
    results: Iterable[TableResult],
    *,
    table_size: int,
    teams: bool = False,
    byes: Iterable[Bye] = (),
    ratings: Mapping[int, float] | None = None,
    withdrawn: Iterable[int] = (),
    stages: Mapping[int, tuple[float, ...]] | None = None,
) -> list[Row]:
    """Standings rows, best first, with shared ranks for full ties."""
    results = list(results)
    rows = {p: Row(player=p, rating=float((ratings or {}).get(p, 0.0))) for p in players}
    gone = set(withdrawn)
    for p in gone & rows.keys():
        rows[p].withdrawn = True
    per_table: list[tuple[TableResult, dict[int, float]]] = []
    for r in results:
        pts = table_points(r, table_size=table_size)
        per_table.append((r, pts))
        first = _first_place(r)
        for p, value in pts.items():
            row = rows.get(p)
            if row is None:
                continue
            row.points += value
            row.played += 1
            row.by_round[r.round] = row.by_round.get(r.round, 0.0) + value
            if p in first and p not in r.forfeits:
                row.wins += 1
    full = bye_points(units_at(table_size, teams))
    for b in byes:
        row = rows.get(b.player)
        if row is not None:
            row.points += full
            row.byes += 1
            row.by_round[b.round] = row.by_round.get(b.round, 0.0) + full
    totals = {p: row.points for p, row in rows.items()}
    for r, _pts in per_table:
        for p in r.players:
            row = rows.get(p)
            opp = r.opponents(p)
            if row is not None and opp:
                row.opponents += sum(totals.get(o, 0.0) for o in opp) / len(opp)
    for p, row in rows.items():
        row.points = round(row.points, 4)
        row.opponents = round(row.opponents, 4)
        if stages is not None:
            row.stage = tuple(stages.get(p, ()))
    ordered = sorted(rows.values(), key=lambda row: (tuple(-x for x in row.key()), row.player))
    for i, row in enumerate(ordered):
        row.rank = ordered[i - 1].rank if i and ordered[i - 1].key() == row.key() else i + 1
    return ordered


def _first_place(r: TableResult) -> set[int]:
    known = [p for p in r.places if p is not None]
    if not known:
        return set()
    best = min(known)
    return {p for p, place in zip(r.players, r.places, strict=True) if place == best}


def knockout_stages(results: Iterable[TableResult], byes: Iterable[Bye]) -> dict[int, tuple[float, ...]]:
    """Knockout order before points: the later the round a player reached, and the better
    their place in it, the higher they stand (the final table's winner first)."""
    reached: dict[int, tuple[int, float]] = {}
    for r in results:
        order = sorted({pl for pl in r.places if pl is not None})
        for p, place in zip(r.players, r.places, strict=True):
            position = order.index(place) if place is not None else len(order)
            if p in r.forfeits:
                position = len(r.players)
            prev = reached.get(p)
            if prev is None or r.round > prev[0]:
                reached[p] = (r.round, position)
    for b in byes:
        prev = reached.get(b.player)
        if prev is None or b.round > prev[0]:
            reached[b.player] = (b.round, 0.5)  # through without playing: between winners and runners-up
    return {p: (float(rnd), -float(pos)) for p, (rnd, pos) in reached.items()}
