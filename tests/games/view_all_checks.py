"""What every game's `view_all` (the replay's "everything" table) must keep, whatever it adds."""

from __future__ import annotations

import copy
import json
from typing import Any

from games.engine import Rules

State = dict[str, Any]


def public_and_everything(rules: Rules, state: State, added: set[str], differ: set[str] = frozenset()) -> tuple[State, State]:
    """`view(state, None)` and `view_all(state)`, checked for what the four games share: the state and the
    memoised public view unchanged, plain JSON, the public fields plus `added`, and equal to the public view
    in every field but `added` and `differ` (the fields whose hidden parts view_all fills in)."""
    before = copy.deepcopy(state)
    public = rules.view(state, None)
    everything = rules.view_all(state)
    assert state == before, "view_all must not change the state"
    assert rules.view(state, None) == public, "view_all must not change the memoised public view"
    assert json.loads(json.dumps(everything)) == everything
    assert set(everything) == set(public) | added
    for key in set(public) - added - differ:
        assert everything[key] == public[key], key
    return public, everything
