"""The opening every game's `setup` shares: seats and options checked, the dealer and the first seat, a deal.

Why here: four games wrote the same dozen lines (a seat count check, the options resolved against the
game's schema, the `dealer` option checked and defaulted to the last seat, the first player on the
dealer's left, a shuffled deck dealt round the table) four slightly different ways. The game keeps what
is its own: its deck, how many cards each seat gets, and the events of its `dealt` opening.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from games.engine import Option, RuleError, is_int, resolve_options

T = TypeVar("T")


class _Seated(Protocol):
    name: str
    min_seats: int
    max_seats: int
    options: dict[str, Option]


@dataclass(frozen=True)
class Opening:
    """A table's start: its seats, its resolved options, the dealer and the seat on the dealer's left."""

    seats: int
    options: dict[str, Any]
    dealer: int
    first: int

    @property
    def options_placed(self) -> dict[str, Any]:
        """The options with `dealer` the seat it names (for a game whose log records the dealer placed)."""
        return {**self.options, "dealer": self.dealer}


def open_table(rules: _Seated, seats: int, options: dict[str, Any] | None, *, seat_counts: Collection[int] | None = None) -> Opening:
    """Check `seats` (the game's range, or exactly `seat_counts`) and the options; place the dealer.

    The internal `dealer` option (-1: the last seat) must name a seat of this table; `options["dealer"]`
    keeps what was asked (-1 or a seat), `Opening.dealer` is the seat it names.
    """
    allowed = seat_counts if seat_counts is not None else range(rules.min_seats, rules.max_seats + 1)
    if not is_int(seats) or seats not in allowed:
        counts = " or ".join(str(n) for n in sorted(allowed)) if seat_counts is not None else f"{rules.min_seats} to {rules.max_seats}"
        raise RuleError("bad_option", f"{rules.name} is played by {counts} players")
    if options is not None and not isinstance(options, dict):
        raise RuleError("bad_option", "options must be a mapping")
    opts = resolve_options(rules.options, options, seats)
    asked = opts.get("dealer", -1)
    if asked >= seats:
        raise RuleError("bad_option", f"option dealer must be below {seats}")
    dealer = seats - 1 if asked < 0 else asked
    return Opening(seats=seats, options=opts, dealer=dealer, first=(dealer + 1) % seats)


def shuffled(deck: Sequence[T], rng: random.Random) -> list[T]:
    """A shuffled copy of `deck` (the match's generator: a replay of the setup deals the same cards)."""
    order = list(deck)
    rng.shuffle(order)
    return order


def deal_round(cards: Sequence[T], seats: int, first: int) -> list[list[T]]:
    """Every card dealt one at a time round the table from `first`: seat piles in the order each got its cards."""
    piles: list[list[T]] = [[] for _ in range(seats)]
    for k, c in enumerate(cards):
        piles[(first + k) % seats].append(c)
    return piles


def deal_hands(cards: Sequence[T], seats: int, size: int) -> tuple[list[list[T]], list[T]]:
    """`size` cards to each seat in turn of the deck's order (seat 0 first), and the rest (the draw)."""
    return [list(cards[size * s : size * (s + 1)]) for s in range(seats)], list(cards[size * seats :])
