"""ZIGZAG's `view_all`: the replay's "everything" table shows what the live views hide.

On random matches (every state of the log, both seat counts, every option) and
on hand-built tables: `view_all` equals `view(state, None)` in every public
field, adds every hand, every face-down starting card, each seat's class and
each team's combination, and every sign's content (also with `signals_seen`
off, where the spectator sees no sign at all), and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.zigzag.rules import RULES, forbidden_mask, hand_class, team_combo
from tests.games.view_all_checks import public_and_everything
from tests.games.zigzag.harness import HARNESS
from tests.games.zigzag.zigzag_helpers import (
    NONE_A,
    NONE_B,
    NONE_C,
    STOP_L,
    ZAG_PINK_WATER,
    ZIG_PINK,
    act,
    open_all,
    own_class,
    table,
)
from tests.support.simulate import play_random, visible_ids

ADDED = {"hands", "starting_cards", "hand_classes", "team_combos"}
"""Fields view_all adds; `signals` is public too but carries the contents here."""


def check_view_all(state: dict[str, Any]) -> dict[str, Any]:
    """The invariants of view_all on one state; returns it for scenario checks."""
    public, everything = public_and_everything(RULES, state, ADDED, {"signals"})
    if "hands" in public:  # the finished table shows every hand to everyone already
        assert everything["hands"] == public["hands"]
    seats = state["seats"]
    assert [[c["id"] for c in h] for h in everything["hands"]] == state["hands"]
    assert [None if c is None else c["id"] for c in everything["starting_cards"]] == state["starting"]
    classes = [hand_class(h, forbidden_mask(st)) for h, st in zip(state["hands"], state["stops"], strict=True)]
    assert everything["hand_classes"] == classes
    half = seats // 2
    assert everything["team_combos"] == [team_combo(classes[t], classes[t + half]) for t in range(half)]
    for s in range(seats):  # each seat's live class is the one the replay shows
        assert own_class(state, s) == classes[s]
    in_hands = {c for h in state["hands"] for c in h}
    untaken = {c for c in state["starting"] if c is not None}
    assert in_hands | untaken <= visible_ids(everything)
    signs = {str(s): sig["sign"] for s, sig in enumerate(state["signals"]) if sig is not None}
    assert {k: v["sign"] for k, v in everything["signals"].items()} == signs
    for k, sig in public["signals"].items():  # the spectator's facts stay, the content is added
        assert {f: v for f, v in everything["signals"][k].items() if f != "sign"} == {f: v for f, v in sig.items() if f != "sign"}
    return everything


@pytest.mark.parametrize("seed", range(6))
def test_view_all_shows_every_hand_and_sign_and_agrees_with_the_public_view(seed: int) -> None:
    report = play_random(HARNESS, 4 if seed % 2 == 0 else 6, 900 + seed, max_actions=400, check=False)
    state = None
    hidden_signs = hidden_hands = 0
    for e in report.log:
        state = RULES.fold(state, e)
        check_view_all(state)
        public = RULES.view(state, None)
        hidden_signs += sum(1 for sig in state["signals"] if sig is not None) - sum(1 for v in public["signals"].values() if "sign" in v)
        hidden_hands += "hands" not in public
    assert hidden_hands > 0, "the spectator's view should have hidden the hands"
    assert hidden_signs > 0, "the spectator's view should have hidden a sign's content at least once"


def test_view_all_turns_up_hands_starting_cards_and_classes_the_spectator_never_sees() -> None:
    state = table([ZIG_PINK, NONE_A, NONE_B, NONE_C])
    public = RULES.view(state, None)
    everything = check_view_all(state)
    assert "hands" not in public and public["hand_counts"] == [4, 4, 4, 4]
    assert [c["id"] for c in everything["hands"][0]] == ZIG_PINK
    assert public["starting"] == [True] * 4 and all(c is not None for c in everything["starting_cards"])
    assert everything["hand_classes"] == ["zig", "none", "none", "none"]
    assert everything["team_combos"] == ["zig", None]
    state = open_all(state, [0])
    everything = check_view_all(state)
    assert everything["starting_cards"][0] is None and everything["starting_cards"][1] is not None


def test_view_all_applies_the_stops_before_each_player() -> None:
    state = open_all(table([[NONE_A[0], STOP_L, *NONE_A[2:]], ZAG_PINK_WATER, NONE_B, NONE_C]), [0])
    assert check_view_all(state)["hand_classes"][1] == "zag"
    _, state = act(state, 0, {"kind": "stop", "card": STOP_L, "target": 1, "take": state["centre"][0]})
    everything = check_view_all(state)
    assert everything["hand_classes"][1] == "zig"  # landscape forbidden: only the water is common
    assert [c["face"] for c in everything["stops"]["1"]] == ["stop_landscape"]


@pytest.mark.parametrize("seen", [True, False])
def test_view_all_shows_the_content_of_every_sign(seen: bool) -> None:
    state = open_all(table([ZIG_PINK, NONE_A, NONE_B, NONE_C], options={"signals_seen": seen}))
    # signs riding on moves: the only way with the option off, allowed with it on
    _, state = act(state, 0, {"kind": "pass", "sign": "zig"})
    _, state = act(state, 3, {"kind": "exchange", "give": state["hands"][3][0], "take": state["centre"][0], "sign": "zag"})
    public = RULES.view(state, None)
    everything = check_view_all(state)
    if seen:
        assert set(public["signals"]) == {"0", "3"} and all("sign" not in v for v in public["signals"].values())
    else:
        assert public["signals"] == {}
    assert {k: v["sign"] for k, v in everything["signals"].items()} == {"0": "zig", "3": "zag"}
    assert "zag" not in json.dumps(public["signals"])
