"""Builders for exact ZIGZAG scenarios: a hand-built `dealt` event, folded.

Scenarios choose every hand, every starting card and the draw pile order, so
each rule can be tested on a table whose answer is known in advance.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Event, event, fold_all, resolve_options
from games.zigzag.rules import (
    ATTITUDES,
    CHARACTERS,
    HAND_SIZE,
    LANDSCAPES,
    RULES,
    _new_manche,
    deck_for,
)

State = dict[str, Any]


def ch(landscape: str, character: str, attitude: str) -> int:
    """The id of a character card from its three features."""
    return 16 * LANDSCAPES.index(landscape) + 4 * CHARACTERS.index(character) + ATTITUDES.index(attitude)


def hand_of(*names: str) -> list[int]:
    """Character cards by name, "landscape character attitude" each: a scenario's hand reads as a line."""
    return [ch(*name.split()) for name in names]


JOKER = 64
JOKER2 = 65
STOP_L, STOP_L2, STOP_C, STOP_C2, STOP_A, STOP_A2 = 68, 69, 70, 71, 72, 73
Z1, Z2, Z3 = 74, 75, 76

# ready-made hands
ZIG_PINK = hand_of("pink water cocktail", "pink flame running", "pink cloud sunglasses", "pink tree suitcase")
ZIG_SUITCASE = hand_of("pink water suitcase", "blue flame suitcase", "green cloud suitcase", "yellow tree suitcase")
ZAG_PINK_WATER = [ch("pink", "water", a) for a in ATTITUDES]
NONE_A = hand_of("blue water cocktail", "green flame running", "yellow cloud sunglasses", "blue tree suitcase")
NONE_B = hand_of("green water running", "yellow flame cocktail", "blue cloud suitcase", "green tree sunglasses")
NONE_C = hand_of("yellow water sunglasses", "blue flame cocktail", "green cloud running", "yellow tree cocktail")
NONE_D = hand_of("green water sunglasses", "yellow flame suitcase", "blue cloud cocktail", "yellow cloud running")
NONE_E = hand_of("blue water running", "green flame sunglasses", "yellow water cocktail", "green tree suitcase")
NONE_F = hand_of("yellow water running", "blue flame sunglasses", "green cloud cocktail", "blue tree running")


def deal_events(
    hands: list[list[int]],
    starting: list[int] | None = None,
    draw: list[int] | None = None,
    options: dict[str, Any] | None = None,
    manche: int = 1,
    now_ms: int = 0,
) -> list[Event]:
    """`dealt` + `tour_started` + timer with exactly these hands, starting cards and draw pile.

    Cards not named go to the draw pile after the named ones, in id order,
    unless `draw` is given (then the deck is just the named cards: a short
    draw pile for reshuffle scenarios).
    """
    seats = len(hands)
    opts = resolve_options(RULES.options, options or {}, seats)
    used = [c for h in hands for c in h]
    if starting is None:
        pool = [c for c in deck_for(seats, opts["beginner"]) if c not in used]
        starting = pool[:seats]
    used += starting
    if draw is None:
        draw = [c for c in deck_for(seats, opts["beginner"]) if c not in used]
    assert len(set(used + draw)) == len(used) + len(draw), "a card named twice"
    assert all(len(h) == HAND_SIZE for h in hands), f"the rules deal {HAND_SIZE} cards each"
    dealer = opts["dealer"] if opts["dealer"] >= 0 else seats - 1
    # the rules' own deal, its shuffle left out: the deck in this order deals exactly these hands and starting cards
    return _new_manche(seats, opts, dealer, [c for h in hands for c in h] + starting + draw, manche, now_ms, _AS_GIVEN)


class _AsGiven(random.Random):
    """A generator whose shuffle leaves the order as it is."""

    def shuffle(self, x: Any) -> None:
        pass


_AS_GIVEN = _AsGiven()


def table(
    hands: list[list[int]],
    starting: list[int] | None = None,
    draw: list[int] | None = None,
    options: dict[str, Any] | None = None,
    scored: dict[int, list[str]] | None = None,
    failed: dict[int, int] | None = None,
    bonus: dict[int, list[str]] | None = None,
) -> State:
    """A folded table; `scored` and `failed` are set by folding real events of an earlier manche.

    `bonus`: per team, which of its `scored` combinations a Double ZAG filled.
    """
    seats = len(hands)
    events: list[Event] = []
    manche = 1
    if scored or failed:
        rng = random.Random(0)
        events += RULES.setup(seats, options or {}, rng)[:1]
        for team, combos in (scored or {}).items():
            for i in range(len(combos)):
                filled = combos[i] in (bonus or {}).get(team, [])
                events.append(
                    event("manche_ended", None, manche=1, team=team, combo=combos[i], bonus=filled, scored=combos[: i + 1])
                )
        for team, n in (failed or {}).items():
            events.append(
                event(
                    "countered",
                    0 if team else 1,
                    team=1 - team if seats == 4 else (team + 1) % (seats // 2),
                    by=team,
                    confirmed=False,
                    proof={},
                    failed=n,
                )
            )
        manche = 2
    events += deal_events(hands, starting, draw, options, manche=manche)
    return fold_all(RULES, [dict(e) for e in events])


def act(state: State, seat: int | None, action: dict[str, Any], now_ms: int = 1000, seed: int = 0) -> tuple[list[Event], State]:
    """Decide and fold one action."""
    events = RULES.decide(state, seat, action, now_ms, random.Random(seed))
    for e in events:
        state = RULES.fold(state, e)
    return events, state


def kinds(events: list[Event]) -> list[str]:
    return [e["kind"] for e in events]


def open_all(state: State, seats: list[int] | None = None) -> State:
    """Every (listed) seat opens with its first hand card."""
    for s in seats if seats is not None else range(state["seats"]):
        _, state = act(state, s, {"kind": "open", "card": state["hands"][s][0]})
    return state


def own_class(state: State, seat: int) -> str:
    """The class of `seat`'s own hand as its view names it with the beginner help (option `hand_hint`) on."""
    hinted = {**state, "options": {**state["options"], "hand_hint": True}}
    return RULES.view(hinted, seat)["hand_class"]
