"""Smack It!'s guided first match (see games/first_hour/learning.py): two players, a few cards each.

The learner (seat 0) flips in turn, smacks a Smack it! card first, plays a
challenge round (the highest number wins the pile), and wins by smacking the
last Smack it! card while the other player runs out of cards.
"""

from __future__ import annotations

from games.engine import event
from games.first_hour.learning import Move, Script, Step
from games.first_hour.learning import msgid as _
from games.smackit.rules import DECK, NUMBERS, RULES

SEATS = 2
CHALLENGE = NUMBERS  # the first challenge card's id
SMACK = NUMBERS + 4  # the first Smack it! card's id


def _number(value: int) -> int:
    return value - 1


def _deal() -> tuple[dict, ...]:
    piles = [
        [_number(12), CHALLENGE, _number(45), _number(7), _number(9)],  # you, top card first
        [SMACK, _number(40), SMACK + 1, _number(20)],  # Ada
    ]
    options = RULES.table_options({"auto_flip_seconds": 0, "max_minutes": 0, "dealer": SEATS - 1}, SEATS)
    return (event("dealt", None, seats=SEATS, dealer=SEATS - 1, first=0, options=options,
                  piles=[[dict(DECK[c]) for c in pile] for pile in piles]),)


REACTION_MS = 420  # the learner's smack, as the table reports it: a good first reaction
FLIP = {"kind": "flip"}
SMACK_IT = {"kind": "smack"}

SCRIPT = Script(
    rules=RULES,
    seat=0,
    names=("", "Ada"),
    deal=_deal(),
    steps=(
        Step(
            _("You flip first: your top card goes face up onto the centre pile. Press Flip."),
            FLIP,
            _("It is your turn to flip: press Flip. Smack only when a Smack it! card lies on top."),
            produces=("flipped",),
        ),
        Step(
            _("Ada flipped a Smack it! card. The first to smack it wins the whole centre pile: press Smack!"),
            SMACK_IT,
            _("A Smack it! card is on top: play stops until someone smacks it. Press Smack!"),
            before=(Move(1, FLIP),),
            produces=("pile_won",),
            gap_ms=REACTION_MS,
        ),
        Step(
            _("You won the pile: it goes under your own pile, and the winner flips next. Flip!"),
            FLIP,
            _("You won the pile, so you flip next: press Flip."),
            produces=("challenge_started",),
        ),
        Step(
            _("You flipped a Challenge card: everyone flips one more card, you last, and the highest number wins "
              "the pile. Ada flipped 40. Your turn: flip!"),
            FLIP,
            _("In a challenge round every player flips one card in turn; it is yours now. Press Flip. A smack "
              "now would cost you your top card."),
            before=(Move(1, FLIP),),
            produces=("pile_won",),
        ),
        Step(
            _("Your 45 beat Ada's 40: the pile is yours again. Careful: a smack on anything but a Smack it! card "
              "costs your top card. Flip."),
            FLIP,
            _("No Smack it! card on top: do not smack. Press Flip."),
            produces=("flipped",),
        ),
        Step(
            _("Ada flipped a Smack it! card. Smack it!"),
            SMACK_IT,
            _("A Smack it! card is on top: press Smack!"),
            before=(Move(1, FLIP),),
            produces=("pile_won",),
            gap_ms=REACTION_MS,
        ),
        Step(
            _("Yours again! Ada has one card left: flip, and when she flips her last card she is out."),
            FLIP,
            _("You won the pile, so you flip next: press Flip."),
            produces=("flipped",),
        ),
    ),
    closing=(Move(1, FLIP),),
    done=_("Ada flipped her last card and is out: you won your first Smack It! match. Flip in turn, smack only Smack it! cards, and win the challenge "
           "rounds with high numbers."),
)
