"""The guided first matches in Chromium: each game's lesson played to its end on its real table at 1366x900 (English)
and 390x844 (German, no English words left), axe-clean and without sideways scrolling; a mistake explained, retried."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, axe_violations, screenshot, sideways
from tests.browser.learn_clicks import click_for

SLUGS = ("zack", "smackit", "zwicker", "zigzag")
ENGLISH = re.compile(r"\b(the|your|you|Press|Step|Next|Throw|Flip|Draw|Snap|Open|Announce|Challenge|card|turn)\b")


def _steps(page: Any) -> list[dict[str, Any]]:
    return json.loads(page.eval_on_selector("#learn-data", "n => n.textContent"))["steps"]


def _play_to_the_end(page: Any, slug: str, size: str, each_step: Any = None) -> None:
    """Plays the lesson with the table's own controls; axe, sideways scrolling and a screenshot at the first and the
    last step; `each_step(k)` looks at every step before it is played."""
    page.goto(f"/games/{slug}/learn/")
    steps = _steps(page)
    assert len(steps) >= 6
    for k, step in enumerate(steps):
        page.wait_for_selector(f"body[data-learn-step='{k}']")
        assert page.inner_text("[data-testid=learn-prompt]").strip() == step["prompt"]
        if each_step:
            each_step(k)
        if k == 0 or step["final"]:
            assert not axe_violations(page), (slug, k + 1, axe_violations(page))
            width, viewport = sideways(page)
            assert width <= viewport, (slug, k + 1, width, viewport)
            screenshot(page, f"learn-{slug}-{size}-step{k + 1:02d}")
        if step["final"]:
            break
        if step["expect"] is None:
            page.click("[data-testid=learn-next]")
        else:
            click_for(page, slug, step["expect"])
    page.wait_for_selector("body[data-learn-done=true]")
    assert page.is_visible("[data-testid=learn-end]") and page.is_visible("[data-testid=learn-play]")


@pytest.mark.parametrize("slug", SLUGS)
def test_each_lesson_plays_to_its_end_on_the_real_table(page: Any, slug: str) -> None:
    page.set_viewport_size(DESKTOP["viewport"])
    _play_to_the_end(page, slug, "desktop")


def test_a_wrong_move_is_explained_and_the_step_waits(page: Any) -> None:
    page.goto("/games/zack/learn/")
    steps = _steps(page)
    for k in range(3):
        page.wait_for_selector(f"body[data-learn-step='{k}']")
        page.click("[data-testid=throw]")
    page.wait_for_selector("body[data-learn-step='3']")  # Ada is dozing: the lesson wants a challenge of blue
    page.click("[data-testid=throw]")
    feedback = page.inner_text("[data-testid=learn-feedback]")
    assert steps[3]["wrong"] in feedback
    assert page.get_attribute("body", "data-learn-step") == "3"
    page.click("[data-testid=challenge-blue]")
    page.wait_for_selector("body[data-learn-step='4']")
    assert not page.is_visible("[data-testid=learn-feedback]")


@pytest.mark.parametrize("slug", SLUGS)
def test_each_lesson_on_a_phone_in_german_has_no_english_words(phone: Any, slug: str) -> None:
    phone.goto("/")
    phone.context.add_cookies([{"name": "django_language", "value": "de", "url": phone.url}])

    def no_english(k: int) -> None:
        words = phone.inner_text("[data-testid=learn-coach]") + "\n" + phone.inner_text("[data-testid=game-root]")
        found = sorted(set(ENGLISH.findall(words)))
        assert not found, (slug, k + 1, found)

    _play_to_the_end(phone, slug, "phone-de", each_step=no_english)
    assert phone.get_attribute("html", "lang") == "de"


def test_on_a_phone_the_coach_folds_away_from_the_table_and_comes_back_with_the_next_step(phone: Any) -> None:
    """The coach follows the scroll above the table: on a phone its words fold to one line (a button), so the table
    under it can be seen and played; each new step unfolds it again, in readable type. Wide screens need no button."""
    phone.goto("/")
    phone.context.add_cookies([{"name": "django_language", "value": "de", "url": phone.url}])
    phone.goto("/games/zigzag/learn/")  # the longest first step and the tallest table
    steps = _steps(phone)
    phone.wait_for_selector("body[data-learn-step='0']")
    coach = phone.locator("[data-testid=learn-coach]")
    toggle = phone.locator("[data-testid=learn-toggle]")
    prompt = phone.locator("[data-testid=learn-prompt]")
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    assert toggle.bounding_box()["height"] >= 44  # a finger's target
    size = phone.evaluate("() => parseFloat(getComputedStyle(document.querySelector('[data-testid=learn-prompt]')).fontSize)")
    assert size >= 14, size  # compact, still readable
    phone.evaluate("() => window.scrollTo(0, 400)")
    screenshot(phone, "learn-coach-open-zigzag-de")
    unfolded = coach.bounding_box()["height"]

    toggle.click()
    assert not prompt.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    assert toggle.inner_text() == "Hilfe einblenden"
    folded = coach.bounding_box()["height"]
    assert folded <= 70 and folded < unfolded / 2, (folded, unfolded)
    screenshot(phone, "learn-coach-folded-zigzag-de")
    # folded, the learner still plays on the table; the next step's words come back by themselves
    click_for(phone, "zigzag", steps[0]["expect"])
    phone.wait_for_selector("body[data-learn-step='1']")
    assert prompt.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    assert prompt.inner_text().strip() == steps[1]["prompt"]
    toggle.click()
    toggle.click()
    assert prompt.is_visible() and toggle.inner_text() == "Hilfe ausblenden"
    assert not axe_violations(phone)

    phone.set_viewport_size(DESKTOP["viewport"])
    assert not toggle.is_visible()  # beside the table on a wide screen: nothing covers it
