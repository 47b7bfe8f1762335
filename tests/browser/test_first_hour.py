"""A newcomer's first hour at a table: Play now opens a new ZACK! table every time (the older one waits in the
lobby's "Your games in progress"), a resignation from the table with its confirmation, and the results of the
finished match on the first screen of a desktop and of a phone, axe-clean. Ranked quick play waits in the queue
with a way to stop looking."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, axe_violations, first_screen_box, new_page, sideways, sign_up
from tests.integration.stack import Stack

pytestmark = [pytest.mark.browser]

SHOTS = os.environ.get("FIRST_HOUR_SHOTS", os.path.join(os.path.dirname(__file__), "..", "..", "test-results", "screenshots"))


def shot(page: Any, name: str) -> None:
    size = page.viewport_size
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}-{size['width']}x{size['height']}.png"))


def table_id(page: Any) -> int:
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def play_now(page: Any) -> int:
    page.goto("/")
    page.click("[data-testid=play-now-zack]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("[data-testid=table-status]:has-text('playing')")
    return table_id(page)


def test_play_now_twice_resign_and_read_the_results_on_both_screens(browser: Any, server: Stack) -> None:
    page = new_page(browser, server, **DESKTOP)
    sign_up(page, "newcomer")
    first = play_now(page)
    second = play_now(page)
    assert second != first  # never the half-played table again

    page.goto("/")
    page.wait_for_selector(f"[data-testid=in-progress-{first}]")
    assert page.locator(f"[data-testid=in-progress-{second}]").is_visible()
    assert first_screen_box(page, "[data-testid=in-progress]")["inside"]
    shot(page, "lobby-in-progress")
    page.click("[data-testid=ranked-zack]")  # ranked quick play: the queue, a waiting state, a way out
    page.wait_for_selector("[data-testid=queue-status]")
    assert "ZACK!" in page.locator("[data-testid=queue-status]").inner_text()
    shot(page, "lobby-ranked-waiting")
    assert axe_violations(page) == []
    page.click("[data-testid=queue-cancel]")
    page.wait_for_selector("[data-testid=queue-wait]", state="hidden")

    page.click(f"[data-testid=back-to-table-{second}]")
    page.wait_for_url(f"**/tables/{second}/")
    page.wait_for_function("window.cardTable && window.cardTable.seat === 0")
    page.click("[data-testid=resign]")
    page.wait_for_selector("[data-testid=resign-confirm]")
    shot(page, "table-resign-confirm")
    assert axe_violations(page) == []
    page.click("[data-testid=resign-no]")  # thought better of it: nothing happened
    assert page.locator("[data-testid=resign-confirm]").count() == 0
    page.click("[data-testid=resign]")
    page.click("[data-testid=resign-yes]")
    page.wait_for_selector("[data-testid=left-0]")
    assert page.locator("[data-testid=resign]").count() == 0

    # The bots play the match out (a ZACK! match of normal bots: about 20 s), then the results come first.
    page.wait_for_selector("[data-testid=results-headline]", timeout=50_000)
    assert page.locator("[data-testid=result-reason-resigned]").inner_text().startswith("newcomer resigned")
    rows = page.locator("[data-testid=results-table] tbody tr")
    assert rows.count() == 4 and "newcomer" in rows.nth(3).inner_text()
    assert page.locator("[data-testid=results-headline]").inner_text() == "You placed 4 of 4"
    for name in ("rematch", "replay-link", "back-to-lobby"):
        assert page.locator(f"[data-testid=results] [data-testid={name}]").is_visible()
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, "table-results")
    assert first_screen_box(page, "[data-testid=results]")["inside"], first_screen_box(page, "[data-testid=results]")
    assert axe_violations(page) == []

    page.set_viewport_size({"width": 390, "height": 844})  # the same results on a phone, after a reload
    page.reload()
    page.wait_for_selector("[data-testid=results-headline]")
    assert first_screen_box(page, "[data-testid=results]")["inside"], first_screen_box(page, "[data-testid=results]")
    width, viewport = sideways(page)
    assert width <= viewport
    shot(page, "table-results")
    assert axe_violations(page) == []
    page.goto("/")
    assert page.locator(f"[data-testid=in-progress-{second}]").count() == 0  # resigned: no longer the player's
    page.wait_for_selector(f"[data-testid=in-progress-{first}]")
    shot(page, "lobby-in-progress")
    page.context.close()
    assert not page.errors, page.errors
