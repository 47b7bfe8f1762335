"""Pure tournament arithmetic: formats, table sizes, points by place, knockout advancement.

No Django here: the services feed these functions plain data, and the tests
check them on hand-built numbers. Decisions (docs/games.md "Tournaments"):

- A field that does not divide into full tables is split into the fewest
  tables of as even sizes as the game allows (never below its minimum, and
  only sizes its rules accept, e.g. ZIGZAG 4 or 6); only when no split exists
  at all does the lowest-ranked player(s) sit out with a **bye**.
- Points by place are scaled to the range of a full table, so a table one
  seat smaller hands out the same average points per player: the last place
  scores 0 and the winner of any table scores `units - 1` of a full table.
- ZIGZAG (team games) places teams: the partners at seats s and s + n/2 share
  their team's place and each scores the team's points.
- A bye scores the average points of a full table (not a win, no opponents).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

FORMATS = ("swiss", "round_robin", "knockout", "arena")
ROUND_ROBIN_MAX_PLAYERS = 40
MAX_ROUNDS = 30
MAX_ARENA_MINUTES = 24 * 60


def units_at(size: int, teams: bool) -> int:
    """Competitors at a table: players, or teams of two in a team game."""
    return size // 2 if teams else size


def table_sizes(field: int, table_size: int, allowed: Iterable[int]) -> tuple[list[int], int]:
    """Split `field` players into tables: `(sizes largest first, byes)`.

    Fewest byes first, then fewest tables, then the most even sizes (sum of
    squared seats missing from a full table). A small dynamic programme over
    the field, so any set of allowed sizes works (ZIGZAG: only 4 and 6).
    """
    sizes = sorted({s for s in allowed if 0 < s <= table_size}, reverse=True)
    if not sizes or field <= 0:
        return [], max(field, 0)
    inf = (math.inf, math.inf)
    best: list[tuple[float, float]] = [inf] * (field + 1)
    choice: list[int] = [0] * (field + 1)
    best[0] = (0, 0)
    for m in range(1, field + 1):
        for s in sizes:
            if s <= m and best[m - s] != inf:
                cand = (best[m - s][0] + 1, best[m - s][1] + (table_size - s) ** 2)
                if cand < best[m]:
                    best[m], choice[m] = cand, s
    for byes in range(field + 1):
        m = field - byes
        if best[m] != inf:
            out: list[int] = []
            while m > 0:
                out.append(choice[m])
                m -= choice[m]
            return sorted(out, reverse=True), byes
    return [], field  # unreachable: best[0] is always reachable


def place_points(places: Sequence[int | None], *, teams: bool, full_units: int) -> list[float]:
    """Points per seat for one finished table.

    `places` per seat (1 = best; shared places equal; None = no result: an
    aborted match, where everyone shares). Competitors are ordered by place;
    a competitor in position i of u scores (u - 1 - i) scaled to a full
    table's range; tied competitors share the mean of the positions they fill.
    """
    n = len(places)
    if n == 0:
        return []
    if teams and n % 2 == 0 and n >= 4:
        half = n // 2
        unit_of = [s % half for s in range(n)]
        unit_place: dict[int, int] = {}
        for s, p in enumerate(places):
            value = p if p is not None else 1
            unit_place[unit_of[s]] = min(unit_place.get(unit_of[s], value), value)
    else:
        unit_of = list(range(n))
        unit_place = {s: (p if p is not None else 1) for s, p in enumerate(places)}
    units = len(unit_place)
    if units <= 1:
        return [0.0] * n
    scale = (max(full_units, units) - 1) / (units - 1)
    order = sorted(unit_place, key=lambda u: unit_place[u])
    unit_points: dict[int, float] = {}
    i = 0
    while i < units:
        j = i
        while j + 1 < units and unit_place[order[j + 1]] == unit_place[order[i]]:
            j += 1
        shared = sum(units - 1 - k for k in range(i, j + 1)) / (j - i + 1)
        for k in range(i, j + 1):
            unit_points[order[k]] = round(shared * scale, 4)
        i = j + 1
    return [unit_points[unit_of[s]] for s in range(n)]


def bye_points(full_units: int) -> float:
    """A bye scores the average points of a full table."""
    return round((full_units - 1) / 2, 4)


def round_robin_rounds(players: int, table_size: int, allowed: Iterable[int] | None = None) -> int:
    """Rounds for every player to be able to meet every other once.

    Each round a player meets on average sum(s * (s - 1)) / n others (tables
    one seat smaller meet fewer), so: ceil((n - 1) / that).
    """
    if players <= table_size:
        return 1
    sizes, _byes = table_sizes(players, table_size, allowed if allowed is not None else range(2, table_size + 1))
    per_round = sum(s * (s - 1) for s in sizes) / players
    return max(1, math.ceil((players - 1) / per_round - 1e-9)) if per_round else 1


def knockout_advancing(table_units: Sequence[int], *, table_size: int, teams: bool, min_units: int) -> list[int]:
    """How many competitors (players or teams) advance from each table this round.

    One table left: it was the final, nobody advances. While more tables play
    than a final table holds, the top half of each table advances (at least
    one). When one winner per table fits at a final table, the next round is
    the final: as many per table advance as fill it, and at least enough to
    reach the game's minimum; every table still loses at least one.
    """
    tables = len(table_units)
    if tables <= 1:
        return [0] * tables
    full_units = units_at(table_size, teams)
    if tables <= full_units:
        per = max(1, full_units // tables)
        while per * tables < min_units:
            per += 1
        return [max(1, min(per, u - 1)) for u in table_units]
    return [max(1, u // 2) for u in table_units]


def knockout_losers(
    players: Sequence[int], places: Sequence[int | None], advance: int, *, teams: bool, rank: Mapping[int, int]
) -> list[int]:
    """The players of one table who do not go on: competitors ordered by place, a tie at the
    cut broken by the standings (`rank`, lower is better); no result counts as last."""
    n = len(players)
    if teams and n % 2 == 0 and n >= 4:
        half = n // 2
        units = [[players[s] for s in range(n) if s % half == u] for u in range(half)]
        unit_places = [[places[s] for s in range(n) if s % half == u] for u in range(half)]
    else:
        units = [[p] for p in players]
        unit_places = [[pl] for pl in places]

    def key(i: int) -> tuple[float, int]:
        known = [pl for pl in unit_places[i] if pl is not None]
        return (min(known) if known else math.inf, min(rank.get(p, 1 << 30) for p in units[i]))

    order = sorted(range(len(units)), key=key)
    return [p for i in order[advance:] for p in units[i]]


def min_players(table_size: int) -> int:
    """A tournament needs at least one full table of players."""
    return table_size
