"""Pure seating: who sits with whom each round (Swiss, round robin, knockout, arena).

Players are plain ids; `met` counts how often two players already sat at one
table. No Django, no clock; randomness only through the `rng` given, so a
round is reproducible from the tournament's seed.

Swiss is a small local search (Zulip-style "do the simple thing that is
fast enough"): start from the standings order cut into tables (leaders
together), then swap players between tables while a swap lowers

    cost = REPEAT_WEIGHT * sum(times each seated pair met before)
           + sum((table index - the player's ideal table index) ** 2)

A player's ideal index is where the standings order puts them; players level
on points share the mean index of their points group, so they are free to
move among the tables that group spans. A repeat is so expensive that a
player moves several tables away from their ideal rather than meet someone
again, and the displacement term keeps that move as short as possible.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from tournaments.formats import table_sizes

REPEAT_WEIGHT = 10_000.0

Met = Mapping[int, Mapping[int, int]]


def meetings(tables: Iterable[Sequence[int]], met: dict[int, dict[int, int]] | None = None) -> dict[int, dict[int, int]]:
    """Add every pair seated at each table to the meeting counts (both directions)."""
    out: dict[int, dict[int, int]] = met if met is not None else defaultdict(dict)
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                out.setdefault(a, {})
                out.setdefault(b, {})
                out[a][b] = out[a].get(b, 0) + 1
                out[b][a] = out[b].get(a, 0) + 1
    return out


def repeated_pairs(tables: Iterable[Sequence[int]], met: Met) -> int:
    """Pairs seated together this round who had already met (each pair counted once)."""
    count = 0
    for table in tables:
        for i, a in enumerate(table):
            row = met.get(a, {})
            count += sum(1 for b in table[i + 1:] if row.get(b, 0) > 0)
    return count


def cut(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """The order cut into consecutive tables of the given sizes."""
    out, i = [], 0
    for size in sizes:
        out.append(list(order[i:i + size]))
        i += size
    return out


def random_seating(players: Sequence[int], sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
    """The baseline the Swiss seating is measured against."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    return cut(shuffled, sizes)


def _ideal_ranks(order: Sequence[int], points: Mapping[int, float] | None) -> dict[int, float]:
    """Each player's place in the standings; players level on points share their group's mean."""
    ideal = {p: float(i) for i, p in enumerate(order)}
    if points is None:
        return ideal
    groups: dict[float, list[int]] = defaultdict(list)
    for p in order:
        groups[points.get(p, 0.0)].append(p)
    for members in groups.values():
        mean = sum(ideal[p] for p in members) / len(members)
        for p in members:
            ideal[p] = mean
    return ideal


def _centres(sizes: Sequence[int]) -> list[float]:
    """The middle standings place of each table when the order is cut into `sizes`."""
    out, start = [], 0
    for size in sizes:
        out.append(start + (size - 1) / 2)
        start += size
    return out


def improve(
    tables: list[list[int]],
    met: Met,
    ideal: Mapping[int, float] | None = None,
    *,
    repeat_weight: float = REPEAT_WEIGHT,
    max_passes: int = 60,
) -> list[list[int]]:
    """Swap players between tables while a swap lowers the cost (the best swap for each player).

    A pair that met m times before costs m squared (a third meeting is much
    worse than a second). With `ideal` (standings places), a player away
    from the table their place belongs to costs the squared distance, in
    tables, from that table's centre. While any seated pair repeats, only
    players in such a pair look for swaps, from the bottom of the standings up:
    the lower-placed of two players who met moves, and no uninvolved player
    is pulled across the field to break the pair.
    """
    where = {p: t for t, table in enumerate(tables) for p in table}
    sizes = [len(t) for t in tables]
    centre = _centres(sizes)
    scale = (sum(sizes) / len(sizes)) ** 2 if sizes else 1.0

    def m(a: int, b: int) -> int:
        n = met.get(a, {}).get(b, 0)
        return n * n

    def disp(p: int, t: int) -> float:
        return 0.0 if ideal is None else (ideal[p] - centre[t]) ** 2 / scale

    order = [p for table in tables for p in table]
    if ideal is not None:
        order.sort(key=lambda p: ideal[p])
    everyone = False
    for _ in range(max_passes):
        conflicted: set[int] = set()
        for table in tables:
            for i, p in enumerate(table):
                for q in table[i + 1:]:
                    if met.get(p, {}).get(q, 0):
                        conflicted.update((p, q))
        movers = [p for p in reversed(order) if everyone or not conflicted or p in conflicted]
        improved = False
        for a in movers:
            ta = where[a]
            rest_a = [x for x in tables[ta] if x != a]
            here_a = sum(m(a, x) for x in rest_a)
            best, best_b = -1e-9, None
            for tb, table in enumerate(tables):
                if tb == ta:
                    continue
                for b in table:
                    rest_b = [y for y in table if y != b]
                    delta = repeat_weight * (
                        sum(m(b, x) for x in rest_a) - here_a + sum(m(a, y) for y in rest_b) - sum(m(b, y) for y in rest_b)
                    )
                    if ideal is not None:
                        delta += disp(a, tb) + disp(b, ta) - disp(a, ta) - disp(b, tb)
                    if delta < best:
                        best, best_b = delta, b
            if best_b is not None:
                tb = where[best_b]
                tables[ta][tables[ta].index(a)] = best_b
                tables[tb][tables[tb].index(best_b)] = a
                where[a], where[best_b] = tb, ta
                improved = True
        if improved:
            everyone = False
        elif len(movers) == len(order):
            break
        else:
            everyone = True  # the players who repeat cannot improve alone: anyone may help
    return tables


def shuffle_seats(tables: list[list[int]], rng: random.Random) -> list[list[int]]:
    """Random seat order inside each table (who plays first, and ZIGZAG partners)."""
    for table in tables:
        rng.shuffle(table)
    return tables


def seat_swiss(
    order: Sequence[int],
    sizes: Sequence[int],
    met: Met,
    points: Mapping[int, float] | None = None,
    rng: random.Random | None = None,
) -> list[list[int]]:
    """Seat a Swiss round: `order` is the standings (best first), `sizes` the tables (largest first)."""
    if sum(sizes) != len(order):
        raise ValueError(f"{len(order)} players do not fill tables of {list(sizes)}")
    tables = improve(cut(order, sizes), met, _ideal_ranks(order, points))
    return shuffle_seats(tables, rng) if rng is not None else tables


def seat_round_robin(
    players: Sequence[int],
    sizes: Sequence[int],
    met: Met,
    rng: random.Random,
    restarts: int = 10,
    round_index: int | None = None,
) -> list[list[int]]:
    """Seat a round so that pairs who met least meet now (every pair as evenly as possible).

    The cost of a seating is the sum of the prior meetings of the pairs it
    seats, so a pair meets a second time only when every alternative is
    worse. Several random starts; the best is kept.
    """
    if sum(sizes) != len(players):
        raise ValueError(f"{len(players)} players do not fill tables of {list(sizes)}")
    if round_index is not None and sizes and all(s == 2 for s in sizes):
        # Tables of two: the classic circle method is a perfect schedule (greedy can get stuck).
        return shuffle_seats(improve(circle_pairs(sorted(players), round_index), met, None, repeat_weight=1.0), rng)
    best: list[list[int]] | None = None
    best_cost = float("inf")
    for _ in range(max(1, restarts)):
        tables = improve(random_seating(players, sizes, rng), met, None, repeat_weight=1.0)
        cost = sum(met.get(a, {}).get(b, 0) for t in tables for i, a in enumerate(t) for b in t[i + 1:])
        if cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    assert best is not None
    return shuffle_seats(best, rng)


def circle_pairs(players: Sequence[int], round_index: int) -> list[list[int]]:
    """Round `round_index` of the circle method: the first player stays, the others rotate."""
    first, rest = players[0], list(players[1:])
    k = round_index % len(rest) if rest else 0
    ring = [first, *rest[k:], *rest[:k]]
    n = len(ring)
    return [[ring[i], ring[n - 1 - i]] for i in range(n // 2)]


def seat_knockout(order: Sequence[int], sizes: Sequence[int], rng: random.Random | None = None) -> list[list[int]]:
    """Snake seeding: the best players spread over the tables, so they meet as late as possible."""
    tables: list[list[int]] = [[] for _ in sizes]
    forward, t = True, 0
    for p in order:
        while len(tables[t]) >= sizes[t]:
            t, forward = _snake_step(t, forward, len(sizes))
        tables[t].append(p)
        t, forward = _snake_step(t, forward, len(sizes))
    return shuffle_seats(tables, rng) if rng is not None else tables


def _snake_step(t: int, forward: bool, n: int) -> tuple[int, bool]:
    if forward:
        return (t + 1, True) if t + 1 < n else (t, False)
    return (t - 1, False) if t > 0 else (t, True)


def seat_arena(
    waiting: Sequence[int],
    *,
    table_size: int,
    allowed: Iterable[int],
    points: Mapping[int, float],
    met: Met,
    anyone_playing: bool,
    rng: random.Random | None = None,
) -> tuple[list[list[int]], list[int]]:
    """Arena re-seating: `(tables to start now, players still waiting)`.

    `waiting` is in order of waiting (longest first). As soon as a full
    table's worth waits, the longest-waiting players sit down, grouped by
    points like a Swiss round and avoiding recent opponents. A smaller table
    starts only when nobody else is playing (nobody would ever join them).
    """
    allowed = sorted(set(allowed))
    n = len(waiting)
    if n >= table_size:
        count = n // table_size
        chosen = list(waiting[: count * table_size])
        order = sorted(chosen, key=lambda p: -points.get(p, 0.0))
        tables = seat_swiss(order, [table_size] * count, met, points, rng)
        return tables, list(waiting[count * table_size:])
    if not anyone_playing and allowed and n >= allowed[0]:
        sizes, byes = table_sizes(n, table_size, allowed)
        if sizes:
            order = sorted(waiting[: n - byes], key=lambda p: -points.get(p, 0.0))
            return seat_swiss(order, sizes, met, points, rng), list(waiting[n - byes:])
    return [], list(waiting)
