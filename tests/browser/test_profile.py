"""The profile page in a real browser: rating chart and figures after a few ranked bot matches.

The matches are real: ranked ZACK! tables of a person and two bots (one account per level), created
through the API; the person resigns at once (a bot plays the seat on), so each match has a person in
it and is rated (matches of bots alone never are), played to its end by the stack's Celery worker,
rated and counted by the `stats.match_finished` task at each match's end.
"""

from __future__ import annotations

import time
import urllib.error
from typing import Any

import pytest

from tests.integration.stack import Stack, api, register

pytestmark = [pytest.mark.browser]

BOT_LEVEL = "hard"  # the bot whose profile is read: found by its level at the table (its name is a persona)
MATCHES = 3  # three ranked tables, one after the other: about 25 s per match


def _zack(base: str, who: str) -> dict[str, Any] | None:
    """The player's ZACK! statistics from the API (None before the account exists or has played)."""
    try:
        return api(base, "GET", f"/api/stats/players/{who}/")["games"].get("zack")
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise


def _wait(what: str, check: Any, timeout: float = 180) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def test_profile_shows_rating_chart_and_figures_after_bot_matches(page: Any, server: Stack) -> None:
    base = server.url()
    token = register(base, "stats-organiser")
    options = {"beginner_deck": True}  # the shortest ZACK! deck
    BOT, before, rated_before = None, {"played": 0, "rating": None}, 0  # noqa: N806 - the test's one bot
    for n in range(MATCHES):
        table = api(base, "POST", "/api/tables/", {"game": "zack", "seats": 3, "ranked": True, "options": options}, token)
        tid = table["id"]
        for level in ("easy", BOT_LEVEL):
            table = api(base, "POST", f"/api/tables/{tid}/bots/", {"level": level}, token)
        if BOT is None:  # the same account each time: the first bot of its level
            BOT = next(p["username"] for p in table["players"] if p.get("level") == BOT_LEVEL)  # noqa: N806
            before = _zack(base, BOT) or before
            rated_before = (before["rating"] or {}).get("rated_matches", 0)
        api(base, "POST", f"/api/tables/{tid}/start/", None, token)
        api(base, "POST", f"/api/tables/{tid}/resign/", None, token)
        _wait(f"match {n + 1} to finish", lambda tid=tid: api(base, "GET", f"/api/tables/{tid}/")["status"] == "finished")
    matches = MATCHES
    stats = _wait(
        "the ratings and statistics of every match",
        lambda: (
            (s := _zack(base, BOT))
            and s["rating"]
            and s["rating"]["rated_matches"] == rated_before + matches
            and s["played"] >= before["played"] + matches
            and s
        ),
    )  # a match is rated, then counted: a reading between the two sees the rating first
    assert stats["played"] == before["played"] + matches

    page.goto(f"/u/{BOT}/")
    block = page.locator("[data-testid=game-stats-zack]")
    block.wait_for()
    chart = block.locator("[data-testid=rating-chart-zack] svg")
    chart.wait_for()
    assert int(chart.get_attribute("data-points")) == len(stats["history"]) == rated_before + matches
    assert block.locator("[data-testid=rating-line]").count() == 1
    assert block.locator("[data-testid=rating-chart-zack] circle").count() == len(stats["history"])
    rating = stats["rating"]
    assert block.locator("[data-testid=rating-zack]").inner_text() == f"{rating['friendly']:,}" + (
        "?" if rating["provisional"] else ""
    )
    assert block.locator("[data-testid=rating-band]").count() == 1
    # the band surrounds the line: at every point the line lies between the band's edges
    inside = page.evaluate("""() => { const svg = document.querySelector('[data-testid=rating-chart-zack] svg');
      const line = svg.querySelector('[data-testid=rating-line]').points, band = svg.querySelector('[data-testid=rating-band]').points;
      const n = line.numberOfItems; const ok = [];
      for (let i = 0; i < n; i++) { const top = band.getItem(i).y, bottom = band.getItem(band.numberOfItems - 1 - i).y;
        ok.push(top <= line.getItem(i).y && line.getItem(i).y <= bottom); }
      return ok.every(Boolean); }""")
    assert inside
    assert block.locator("[data-testid=provisional-zack]").is_visible()  # four matches are too few
    played = block.locator("[data-testid=figure-zack-played] td").nth(1).inner_text()
    assert played == str(stats["played"])
    assert block.locator("[data-testid=figure-zack-reaction_median_ms]").is_visible()
    assert block.locator("[data-testid=positions] tbody tr").count() == 3
    recent = block.locator("[data-testid=recent-zack] a")
    assert recent.count() == min(5, stats["played"])
    recent.first.click()
    page.wait_for_url("**/matches/*/replay/")

    page.goto("/leaderboards/zack/")
    page.wait_for_selector(f"[data-testid=provisional-{BOT}]")
