"""First visit and friends, in Chromium: the invite flow of a new friend, Play now per game, the 404 page,
bot persona names at a 3-bot table, and seats read from 1. Screenshots of each screen at 1366x900 and
390x844 are kept (test-results/screenshots/) and axe-core finds no critical or serious violation."""

from __future__ import annotations

import os
import re
import shutil
import uuid
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, axe_violations, new_page, screenshot, sideways, sign_up
from tests.integration.stack import Stack

pytestmark = pytest.mark.browser

GAMES = ["zack", "zwicker", "zigzag", "smackit"]
KEEP = os.environ.get("SHOTS_DIR")  # also copy the screenshots there (e.g. /tmp/shots/h7)


def shot(page: Any, name: str) -> None:
    path = screenshot(page, name)
    if KEEP:
        os.makedirs(KEEP, exist_ok=True)
        shutil.copy(path, KEEP)
    assert axe_violations(page) == [], name
    width, inner = sideways(page)
    assert width <= inner, f"{name}: the page scrolls sideways ({width} > {inner})"


def fresh(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def in_lobby(browser: Any, server: Stack, name: str, size: dict = DESKTOP) -> Any:
    """A new page of a player who has just signed up as `name`, on the lobby."""
    page = new_page(browser, server, **size)
    sign_up(page, name)
    page.goto("/")
    return page


def close_clean(*pages: Any) -> None:
    """Close the pages, each without a JavaScript error."""
    for p in pages:
        assert not p.errors, p.errors
        p.context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_new_friend_signs_up_from_the_invitation_and_joins_in_one_confirmation(browser: Any, server: Stack, size: dict) -> None:
    host_name = fresh("host")
    host = in_lobby(browser, server, host_name)
    host.select_option("[data-testid=create-game]", "zack")
    host.fill("[data-testid=create-seats]", "3")
    host.click("[data-testid=create-submit]")
    host.wait_for_url("**/tables/*/")
    host.wait_for_function("window.cardTable && window.cardTable.seat !== null")
    hint = host.locator("[data-testid=pregame-hint]")
    assert hint.is_visible() and "add bots or wait for friends" in hint.inner_text()
    invite = host.locator("[data-testid=invite-link]").input_value()
    table_id = int(host.url.rstrip("/").split("/")[-1])

    friend = new_page(browser, server, **size)
    tag = "desktop" if size is DESKTOP else "phone"
    friend.goto(invite)
    assert "/invite/" in friend.url  # not bounced to a bare log-in page
    summary = friend.locator("[data-testid=invite-summary]").inner_text()
    assert host_name in summary and "ZACK!" in summary
    shot(friend, f"h7-invite-anonymous-{tag}")
    friend.click("[data-testid=invite-signup]")
    friend.wait_for_url("**/signup/**")
    shot(friend, f"h7-signup-from-invite-{tag}")
    friend_name = fresh("friend")
    friend.fill("input[name=username]", friend_name)
    friend.fill("input[name=password]", "correct horse 42")
    friend.click("[data-testid=signup-submit]")
    friend.wait_for_url(re.compile(r".*/invite/[^/]+/$"))  # back at the invitation, not the lobby
    shot(friend, f"h7-invite-logged-in-{tag}")
    friend.click("[data-testid=invite-join]")  # the one confirmation
    friend.wait_for_url(f"**/tables/{table_id}/")
    friend.wait_for_selector(f"[data-testid=seat-list] li:has-text('{friend_name}')")
    assert friend.evaluate("() => document.getElementById('seat-list').getAttribute('start')") == "1"
    shot(friend, f"h7-table-before-start-{tag}")
    # a friend's own first visit to a started table: the invitation says they will watch
    host.click("[data-testid=add-bot-2]")
    host.wait_for_selector("[data-testid=seat-2] .tag")
    host.click("[data-testid=start]")
    host.wait_for_selector("[data-testid=table-status]:has-text('playing')")
    late = new_page(browser, server, **size)
    late.goto(invite)
    assert "spectator" in late.locator("[data-testid=invite-will-watch]").inner_text()
    shot(late, f"h7-invite-running-{tag}")
    close_clean(host, friend, late)


def test_log_in_from_the_invitation_comes_back_to_it(browser: Any, server: Stack) -> None:
    owner = in_lobby(browser, server, fresh("own"))
    owner.click("[data-testid=create-submit]")
    owner.wait_for_url("**/tables/*/")
    invite = owner.locator("[data-testid=invite-link]").input_value()
    guest = new_page(browser, server, **DESKTOP)
    name = fresh("back")
    sign_up(guest, name)
    guest.click("[data-testid=logout]")
    guest.goto(invite)
    guest.click("[data-testid=invite-login]")
    shot(guest, "h7-login-from-invite-desktop")
    assert "next=" in guest.locator("[data-testid=login-signup-link]").get_attribute("href")
    guest.fill("input[name=username]", name)
    guest.fill("input[name=password]", "correct horse 42")
    guest.click("[data-testid=login-submit]")
    guest.wait_for_url(re.compile(r".*/invite/[^/]+/$"))
    assert guest.locator("[data-testid=invite-join]").is_visible()
    close_clean(owner, guest)


@pytest.mark.parametrize("game", GAMES)
def test_play_now_seats_you_at_a_started_table_against_bots(browser: Any, server: Stack, game: str) -> None:
    page = in_lobby(browser, server, fresh("now"), PHONE if game in ("zigzag", "smackit") else DESKTOP)
    line = page.locator(f"[data-testid=game-line-{game}]").inner_text()
    assert len(line) > 20
    if game == "zack":
        shot(page, "h7-lobby-desktop")
    if game == "zigzag":
        shot(page, "h7-lobby-phone")
    page.click(f"[data-testid=play-now-{game}]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_selector("[data-testid=table-status]:has-text('playing')")
    page.wait_for_function("document.getElementById('game-root').children.length > 0")
    assert not page.locator("[data-testid=pregame-hint]").is_visible()
    names = page.locator("[data-testid=seat-list] .who").all_text_contents()
    bots = names[1:]
    assert len(bots) >= 1 and len(set(bots)) == len(bots) and all(b.endswith("-bot") for b in bots), names
    if game in ("zack", "smackit"):
        shot(page, f"h7-play-now-{game}-{'phone' if game == 'smackit' else 'desktop'}")
    close_clean(page)


def test_three_bots_have_three_names_in_the_seats_and_the_game(browser: Any, server: Stack) -> None:
    page = in_lobby(browser, server, fresh("trio"))
    page.select_option("[data-testid=create-game]", "zack")
    page.fill("[data-testid=create-seats]", "4")
    page.click("[data-testid=create-submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_function("window.cardTable && window.cardTable.seat !== null")
    shot(page, "h7-table-host-before-start-desktop")
    for s in (1, 2, 3):
        page.click(f"[data-testid=add-bot-{s}]")
        page.wait_for_selector(f"[data-testid=seat-{s}] .tag")
    names = page.locator("[data-testid=seat-list] .who").all_text_contents()
    assert len(set(names[1:])) == 3 and all(n.endswith("-bot") for n in names[1:]), names
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table-status]:has-text('playing')")
    page.wait_for_selector(".zack-name")
    panels = page.locator(".zack-name").all_inner_texts()
    for n in names[1:]:
        assert any(n in p for p in panels), (n, panels)  # uncut, each bot its own
    assert page.locator("ol#seat-list").get_attribute("start") == "1"
    close_clean(page)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_unknown_page_is_a_styled_404_and_the_favicon_is_served(browser: Any, server: Stack, size: dict) -> None:
    page = new_page(browser, server, **size)
    response = page.goto("/no/such/page/")
    assert response.status == 404
    assert page.locator("[data-testid=error-404]").is_visible()
    assert page.locator("[data-testid=error-home]").get_attribute("href") == "/"
    shot(page, f"h7-404-{'desktop' if size is DESKTOP else 'phone'}")
    icon = page.request.get("/favicon.ico")
    assert icon.ok and "svg" in icon.headers["content-type"] and "<svg" in icon.text()
    assert page.locator("link[rel=icon]").count() == 1
    assert page.request.get("/invite/not-a-code/").status == 404
    page.context.close()


def _rate(server: Stack, name: str, mu: float, sigma: float, matches: int, provisional: bool) -> None:
    server.manage("shell", "-c", (
        "from accounts.models import User; from stats.models import Rating; from stats.ratings import display_of; "
        f"u = User.objects.get(username={name!r}); "
        f"Rating.objects.update_or_create(user=u, game='zwicker', defaults=dict(mu={mu}, sigma={sigma}, "
        f"display=display_of({mu}, {sigma}), rated_matches={matches}, provisional={provisional}))"
    ))


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_ratings_read_as_people_know_them_in_each_language(browser: Any, server: Stack, size: dict) -> None:
    tag = "desktop" if size is DESKTOP else "phone"
    strong, new = fresh("strong"), fresh("newbie")
    for name in (strong, new):
        p = new_page(browser, server, **size)
        sign_up(p, name)
        p.context.close()
    _rate(server, strong, 35.0, 2.5, 40, False)  # display 27.5: 1500 + 40 x 27.5 = 2600
    _rate(server, new, 25.0, 25 / 3, 0, True)  # a newcomer: 1500?, ± 333
    page = new_page(browser, server, **size)
    page.goto(f"/u/{new}/")
    assert page.locator("[data-testid=rating-zwicker]").inner_text() == "1,500?"
    assert "-0.3" not in page.locator("[data-testid=game-stats-zwicker]").inner_text()
    assert page.locator("[data-testid=provisional-zwicker]").get_attribute("title")
    assert page.locator("[data-testid=provisional-help-zwicker]").is_visible()
    shot(page, f"h7-profile-provisional-{tag}")
    page.goto("/leaderboards/zwicker/")
    assert page.locator(f"[data-testid=leader-rating-{strong}]").inner_text() == "2,600"
    shot(page, f"h7-leaderboard-{tag}")
    page.goto("/leaderboards/")
    shot(page, f"h7-leaderboards-{tag}")
    page.select_option("[data-testid=language]", "de")
    page.wait_for_selector("html[lang=de]")
    page.goto("/leaderboards/zwicker/")
    assert page.locator(f"[data-testid=leader-rating-{strong}]").inner_text() == "2.600"
    page.goto(f"/u/{new}/")
    assert page.locator("[data-testid=rating-zwicker]").inner_text() == "1.500?"
    shot(page, f"h7-profile-provisional-de-{tag}")
    close_clean(page)
