"""What ZACK!'s guided first match (games/zack/learn.py) must teach; the checks every lesson passes are in
tests/games/test_lessons.py."""

from __future__ import annotations

from tests.support.lessons import check_lesson


def test_the_lesson_teaches_both_challenges_and_they_succeed() -> None:
    produced = check_lesson("zack")
    results = [(e["data"]["result"], e["data"]["reason"]) for events in produced for e in events if e["kind"] == "challenged"]
    assert results == [("success", "slow"), ("success", "wrong_turn")]
