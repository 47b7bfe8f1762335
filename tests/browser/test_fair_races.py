"""Fair races in Chromium: the table shows each player's ping (measured by the server) and, after a
Smack It! race, who won it and each claimant's judged reaction time, by name (issue 16)."""

from __future__ import annotations

import os
import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.conftest import axe_violations, create_bot_table, sign_up

pytestmark = [pytest.mark.browser]
SHOTS = "/tmp/shots/h1"


def test_the_table_shows_pings_and_the_judged_reaction_times_of_a_race(page: Any) -> None:
    sign_up(page, "rita")
    create_bot_table(page, "smackit", 2, "easy", {"auto_flip_seconds": 30})
    page.wait_for_selector("[data-testid=smackit-table] [data-testid=flip]")
    me = int(page.locator(".smackit-seat.smackit-me").get_attribute("data-testid").split("-")[1])
    # The browser answered the server's pings; the server's estimate comes back in the table payload.
    expect(page.locator(f"[data-testid=ping-{me}]")).to_have_text(re.compile(r"^ping \d+ ms$"), timeout=10_000)
    bot = 1 - me
    assert page.locator(f"[data-testid=ping-{bot}]").count() == 0  # a bot has no line to measure

    panel = page.locator("[data-testid=race-panel]")
    top = page.locator("[data-testid=centre-top]")
    mine = panel.locator(f"[data-testid=race-reaction-{me}]")
    deadline = time.monotonic() + 70
    while time.monotonic() < deadline:
        if top.get_attribute("data-face") == "smack":
            page.keyboard.press("s")
            try:
                page.wait_for_selector("[data-testid=race-panel][data-state=settled]", timeout=5_000)
            except PlaywrightTimeout:
                continue
            if mine.count():
                break
            page.wait_for_function("document.querySelector('[data-testid=centre-top]').dataset.face !== 'smack'", timeout=10_000)
            continue
        if page.locator("[data-testid=status].smackit-mine").count():
            page.keyboard.press("Space")
        try:
            page.wait_for_selector(
                "[data-testid=centre-top][data-face=smack], [data-testid=status].smackit-mine:not(.smackit-pending)", timeout=3_000
            )
        except PlaywrightTimeout:
            pass
    assert mine.count(), "no race with my claim was settled in time"
    expect(mine).to_have_text(re.compile(r"^\d+ ms$"))
    winner = panel.locator("[data-testid=race-winner]")
    expect(winner).to_have_text(re.compile(r"^(You won the race|\S+ won the race)$"))
    ranking = panel.locator("[data-testid=race-ranking] li .who")
    names = ranking.all_inner_texts()
    assert "rita" in names and not any(re.fullmatch(r"seat \d+", n) for n in names), names  # names, not seat numbers
    os.makedirs(SHOTS, exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.screenshot(path=f"{SHOTS}/race-settled-1366x900.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=f"{SHOTS}/race-settled-390x844.png", full_page=True)
    assert axe_violations(page) == []

    # While a claim waits for slower lines the claimer reads "judging…" at once, then the result:
    # the same module fed the two uniform events (a real wait needs a far player: tests/integration).
    texts = page.evaluate("""async (me) => {
      const { createRacePanel } = await import("/static/platform/races.js");
      const anchor = document.createElement("div"); document.body.append(anchor);
      const p = createRacePanel(anchor); const box = anchor.previousElementSibling;
      const players = [{ seat: 0, username: "rita" }, { seat: 1, username: "otto" }];
      p.update([{ kind: "race_claimed", seat: 0, data: { race: "r1", claim: { seat: 0, arrival_ms: 900, judged_ms: 880, reaction_ms: 280 }, comp_ms: [20, 150] } }], players, 0);
      const judging = box.textContent;
      p.update([{ kind: "race_claimed", seat: 1, data: { race: "r1", claim: { seat: 1, arrival_ms: 1000, judged_ms: 850, reaction_ms: 250 }, comp_ms: [20, 150] } },
                { kind: "race_settled", seat: null, data: { race: "r1", winner: 1, ranking: [
                  { seat: 1, arrival_ms: 1000, judged_ms: 850, reaction_ms: 250 }, { seat: 0, arrival_ms: 900, judged_ms: 880, reaction_ms: 280 }] } }], players, 0);
      const out = [judging, box.textContent]; box.remove(); anchor.remove(); return out;
    }""", me)
    assert texts[0] == "Your claim is in: judging…"
    assert "otto won the race" in texts[1] and "otto 250 ms" in texts[1] and "rita 280 ms" in texts[1]
