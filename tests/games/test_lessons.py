"""Every game's guided first match (games/<slug>/learn.py): legal, honest about its events, each mistake explained.

One test for every installed game, so a game's lesson cannot skip a check the others pass; what a lesson must
teach in particular stays in that game's own tests/games/<slug>/test_learn.py."""

from __future__ import annotations

import pytest

from games.first_hour.learning import script_of
from games.kit.registry import INSTALLED
from tests.support.lessons import check_lesson


@pytest.mark.parametrize("slug", INSTALLED)
def test_every_step_is_legal_and_does_what_it_says(slug: str) -> None:
    check_lesson(slug)


@pytest.mark.parametrize("slug", INSTALLED)
def test_every_step_can_go_wrong_and_be_explained(slug: str) -> None:
    """A step that waits for an action names what went wrong in its own words (the page shows them on a mistake)."""
    for step in script_of(slug).steps:
        if step.expect is not None:
            assert step.wrong and step.wrong != step.prompt
