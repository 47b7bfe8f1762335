"""A resignation in every game at once (PROTOCOL.md "Leaving a match"), pure like the rules.

Why in the kit and not in each `games/<slug>/rules.py`: leaving is the platform's, not a
rulebook's. The platform submits the system action `{"kind": "resign", "seat": N}`; the kit
(games/engine.GameRules) turns it into a `resigned` event, folds it into `state["resigned"]`
(in the order players left) and, whenever the game's own fold has written an outcome, places
the resigned seats after every seat still in. A bot plays the seat on for the others, so the
game itself never needs to know: its outcome is only re-ordered at the end.

Teams (ZIGZAG): a team's seats share their place (PROTOCOL.md "Matches and replays"), so a
team that lost a player to a resignation is placed after every team still whole: the partner
keeps playing with a bot but the partnership forfeited, as in a card club.
"""

from __future__ import annotations

from typing import Any

RESIGN = "resign"  # the system's action (seat None, `seat` in the action): only the platform submits it
RESIGNED = "resigned"  # the event in the log: public, its seat the player who left


def resigned_seats(state: Any) -> list[int]:
    """The seats whose players resigned, in the order they left."""
    return list(state.get("resigned") or []) if isinstance(state, dict) else []


def fold_resigned(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The state after `seat` resigned (a new dict: folds never mutate their input)."""
    done = resigned_seats(state)
    return {**state, "resigned": done if seat in done else [*done, seat]}


def place_resigned(outcome: dict[str, Any], resigned: list[int], seats: int, teams: bool = False) -> dict[str, Any]:
    """`outcome` with every resigned seat (or team) placed after every one still in.

    Those still in keep their order and ties among themselves (competition ranking: 1, 1, 3);
    the resigned follow, the last to leave first, each alone (a team: both partners together).
    `winners` are the seats placed first after that. The `reasons` list says why a seat sits
    where it does (`{"seat", "code": "resigned"}`), beside any reason the game gave.
    """
    if not resigned or outcome.get("resigned") == resigned:
        return outcome
    half = seats // 2 if teams and seats % 2 == 0 else 0

    def side(s: int) -> int:
        return s % half if half else s

    out_sides: list[int] = []
    for s in reversed(resigned):  # the last to leave is placed best among the resigned
        if side(s) not in out_sides:
            out_sides.append(side(s))
    given = {int(p["seat"]): p for p in outcome.get("placements", [])}
    was = {s: int(p.get("place") or seats) for s, p in given.items()}
    still = [s for s in range(seats) if side(s) not in out_sides]
    placements: list[dict[str, Any]] = []
    for s in still:
        place = 1 + len({side(u) for u in still if was.get(u, seats) < was.get(s, seats)})
        placements.append({**given.get(s, {"seat": s}), "seat": s, "place": place})
    ahead = len({side(s) for s in still})
    for rank, sd in enumerate(out_sides):
        for s in range(seats):
            if side(s) == sd:
                placements.append({**given.get(s, {"seat": s}), "seat": s, "place": ahead + rank + 1})
    placements.sort(key=lambda p: (p["place"], p["seat"]))
    reasons = [r for r in outcome.get("reasons", []) if r.get("seat") not in resigned]
    reasons += [{"seat": s, "code": "resigned"} for s in resigned]
    return {
        **outcome,
        "placements": placements,
        "winners": sorted(p["seat"] for p in placements if p["place"] == 1),
        "reasons": reasons,
        "resigned": list(resigned),
    }
