"""ZACK!'s guided first match (see games/first_hour/learning.py): three players, a few cards each, every lesson once.

The learner (seat 0, red) throws first onto the empty box, reads a colour and
a Right and a Left card, calls a dozing player too slow, calls a card thrown
out of turn, and wins with the colour card on an empty pile.
"""

from __future__ import annotations

from typing import Any

from games.engine import event
from games.first_hour.learning import Move, Script, Step
from games.first_hour.learning import msgid as _
from games.zack.rules import COLOURS, RULES

SEATS = 3


def _card(cid: int, face: str) -> dict[str, Any]:
    return {"id": cid, "face": "circle", "colour": face} if face in COLOURS else {"id": cid, "face": face}


def _deal() -> tuple[dict[str, Any], ...]:
    piles_faces = [
        ["blue", "yellow", "blue", "links"],  # you (red)
        ["rechts", "yellow", "red"],  # Ada (blue)
        ["links", "red", "blue"],  # Ben (yellow)
    ]
    cid = 0
    piles = []
    for faces in piles_faces:
        pile = []
        for face in faces:
            pile.append(_card(cid, face))
            cid += 1
        piles.append(pile)
    options = RULES.table_options({"protect_beginners": False, "dealer": SEATS - 1}, SEATS)
    return (event("dealt", None, seats=SEATS, options=options, dealer=SEATS - 1, first=0, colours=list(COLOURS[:SEATS]), piles=piles),)


THROW = {"kind": "throw"}

SCRIPT = Script(
    rules=RULES,
    seat=0,
    names=("", "Ada", "Ben"),
    deal=_deal(),
    steps=(
        Step(
            _("The box is empty and you throw first. Everyone plays at once, so the box decides whose turn it is. "
              "Press Throw (or the space bar)."),
            THROW,
            _("Not that: the box is empty and you throw first. Press Throw (or the space bar)."),
            produces=("thrown",),
        ),
        Step(
            _("Your card was a blue circle: blue (Ada) had to throw. Ada threw Right: the player to her right throws "
              "next. That is you: throw!"),
            THROW,
            _("Read the top card: Ada's Right points to the player on her right, and that is you. Press Throw."),
            before=(Move(1, THROW),),
            produces=("thrown",),
        ),
        Step(
            _("Your yellow circle called Ben (yellow). He threw Left: the player to his left throws next. That is you "
              "again: throw!"),
            THROW,
            _("Ben's Left points to the player on his left: you. Press Throw."),
            before=(Move(2, THROW),),
            produces=("thrown",),
        ),
        Step(
            _("Your blue circle says Ada throws next, but she is dozing. Call her too slow: press the blue "
              "challenge button (key 1)."),
            {"kind": "challenge", "target": "blue"},
            _("Ada (blue) must throw now and has not. Challenge blue: the blue button under Challenge, or key 1. "
              "Throwing yourself now would be out of turn."),
            produces=("challenged",),
        ),
        Step(
            _("Right! Ada was too slow: she takes every card in the box, and the box is empty again. Whoever "
              "challenged rightly throws first: you. Throw!"),
            THROW,
            _("After a right challenge the challenger throws first: you. Press Throw."),
            produces=("thrown",),
        ),
        Step(
            _("Your Left card called Ada (on your left), but Ben threw instead: a card thrown out of turn. Challenge "
              "yellow (key 2): not his turn!"),
            {"kind": "challenge", "target": "yellow"},
            _("Ben (yellow) threw when it was Ada's turn. Challenge yellow: the yellow button under Challenge, or "
              "key 2."),
            before=(Move(2, THROW),),
            produces=("challenged",),
        ),
        Step(
            _("Right again: Ben takes the box and you throw first. Your pile is empty: on your turn, throw your "
              "colour card to win! Press Colour card (key C)."),
            {"kind": "colour"},
            _("With an empty pile, your turn is the colour card: press Colour card (key C)."),
            produces=("colour_thrown", "finished"),
        ),
    ),
    done=_("You won your first ZACK! match. Throw when the box says it is you, challenge who is too slow or out "
           "of turn, and empty your pile first."),
)
