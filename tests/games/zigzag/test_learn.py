"""What ZIGZAG's guided first match (games/zigzag/learn.py) must teach; the checks every lesson passes are in
tests/games/test_lessons.py."""

from __future__ import annotations

from tests.support.lessons import check_lesson


def test_the_team_scores_the_four_combinations_in_order() -> None:
    produced = check_lesson("zigzag")
    scored = [e["data"]["combo"] for events in produced for e in events if e["kind"] == "manche_ended"]
    assert scored == ["zig", "zag", "double_zig", "zigzag"]
