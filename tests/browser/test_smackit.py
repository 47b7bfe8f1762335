"""Smack It! in a real browser against a bot: flip with the space bar, smack a Smack it! card, win the pile."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.conftest import create_bot_table, describe_all, moment, mount_renderer, seat_players, sign_up

pytestmark = [pytest.mark.browser]


# Read in one go in the page (the bot may smack any moment): a Smack it! card on top stops play.
_FLIP_BLOCKED_JS = """() => {
  const face = document.querySelector("[data-testid=centre-top]").dataset.face;
  const status = document.querySelector("[data-testid=status]");
  const blocked = document.querySelector("[data-testid=flip]").disabled && status.classList.contains("smackit-pending")
    && !status.classList.contains("smackit-mine") && status.textContent.startsWith("Smack it! Nobody flips");
  return face !== "smack" || blocked;
}"""


def _count(page: Any, seat: int) -> int:
    return int(page.locator(f"[data-testid=pile-{seat}]").get_attribute("data-count"))


def test_flip_with_space_smack_a_smack_card_and_win_the_pile(page: Any) -> None:
    sign_up(page, "sam")
    # One easy bot (median smack about 650 ms): the test's reaction is far quicker.
    create_bot_table(page, "smackit", 2, "easy", {"auto_flip_seconds": 30})
    page.wait_for_selector("[data-testid=smackit-table] [data-testid=flip]")
    me = int(page.locator(".smackit-seat.smackit-me").get_attribute("data-testid").split("-")[1])
    top = page.locator("[data-testid=centre-top]")

    # Flip with the space bar on my turns until a Smack it! card lies on top (3 of 57), then smack it.
    feedback = page.locator("[data-testid=feedback]")
    mine = feedback.locator("li", has_text="(you) won the smack")
    flips = 0
    pile_before = centre = 0
    deadline = time.monotonic() + 50
    while time.monotonic() < deadline:
        if top.get_attribute("data-face") == "smack":
            assert page.evaluate(_FLIP_BLOCKED_JS), "the Flip button must be disabled while a Smack it! card lies on top"
            pile_before = _count(page, me)
            centre = int(re.search(r"\d+", page.locator("[data-testid=centre-count]").inner_text()).group())
            page.keyboard.press("s")
            expect(feedback).to_contain_text(re.compile(r"won the smack in \d+ ms"))
            if mine.count():
                break
            continue  # the bot was quicker this time: play on to the next Smack it! card
        if page.locator("[data-testid=status].smackit-mine").count():
            before = _count(page, me)
            page.keyboard.press("Space")
            flips += 1
            if flips == 1:  # the space bar flipped my top card onto the centre
                expect(page.locator(f"[data-testid=pile-{me}]")).to_have_attribute("data-count", str(before - 1))
                expect(top).not_to_have_attribute("data-face", "none")
                page.screenshot(path="/tmp/smackit-flip.png")
            condition = "[data-testid=centre-top][data-face=smack], [data-testid=status]:not(.smackit-mine)"
        else:
            condition = "[data-testid=status].smackit-mine, [data-testid=centre-top][data-face=smack]"
        try:
            page.wait_for_selector(condition, timeout=5_000)
        except PlaywrightTimeout:
            pass  # a challenge round or a pile won in between: look again
    assert flips > 0, "the space bar never flipped"
    assert mine.count(), "no Smack it! card won in time"

    # A Smack it! card flipped onto an empty centre makes a pile of one: the sentence is singular then.
    expect(feedback).to_contain_text(f"sam (you) takes the pile ({centre} {'card' if centre == 1 else 'cards'})")
    expect(page.locator("[data-testid=last-smack]")).to_contain_text(re.compile(r"sam \(you\)\s*\d+ ms"))
    expect(page.locator(f"[data-testid=pile-{me}]")).to_have_attribute("data-count", str(pile_before + centre))
    page.screenshot(path="/tmp/smackit.png", full_page=True)


def test_replay_everything_view_shows_what_each_pile_flips_next(page: Any) -> None:
    from games.smackit.rules import RULES
    from tests.support.simulate import harness_of, play_random

    report = play_random(harness_of("smackit"), 3, 5, max_actions=600, check=False)
    chosen = moment(RULES, report.log, lambda s: s["challenge"] is not None and len(s["challenge"]["flips"]) >= 1 and all(s["piles"]))
    assert chosen is not None, "no challenge round in this random match"
    k, state = chosen
    players = seat_players(3)
    mount_renderer(page, "smackit", RULES.view_all(state), players)
    for s in range(3):
        face = "number" if state["piles"][s][0] < 50 else ("challenge" if state["piles"][s][0] < 54 else "smack")
        expect(page.locator(f"[data-testid=next-{s}] .smackit-card")).to_have_attribute("data-face", face)
    expect(page.locator("[data-testid=challenge]")).to_be_visible()
    page.screenshot(path="/tmp/smackit-all.png", full_page=True)

    events = [dict(e, seq=i + 1, t_ms=e.get("t_ms", 0)) for i, e in enumerate(report.log[: k + 1])]
    texts = describe_all(page, "smackit", events, players)
    for lang, lines in texts.items():
        assert all(line and "undefined" not in line and "{" not in line for line in lines), (lang, lines)
    flipped = [i for i, e in enumerate(events) if e["kind"] == "flipped"]
    assert "flipped" in texts["en"][flipped[0]] and "deckt" in texts["de"][flipped[0]] and "retourne" in texts["fr"][flipped[0]]
