"""ZACK! in a real browser against bots: throw with the space bar, challenge, see the verdict."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.conftest import create_bot_table, describe_all, moment, mount_renderer, seat_players, sign_up

pytestmark = [pytest.mark.browser]


def _pile(page: Any, seat: int) -> int:
    text = page.locator(f"[data-testid=pile-{seat}] .zack-pile-count").inner_text()
    return int(re.search(r"\d+", text).group())


def test_throw_with_space_challenge_a_bot_and_see_the_result(page: Any) -> None:
    sign_up(page, "zoe")
    # show_turn tells the test when the space bar is due; easy bots keep the pace human.
    create_bot_table(page, "zack", 3, "easy", {"show_turn": True})
    page.wait_for_selector("[data-testid=zack-table] [data-testid=throw]")
    me = page.locator(".zack-seat.mine")
    seat = int(me.get_attribute("data-testid").split("-")[1])

    # Throw with the space bar on my turn: my card lands on the box with my name under it.
    deadline = time.monotonic() + 30
    thrown = False
    while not thrown and time.monotonic() < deadline:
        page.wait_for_selector("[data-testid=status]:has-text('Your turn!')", timeout=20_000)
        before = _pile(page, seat)
        page.keyboard.press("Space")
        try:
            page.wait_for_function(
                "([s, n]) => { const t = document.querySelector(`[data-testid=pile-${s}] .zack-pile-count`);"
                " return t && parseInt(t.textContent.match(/\\d+/)[0], 10) !== n; }",
                arg=[seat, before],
                timeout=5_000,
            )
        except PlaywrightTimeout:  # a challenge emptied the box into someone's pile meanwhile: try again
            continue
        thrown = page.locator(".zack-fan-item .zack-byline", has_text="(you)").count() > 0 or _pile(page, seat) < before
    assert thrown, "the space bar never threw a card"
    page.screenshot(path="/tmp/zack-box.png")

    # Challenge my left neighbour with the number key 1 until the box gives a verdict on my challenge.
    verdict = page.locator("[data-testid=feedback] li", has_text=re.compile(r"\(you\) challenged"))
    deadline = time.monotonic() + 20
    while verdict.count() == 0 and time.monotonic() < deadline:
        page.keyboard.press("1")
        try:
            verdict.first.wait_for(timeout=2_000)
        except PlaywrightTimeout:
            continue  # returned while the box settled after another challenge: try again
    expect(verdict.first).to_contain_text(re.compile(r"right!|wrong!"))
    expect(verdict.first).to_contain_text(re.compile(r"takes \d+ cards?"))
    page.screenshot(path="/tmp/zack.png", full_page=True)


def test_replay_everything_view_shows_piles_turn_and_out_of_turn_cards(page: Any) -> None:
    from games.zack.rules import RULES
    from tests.support.simulate import harness_of, play_random

    report = play_random(harness_of("zack"), 4, 7, max_actions=3000, options={"stop_cards": True}, check=False)
    assert report.finished
    chosen = moment(RULES, report.log, lambda s: not s["finished"] and len(s["box"]) >= 5 and any(b.get("oot") for b in s["box"][-4:])
                    and s["turn"] is not None)
    assert chosen is not None, "no box with an out-of-turn card among the top four in this random match"
    k, state = chosen
    players = seat_players(4)
    mount_renderer(page, "zack", RULES.view_all(state), players)
    for s in range(4):
        expect(page.locator(f"[data-testid=revealed-{s}] .zack-count")).not_to_have_count(0)
    oot = sum(1 for b in state["box"][-9:] if b.get("oot"))
    expect(page.locator("[data-testid=fan] .zack-tag.warn", has_text="out of turn")).to_have_count(oot)
    expect(page.locator(f"[data-testid=seat-{state['turn']}] [data-testid=turn-marker]")).to_be_visible()
    page.screenshot(path="/tmp/zack-all.png", full_page=True)

    # The replay's event list: one plain sentence per event, in every language.
    events = [dict(e, seq=i + 1, t_ms=e.get("t_ms", 0)) for i, e in enumerate(report.log[: k + 1])]
    texts = describe_all(page, "zack", events, players)
    for lang, lines in texts.items():
        assert len(lines) == len(events)
        assert all(line and "undefined" not in line and "{" not in line for line in lines), (lang, lines)
    thrown = [i for i, e in enumerate(events) if e["kind"] == "thrown"]
    assert "player" in texts["en"][thrown[0]] and "threw" in texts["en"][thrown[0]]
    assert any("out of turn" in texts["en"][i] for i in thrown)
    assert "wirft" in texts["de"][thrown[0]] and "lance" in texts["fr"][thrown[0]]

    # The end of the same match: the results with every pile face up.
    final = None
    for e in report.log:
        final = RULES.fold(final, e)
    mount_renderer(page, "zack", RULES.view_all(final), players, lang="de")
    expect(page.locator("[data-testid=outcome] tbody tr")).to_have_count(4)
    expect(page.locator("[data-testid=outcome] h3")).to_have_text("Partie beendet")
    page.screenshot(path="/tmp/zack-end.png", full_page=True)
