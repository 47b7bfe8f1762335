"""Smack It!'s `view_all`: the replay's "everything" table shows what lies face down.

On random matches (every state of the log, `shuffle_won` on and off) and on a
hand-built deal: it equals `view(state, None)` in every public field, adds
each pile's top card (`pile_tops`) and every pile and removed card
(`reveal`), leaves the state untouched, shows every card of the match, and
at the end equals the finished view (plus the pile tops).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import fold_all
from games.smackit.rules import DECK, RULES
from tests.games.smackit.harness import HARNESS, card_ids
from tests.games.smackit.test_rules import dealt, num
from tests.games.view_all_checks import public_and_everything
from tests.support.simulate import play_random, visible_ids

ADDED = {"pile_tops", "reveal"}


def check_view_all(state: dict[str, Any]) -> dict[str, Any]:
    public, everything = public_and_everything(RULES, state, ADDED)
    piles = state["piles"]
    assert everything["pile_tops"] == [dict(DECK[p[0]]) if p else None for p in piles]
    assert [[c["id"] for c in p] for p in everything["reveal"]["piles"]] == piles
    assert [c["id"] for c in everything["reveal"]["removed"]] == state["removed"]
    assert set(card_ids(state)) <= visible_ids(everything) | set(state["centre"])
    if state["finished"]:  # the finished view reveals every pile itself
        assert {k: v for k, v in everything.items() if k != "pile_tops"} == public
    return everything


@pytest.mark.parametrize("seed", range(6))
def test_view_all_shows_every_pile_and_agrees_with_the_public_view(seed: int) -> None:
    options = {"shuffle_won": bool(seed % 2)}
    report = play_random(HARNESS, 2 + seed % 5, 500 + seed, max_actions=800, options=options, check=False)
    state = None
    for e in report.log:
        state = RULES.fold(state, e)
        check_view_all(state)


def test_view_all_names_the_next_card_of_each_pile_that_the_table_keeps_face_down() -> None:
    deal = dealt([[num(7), 54, num(3)], [num(9), num(12)]])
    state = fold_all(RULES, [deal])
    public = RULES.view(state, None)
    everything = check_view_all(state)
    assert "pile_tops" not in public and "reveal" not in public
    assert everything["pile_tops"] == [dict(DECK[num(7)]), dict(DECK[num(9)])]
    state = fold_all(RULES, [deal, *RULES.decide(state, 0, {"kind": "flip"}, 100, random.Random(0))])
    everything = check_view_all(state)
    assert everything["pile_tops"][0] == {"id": 54, "face": "smack"}  # the Smack it! card comes next
    assert everything["centre"]["top"] == dict(DECK[num(7)])
