"""ZIGZAG's beginner help `hand_hint`: off by default, on only where asked, never in ranked play.

Naming the class of one's own hand is the skill ZIGZAG tests, so the view says it only with the
option; the platform turns it off for a ranked match whatever the table asked (games.services.matches
`_match_options`, from `RULES.unranked_off`), so a ranked player never gets help the others lack.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import fold_all
from games.services.tables import table_create, table_join, table_start
from games.zigzag.rules import RULES
from tests.games.factories import user
from tests.games.zigzag.zigzag_helpers import NONE_B, NONE_C, NONE_D, ZIG_PINK, table


def test_the_hint_is_off_by_default_and_names_only_the_own_hand_when_on() -> None:
    assert RULES.options["hand_hint"].default is False
    plain = table([ZIG_PINK, NONE_B, NONE_C, NONE_D])
    assert [RULES.view(plain, s)["hand_class"] for s in (0, 1, 2, 3, None)] == [None] * 5
    hinted = table([ZIG_PINK, NONE_B, NONE_C, NONE_D], options={"hand_hint": True})
    assert [RULES.view(hinted, s)["hand_class"] for s in (0, 1, 2, 3)] == ["zig", "none", "none", "none"]
    assert RULES.view(hinted, None)["hand_class"] is None  # a spectator has no hand
    # nothing else about the view changes with the option
    a, b = RULES.view(plain, 0), RULES.view(hinted, 0)
    assert {k for k in a if a[k] != b[k]} == {"hand_class", "options"}


def test_ranked_play_forces_the_hint_off() -> None:
    assert "hand_hint" in RULES.unranked_off


def _start(ranked: bool, name: str) -> dict[str, Any]:
    humans = [user(f"hint{name}{i}") for i in range(4)]
    t = table_create(host=humans[0], game="zigzag", seats=4, options={"hand_hint": True}, ranked=ranked)
    for h in humans[1:]:
        table_join(table_id=t.pk, user=h)
    match = table_start(table_id=t.pk, by=humans[0])
    return match.options


@pytest.mark.django_db
def test_the_platform_keeps_the_hint_at_a_friendly_table_and_drops_it_in_a_ranked_match() -> None:
    friendly = _start(False, "f")
    ranked = _start(True, "r")
    assert friendly["hand_hint"] is True
    assert ranked["hand_hint"] is False
    state = fold_all(RULES, RULES.setup(4, ranked, random.Random(0)))
    assert RULES.view(state, 0)["hand_class"] is None
