"""Zwicker's `view_all`: the replay's "everything" table turns every face-down card up.

On random matches (every state of the log) and on hand-built turns: it equals
`view(state, None)` in every public field, adds each filled slot's card and
each seat's total, the drawn card and King look of the player on turn and the
top of the draw pile, leaves the state untouched, and shows every card that
sits in a grid or in hand.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.zwicker.rules import RULES, VALUE_OF
from tests.games.view_all_checks import public_and_everything
from tests.games.zwicker.harness import HARNESS
from tests.games.zwicker.zwicker_helpers import act, c, table
from tests.support.simulate import play_random, visible_ids

ADDED = {"seats", "drawn", "drawn_power", "king_look", "draw_top"}


def check_view_all(state: dict[str, Any]) -> dict[str, Any]:
    public, everything = public_and_everything(RULES, state, {"draw_top"}, ADDED - {"draw_top"})
    for row_all, row, cards in zip(everything["seats"], public["seats"], state["slots"], strict=True):
        assert {k: v for k, v in row_all.items() if k not in ("slots", "total")} == {k: v for k, v in row.items() if k != "slots"}
        assert [{k: v for k, v in s.items() if k != "card"} for s in row_all["slots"]] == row["slots"]
        assert [s.get("card", {}).get("id") for s in row_all["slots"]] == cards
        assert row_all["total"] == sum(VALUE_OF[x] for x in cards if x is not None)
    in_grids = {x for row in state["slots"] for x in row if x is not None}
    in_hand = {state["drawn"]} if state["drawn"] is not None else set()
    shown = visible_ids(everything)
    assert in_grids | in_hand <= shown
    assert (everything["drawn"] or {}).get("id") == state["drawn"]
    assert (everything["draw_top"] or {}).get("id") == (state["draw"][-1] if state["draw"] else None)
    return everything


@pytest.mark.parametrize("seed", range(6))
def test_view_all_shows_every_card_and_agrees_with_the_public_view(seed: int) -> None:
    report = play_random(HARNESS, 2 + seed % 5, 700 + seed, max_actions=600, check=False)
    state = None
    drawn_seen = 0
    for e in report.log:
        state = RULES.fold(state, e)
        check_view_all(state)
        drawn_seen += state["drawn"] is not None and RULES.view(state, None)["drawn"] is None
    assert drawn_seen > 0, "the spectator's view should have hidden a drawn card at least once"


def test_view_all_turns_up_the_drawn_card_and_the_king_look_the_spectator_never_sees() -> None:
    state = table([["3c", "4c", "5c", "6c"], ["7d", "8d", "9d", "10d"]], draw=["Ks", "Qh"])
    state, _ = act(state, 0, {"kind": "draw"})
    public = RULES.view(state, None)
    everything = check_view_all(state)
    assert public["drawn"] is None and "card" not in public["seats"][1]["slots"][0]
    assert everything["drawn"] == c("Ks") and everything["drawn_power"] == "king"
    assert everything["seats"][1]["slots"][0]["card"] == c("7d")
    assert [s["total"] for s in everything["seats"]] == [18, 34]
    assert everything["draw_top"] == c("Qh")
    state, _ = act(state, 0, {"kind": "use", "target": 1, "target_slot": 2})
    public = RULES.view(state, None)
    everything = check_view_all(state)
    assert public["king_look"] is None
    assert everything["king_look"] == {"target": 1, "target_slot": 2, "card": c("9d")}
