"""Zwicker's guided first match (see games/first_hour/learning.py): two players, one short round.

The learner (seat 0) memorises the near row, snaps a card that matches the
discard, draws a 7 and looks at a hidden card with it, takes a low discard in
place of a card never seen, and calls Zwicker with 3 points.
"""

from __future__ import annotations

from typing import Any

from games.first_hour.learning import Move, Script, Step, last_timer
from games.first_hour.learning import msgid as _
from games.zwicker.rules import DECK_SIZE, RANKS, RULES, SUITS

SEATS = 2


def _id(rank: str, suit: str) -> int:
    return SUITS.index(suit) * 13 + RANKS.index(rank)


ORDER = [
    # you, slots 1-4: a red King (0 points, unseen), a 9 (unseen), then the near row you look at: an Ace and a 3
    _id("K", "diamonds"), _id("9", "clubs"), _id("A", "hearts"), _id("3", "spades"),
    # Ada
    _id("Q", "clubs"), _id("8", "hearts"), _id("10", "spades"), _id("6", "diamonds"),
    # the first discard, then the draw pile from the top
    _id("3", "hearts"),
    _id("7", "clubs"), _id("2", "diamonds"), _id("J", "hearts"), _id("5", "clubs"), _id("9", "diamonds"),
]


class _FixedOrder:
    """Stands in for the shuffle of `setup`: the lesson's cards first, the rest of the deck after them."""

    def shuffle(self, deck: list[int]) -> None:
        deck[:] = ORDER + [c for c in range(DECK_SIZE) if c not in ORDER]


def _deal() -> tuple[dict[str, Any], ...]:
    options = {"turn_seconds": 600, "peek_ms": 30_000, "dealer": SEATS - 1}
    return tuple(RULES.setup(SEATS, options, _FixedOrder()))  # type: ignore[arg-type]


SCRIPT = Script(
    rules=RULES,
    seat=0,
    names=("", "Ada"),
    deal=_deal(),
    steps=(
        Step(
            _("Four cards lie face down in front of you. At the start you may look at your near row (cards 3 and 4): "
              "an Ace (1 point) and a 3. Remember them, then press Next: they turn face down."),
            produces=(),
        ),
        Step(
            _("The top discard is a 3, like your card 4. Anyone may snap a matching card at any moment: select your "
              "card 4, then press Snap."),
            {"kind": "snap", "slots": [3]},
            _("Your card 4 is the 3 you saw: select only card 4, then press Snap. A wrong snap costs a penalty card."),
            before=(Move(None, last_timer("look-")),),
            produces=("snapped",),
        ),
        Step(
            _("One card fewer, 3 points fewer. It is your turn: draw a card from the draw pile."),
            {"kind": "draw"},
            _("Press Draw: the drawn card is seen only by you."),
            produces=("drawn",),
        ),
        Step(
            _("You drew a 7: its power lets you look at one of your own cards. Press Use power, then pick your card 1."),
            {"kind": "use", "slot": 0},
            _("Press Use power, then click your card 1 (top left) to look at it."),
            produces=("used",),
        ),
        Step(
            _("Card 1 is a red King: worth 0 points! Remember it, then press Next: your turn is over and Ada plays."),
        ),
        Step(
            _("Ada drew and threw away a 2. Take the 2 from the discard pile into your card 2, the one you never saw: "
              "press Take discard, then pick card 2."),
            {"kind": "take_discard", "slot": 1},
            _("Press Take discard, then click your card 2 (top right): the unknown card goes onto the discard pile."),
            before=(Move(None, last_timer("look-")), Move(1, {"kind": "draw"}), Move(1, {"kind": "discard"})),
            produces=("took_discard",),
        ),
        Step(
            _("That was a 9! You now hold a red King (0), a 2 and an Ace (1): 3 points. Ada played her turn. With 5 "
              "points or less, call Zwicker at the start of your turn: press Zwicker."),
            {"kind": "zwicker"},
            _("You hold 3 points, the lowest you can hope for: press Zwicker. Everybody else then plays one more turn."),
            before=(Move(1, {"kind": "draw"}), Move(1, {"kind": "replace", "slot": 3})),
            produces=("called",),
        ),
    ),
    closing=(Move(1, {"kind": "draw"}), Move(1, {"kind": "discard"})),
    done=_("Ada had her last turn and the cards are shown: your 3 points are the lowest, so you win. Remember what "
           "you saw, snap matches, and call Zwicker when you are low."),
)
