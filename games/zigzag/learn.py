"""ZIGZAG's guided first match (see games/first_hour/learning.py): four players, four short manches, one combination each.

The learner (seat 0) and partner Cleo (seat 2) play Ada and Ben. The learner
opens, reads Cleo's signs, announces what the team holds (a Zig and a Zag
held by Cleo, a Double Zig, then a ZigZag after an exchange), and the team
completes its four combinations. Every deal is prescribed (`DeckOrder`);
the beginner help `hand_hint` names the class of the learner's own hand.
"""

from __future__ import annotations

from typing import Any

from games.first_hour.learning import DeckOrder, Move, Script, Step
from games.first_hour.learning import msgid as _
from games.zigzag.rules import RULES

SEATS = 4


def _c(landscape: int, character: int, attitude: int) -> int:
    """A character card's id from its three features (indices into LANDSCAPES, CHARACTERS, ATTITUDES)."""
    return 16 * landscape + 4 * character + attitude


PINK, BLUE, GREEN, YELLOW = range(4)

ADA_NONE = (_c(1, 0, 1), _c(3, 1, 2), _c(0, 3, 0), _c(2, 1, 3))
BEN_NONE = (_c(1, 2, 2), _c(2, 0, 3), _c(3, 1, 0), _c(0, 3, 1))


def _order(you: tuple[int, ...], ada: tuple[int, ...], cleo: tuple[int, ...], ben: tuple[int, ...], starting: tuple[int, ...]) -> tuple[int, ...]:
    """A manche's deal: four hands by seat, then the draw pile whose first four are the starting cards by seat."""
    return (*you, *ada, *cleo, *ben, *starting)


YOU_NONE = (_c(0, 0, 0), _c(1, 1, 1), _c(2, 2, 2), _c(3, 3, 3))
CLEO_ZIG = (_c(2, 0, 1), _c(2, 1, 0), _c(2, 2, 3), _c(2, 3, 2))  # all green: one feature in common
MANCHE_1 = _order(YOU_NONE, ADA_NONE, (_c(0, 1, 0), _c(0, 2, 1), _c(0, 3, 3), _c(0, 0, 2)), BEN_NONE,
                  (_c(3, 2, 1), _c(1, 3, 3), _c(3, 0, 0), _c(1, 0, 0)))
MANCHE_2 = _order(YOU_NONE, ADA_NONE, tuple(_c(2, 3, a) for a in range(4)), BEN_NONE,  # Cleo: green trees, a ZAG
                  (_c(3, 2, 1), _c(1, 3, 3), _c(3, 0, 0), _c(1, 0, 0)))
MANCHE_3 = _order((_c(0, 0, 0), _c(0, 1, 1), _c(0, 2, 2), _c(1, 3, 3)), ADA_NONE, CLEO_ZIG, BEN_NONE,
                  (_c(0, 3, 3), _c(1, 3, 0), _c(3, 0, 1), _c(1, 0, 0)))
MANCHE_4 = _order((_c(0, 0, 0), _c(0, 0, 1), _c(0, 0, 2), _c(3, 3, 3)), (_c(0, 0, 3), *ADA_NONE[1:]), CLEO_ZIG,
                  BEN_NONE, (_c(1, 2, 3), _c(1, 3, 0), _c(3, 0, 1), _c(1, 0, 0)))


def _deal() -> tuple[dict[str, Any], ...]:
    options = {"tour_seconds": 600, "hand_hint": True, "dealer": SEATS - 1}
    return tuple(RULES.setup(SEATS, options, DeckOrder((MANCHE_1,))))


def _announce(combo: str) -> dict[str, Any]:
    return {"kind": "announce", "combo": combo}


def _sign(which: str) -> Move:
    return Move(2, {"kind": "signal", "sign": which})


SCRIPT = Script(
    rules=RULES,
    seat=0,
    names=("", "Ada", "Cleo", "Ben"),
    deal=_deal(),
    orders=(MANCHE_2, MANCHE_3, MANCHE_4),
    steps=(
        Step(
            _("You and Cleo, sitting opposite, are a team against Ada and Ben. Every round starts with a face-down "
              "starting card before each player. First you open: click your yellow card, then press Open."),
            {"kind": "open", "card": _c(3, 3, 3)},
            _("Click the yellow card in your hand, then press Open: it goes to the centre and you take your starting "
              "card."),
            produces=("opened",),
        ),
        Step(
            _("Cleo signed ZIG to you: all her four cards share exactly one feature (landscape, character or "
              "attitude). Your own hand shares none. ZIG and nothing make a ZIG for the team, and the partner of the one who "
              "holds it announces it: press ZIG next to Announce."),
            _announce("zig"),
            _("Cleo holds the ZIG and you hold nothing in common: that is the team's ZIG, and you, her partner, announce it. "
              "Press ZIG next to Announce."),
            before=(_sign("zig"),),
            produces=("announced", "manche_ended"),
        ),
        Step(
            _("Right: your team scored its ZIG, and a new deal is dealt. Cleo signs ZAG: her cards share two "
              "features or more. You still hold nothing in common: announce ZAG."),
            _announce("zag"),
            _("A ZAG held by Cleo and nothing by you make the team's ZAG, announced by you: press ZAG next to Announce."),
            before=(_sign("zag"),),
            produces=("announced", "manche_ended"),
        ),
        Step(
            _("Deal 3. Open again: click your blue card, then press Open."),
            {"kind": "open", "card": _c(1, 3, 3)},
            _("Click the blue card in your hand, then press Open."),
            produces=("opened",),
        ),
        Step(
            _("Your starting card was pink: all four of your cards are pink now, a ZIG. Cleo signs ZIG as well: two "
              "ZIGs make a Double ZIG, which either partner may announce. Press Double ZIG."),
            _announce("double_zig"),
            _("You hold a ZIG and Cleo signed ZIG: press Double ZIG next to Announce."),
            before=(_sign("zig"),),
            produces=("announced", "manche_ended"),
        ),
        Step(
            _("Last combination to make: ZIGZAG. Open your yellow card."),
            {"kind": "open", "card": _c(3, 3, 3)},
            _("Click the yellow card in your hand, then press Open."),
            produces=("opened",),
        ),
        Step(
            _("Ada opened a pink card that matches your three pink cards in two features. Exchange: click the blue "
              "card you just took, then Ada's pink card in the centre."),
            {"kind": "exchange", "give": _c(1, 2, 3), "take": _c(0, 0, 3)},
            _("Click the blue card in your hand first, then the pink card in the centre: they swap places."),
            before=(Move(1, {"kind": "open", "card": _c(0, 0, 3)}), Move(3, {"kind": "open", "card": BEN_NONE[0]})),
            produces=("exchanged",),
        ),
        Step(
            _("Your four cards now share landscape and character: a ZAG. Cleo signs ZIG: ZIG and ZAG make the "
              "ZIGZAG, your team's last combination. Press ZIGZAG!"),
            _announce("zigzag"),
            _("You hold a ZAG and Cleo a ZIG: press ZIGZAG next to Announce."),
            before=(_sign("zig"),),
            produces=("announced", "finished"),
        ),
    ),
    done=_("Your team made all four combinations and won your first ZIGZAG match. Watch your partner's signs, "
           "build your hand from the centre, and announce what your team holds."),
)
