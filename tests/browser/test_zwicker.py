"""Zwicker in a real browser against a bot: a power, a snap, the call and the score table."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import create_bot_table, sign_up

pytestmark = [pytest.mark.browser]


def _first_filled(page: Any, seat: int) -> Any:
    return page.locator(f"[data-testid^=slot-{seat}-]:not([disabled])").first


def _use_power(page: Any, power: str, me: int, opp: int) -> None:
    """Use the drawn card's power by clicking slots, and check the table shows what it did."""
    page.keyboard.press("u")
    log = page.locator("[data-testid=message-log]")
    if power == "look_own":
        slot = _first_filled(page, me)
        slot.click()
        expect(slot.locator(".zw-peek")).to_be_visible()
        expect(log).to_contain_text("(you) looked at one of their own cards")
    elif power == "look_other":
        slot = _first_filled(page, opp)
        slot.click()
        expect(slot.locator(".zw-peek")).to_be_visible()
        expect(log).to_contain_text("You see:")
    elif power == "blind_swap":
        _first_filled(page, me).click()
        expect(page.locator(".zw-slot.zw-picked")).to_have_count(1)
        _first_filled(page, opp).click()
        expect(log).to_contain_text("(you) swapped a card with")
    else:
        assert power == "king", power
        slot = _first_filled(page, opp)
        slot.click()
        expect(slot.locator(".zw-peek")).to_be_visible()
        page.screenshot(path="/tmp/zwicker-king.png")
        page.keyboard.press("k")
        expect(log).to_contain_text("(you) kept their cards")


def test_power_snap_call_and_score_table(page: Any) -> None:
    sign_up(page, "zora")
    # A long turn timer so nothing runs out; hard bots keep the pace up (they call only when lowest).
    create_bot_table(page, "zwicker", 2, "hard", {"turn_seconds": 120})
    page.wait_for_selector(".zw-seat.zw-me")
    me = int(page.locator(".zw-seat.zw-me").get_attribute("data-testid").split("-")[1])
    opp = 1 - me

    # Draw on my turns until a card with a power comes, then use it (one turn is 50:50).
    power = None
    deadline = time.monotonic() + 40
    while power is None and time.monotonic() < deadline:
        page.wait_for_selector("[data-testid=draw]", timeout=20_000)
        page.keyboard.press("d")
        drawn = page.wait_for_selector("[data-testid=drawn-card]")
        power = drawn.get_attribute("data-power") or None
        if power is None:
            page.keyboard.press("x")
            page.wait_for_selector("[data-testid=drawn-card]", state="detached")
    assert power, "no card with a power was drawn in time"
    page.screenshot(path="/tmp/zwicker-power.png")
    _use_power(page, power, me, opp)

    # Snap: select one of my cards and press S; the table says how it went.
    _first_filled(page, me).click()
    expect(page.locator(".zw-slot.zw-selected")).to_have_count(1)
    page.keyboard.press("s")
    expect(page.locator("[data-testid=message-log]")).to_contain_text(
        re.compile(r"\(you\) snapped|Wrong snap by \S+ \(you\)|\(you\) was slower")
    )

    # Call Zwicker at the start of my next turn: the final round is marked, then the score table.
    page.wait_for_selector("[data-testid=zwicker]", timeout=20_000)
    page.keyboard.press("z")
    expect(page.locator("[data-testid=final-round]")).to_contain_text("called Zwicker")
    page.screenshot(path="/tmp/zwicker-final.png")
    table = page.locator("[data-testid=score-table]")
    expect(table).to_be_visible(timeout=30_000)
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(page.locator(f"[data-testid=score-{me}]")).to_contain_text("called")
    for seat in (me, opp):
        expect(page.locator(f"[data-testid=score-{seat}] .zw-num")).to_have_text(re.compile(r"^\d+$"))
    page.screenshot(path="/tmp/zwicker.png", full_page=True)


def test_replay_everything_view_turns_every_card_up(page: Any) -> None:
    from games.testing import play_random
    from games.zwicker.harness import HARNESS
    from games.zwicker.rules import RULES
    from tests.browser.test_zack import describe_all, mount_renderer

    report = play_random(HARNESS, 3, 11, max_actions=400, check=False)
    state = None
    chosen = None
    for k, e in enumerate(report.log):
        state = RULES.fold(state, e)
        if state["drawn"] is not None and state["turn_no"] >= 3 and state["outcome"] is None:
            chosen = (k, state)
            break
    assert chosen is not None, "no turn with a drawn card in this random match"
    k, state = chosen
    players = [{"seat": s, "username": f"player{s}", "bot": s > 0} for s in range(3)]
    view = RULES.view_all(state)
    mount_renderer(page, "zwicker", view, players)
    filled = sum(1 for row in state["slots"] for c in row if c is not None)
    expect(page.locator(".zw-slot .zw-xray")).to_have_count(filled)
    expect(page.locator("[data-testid=drawn-card]")).to_contain_text(f"player{state['turn']}'s card")
    for s in range(3):
        expect(page.locator(f"[data-testid=total-{s}]")).to_have_text(f"Σ {view['seats'][s]['total']}")
    expect(page.locator("[data-testid=xray-note]")).to_be_visible()
    page.screenshot(path="/tmp/zwicker-all.png", full_page=True)

    events = [dict(e, seq=i + 1) for i, e in enumerate(report.log[: k + 1])]
    texts = describe_all(page, "zwicker", events, players)
    for lang, lines in texts.items():
        assert all(line and "undefined" not in line and "{" not in line for line in lines), (lang, lines)
    drawn = [i for i, e in enumerate(events) if e["kind"] == "drawn"]
    assert "drew" in texts["en"][drawn[0]] and "zieht" in texts["de"][drawn[0]] and "pioche" in texts["fr"][drawn[0]]
