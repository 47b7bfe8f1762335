"""A tournament in a real browser: create it, register bots and a player, start, watch the
standings fill in; the player hears on another page that their table is ready."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import sign_up
from tests.integration.stack import Stack

pytestmark = [pytest.mark.browser]


def test_create_register_bots_start_and_see_standings_fill_in(page: Any, server: Stack) -> None:
    sign_up(page, "olga")
    page.goto("/tournaments/")
    page.click("[data-testid=tournament-new]")
    page.fill("[data-testid=t-name]", "Sunday ZACK! cup")
    page.select_option("[data-testid=t-game]", "zack")
    page.select_option("[data-testid=t-format]", "swiss")
    page.fill("[data-testid=t-table-size]", "3")
    page.fill("[data-testid=t-rounds]", "1")
    page.fill("[data-testid=t-no-show]", "5")
    page.click("[data-testid=t-submit]")
    page.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
    page.wait_for_selector("[data-testid=conn-status][data-state=open]")
    assert page.locator("[data-testid=t-status]").get_attribute("data-status") == "registering"

    # A second player registers from their own browser, then browses elsewhere.
    other = page.context.browser.new_context(base_url=server.url(), locale="en-GB").new_page()
    other.set_default_timeout(15_000)
    sign_up(other, "pavel")
    other.goto(page.url)
    other.click("[data-testid=register]")
    page.wait_for_selector("[data-testid=player-pavel]")  # the organiser's page updates live

    assert page.locator("[data-testid=add-bots]").is_visible()
    page.fill("[data-testid=bot-count]", "5")
    page.select_option("[data-testid=bot-level]", "hard")
    page.click("[data-testid=add-bots]")
    page.wait_for_selector("[data-testid=players] li >> nth=5")
    assert page.locator("[data-testid=players] li").count() == 6
    bots = page.locator("[data-testid=players] li[data-testid$='-bot']")
    assert bots.count() == 5  # five bot seats, five accounts with five persona names
    assert len({bots.nth(i).get_attribute("data-testid") for i in range(5)}) == 5
    other.goto("/matches/")  # any page
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=t-status][data-status=running]")
    page.wait_for_selector("[data-testid=round-1] .t-table >> nth=1")
    assert page.locator("[data-testid=round-1] .t-table").count() == 2

    # Pavel's page tells him his table is ready, with a link to it.
    other.wait_for_selector("[data-testid=seated-banner]")
    href = other.locator("[data-testid=seated-link]").get_attribute("href")
    assert re.fullmatch(r"/tables/\d+/", href)
    # He does not go: his table waits for him (TOURNAMENT_SEAT_GRACE_SECONDS, 60), then after the no-show
    # time a bot plays his seat, and the page says so.
    page.wait_for_selector("[data-testid=round-1] .tag.warn", timeout=90_000)

    # Standings fill in as the tables finish; the round and the tournament end by themselves.
    page.wait_for_selector("[data-testid=t-status][data-status=finished]", timeout=150_000)
    assert not page.locator("[data-testid=add-bots]").is_visible()  # registration is over
    rows = page.locator("[data-testid=standings] tbody tr")
    assert rows.count() == 6
    assert page.locator("[data-testid=standing-pavel] [data-testid=points]").inner_text() == "0"  # a no-show scores 0
    points = [float(rows.nth(i).locator("[data-testid=points]").inner_text()) for i in range(6)]
    assert points == sorted(points, reverse=True) and points[0] == 2  # a winner of a 3-table scores 2
    assert page.locator("[data-testid=round-1] a[data-testid^=replay-]").count() == 2  # links to the replays
    csv_link = page.locator("[data-testid=standings-csv]").get_attribute("href")
    assert csv_link.endswith("/standings.csv")
    other.context.close()
