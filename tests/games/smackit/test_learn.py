"""The guided first match of this game (games/smackit/learn.py): legal, honest about its events, won by the learner."""

from __future__ import annotations

from games.first_hour.learning import script_of
from tests.support.lessons import check_lesson

SLUG = "smackit"


def test_every_step_is_legal_and_does_what_it_says() -> None:
    check_lesson(SLUG)


def test_every_step_can_go_wrong_and_be_explained() -> None:
    """A step that waits for an action names what went wrong in its own words (the page shows them on a mistake)."""
    for step in script_of(SLUG).steps:
        if step.expect is not None:
            assert step.wrong and step.wrong != step.prompt
