"""The checks every game's guided first match (games/<slug>/learn.py) must pass, folded through its pure rules."""

from __future__ import annotations

import json
from typing import Any

from games.first_hour.learning import GAP_MS, DeckOrder, Table, frames, script_of
from tests.support.simulate import HarnessChecks, harness_of


def check_lesson(slug: str) -> list[dict[str, Any]]:
    """Replays the lesson step by step and checks it; returns the learner's actions' events per step.

    - every expected action is one the rules list as legal for the learner at that moment, and deciding it
      produces the events the step says (`produces`): the lesson teaches moves the server accepts;
    - every other scripted move is decided by the rules without a RuleError;
    - the cards are conserved and the learner never sees a card it may not (the game's harness, as in random play);
    - the page's frames are exactly these views, JSON-clean, and the last one is the end of a match the learner won.
    """
    script = script_of(slug)
    rules, me = script.rules, script.seat
    table = Table(rules, me, rng=DeckOrder(script.orders))
    seats = None
    checks: HarnessChecks | None = None

    def play(events: list[dict[str, Any]]) -> None:
        nonlocal checks, seats
        for e in events:
            prev = table.state
            table.apply([e])
            if checks is None:
                seats = table.state["seats"]
                checks = HarnessChecks(harness_of(slug), seats)
                checks.setup(table.state, [e])
            else:
                checks.step(prev, table.state, e)

    def act(seat: int | None, action: Any, gap_ms: int = GAP_MS) -> list[dict[str, Any]]:
        if callable(action):
            action = action(table.log)
        table.now += gap_ms
        events = rules.decide(table.state, seat, action, table.now, table.rng)
        play(events)
        return events

    play(list(script.deal))
    views = []
    produced = []
    for k, step in enumerate(script.steps):
        for move in step.before:
            act(move.seat, move.action)
        views.append(rules.view(table.state, me))
        if step.expect is None:
            produced.append([])
            continue
        assert step.expect in rules.legal_actions(table.state, me), f"{slug} step {k + 1}: {step.expect} is not legal"
        events = act(me, step.expect, step.gap_ms)
        kinds = [e["kind"] for e in events]
        for kind in step.produces:
            assert kind in kinds, f"{slug} step {k + 1}: {step.expect} produced {kinds}, not {kind}"
        produced.append(events)
    for move in script.closing:
        act(move.seat, move.action)
    views.append(rules.view(table.state, me))
    assert table.state["finished"], f"{slug}: the lesson does not end the match"
    assert me in rules.outcome(table.state)["winners"], f"{slug}: the learner does not win"

    page = frames(script)
    assert len(page) == len(script.steps) + 1 and page[-1]["final"] and not any(f["final"] for f in page[:-1])
    assert [f["view"] for f in page] == views
    assert json.loads(json.dumps(page)) == page
    for f, step in zip(page, script.steps, strict=False):
        assert f["prompt"] and (step.expect is None or f["wrong"]), f"{slug}: a step without words"
    return produced
