"""The platform pages in a real browser: sign-up, log-in, lobby, table, bots, language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import sign_up
from tests.integration.stack import Stack

pytestmark = [pytest.mark.browser, pytest.mark.core]


def test_sign_up_create_table_add_bots_start_and_watch_live(page: Any, server: Stack) -> None:
    sign_up(page, "ada")
    assert page.locator("[data-testid=nav-profile]").inner_text() == "ada"
    page.select_option("[data-testid=create-game]", "smackit")
    page.fill("[data-testid=create-seats]", "3")
    assert page.locator("[data-testid=opt-smack_grace_ms]").input_value() == "300"  # built from the option schema
    page.click("[data-testid=create-submit]")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.wait_for_selector("[data-testid=conn-status][data-state=open]")
    page.select_option("[data-testid=bot-level-1]", "hard")
    page.click("[data-testid=add-bot-1]")
    page.wait_for_selector("[data-testid=seat-1]:has-text('-bot')")  # a bot's persona name
    assert page.locator("[data-testid=start]").is_disabled()  # one seat still empty
    page.click("[data-testid=add-bot-2]")
    page.wait_for_selector("[data-testid=seat-2]:has-text('-bot')")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table-status]:has-text('playing')")
    page.wait_for_selector("[data-testid=game-root] [data-testid=flip]")  # the game's renderer drew the table
    # The lobby lists the table as playing, and a second browser can watch it.
    other = page.context.browser.new_context(base_url=server.url()).new_page()
    other.goto("/")
    other.wait_for_selector("#playing-tables a")
    other.click("#playing-tables a")
    other.wait_for_selector("[data-testid=game-root] *")
    assert other.locator("[data-testid=flip]").count() == 0  # spectators get no buttons
    other.context.close()


def test_log_out_and_log_in_again(page: Any) -> None:
    sign_up(page, "bea")
    page.click("[data-testid=logout]")
    page.wait_for_selector("[data-testid=nav-login]")
    page.click("[data-testid=nav-login]")
    page.fill("input[name=username]", "bea")
    page.fill("input[name=password]", "wrong password")
    page.click("[data-testid=login-submit]")
    assert page.locator(".errorlist, form p").first.is_visible()
    page.fill("input[name=username]", "bea")
    page.fill("input[name=password]", "correct horse 42")
    page.click("[data-testid=login-submit]")
    page.wait_for_selector("[data-testid=nav-profile]:has-text('bea')")


def test_language_switch_translates_the_pages(page: Any) -> None:
    sign_up(page, "cleo")
    page.select_option("[data-testid=language]", "de")
    page.wait_for_selector("html[lang=de]")
    assert "Tisch eröffnen" in page.content()
    assert page.locator("[data-testid=logout]").inner_text() == "Abmelden"
    page.select_option("[data-testid=language]", "fr")
    page.wait_for_selector("html[lang=fr]")
    assert page.locator("[data-testid=create-submit]").inner_text() == "Créer la table"
    page.goto("/games/zack/rules/")
    assert page.locator("h1").inner_text().endswith("Règles")
    page.select_option("[data-testid=language]", "en")
    page.wait_for_selector("html[lang=en]")


def test_bad_table_input_is_explained(page: Any) -> None:
    sign_up(page, "dora")
    page.select_option("[data-testid=create-game]", "zack")
    page.fill("[data-testid=create-seats]", "2")
    page.click("[data-testid=create-submit]")
    assert page.locator("[data-testid=create-seats]:invalid").count() == 1  # ZACK! is for 3 to 6
    assert page.url.endswith("/")
    # What the browser cannot know, the server explains: ZIGZAG needs an even number of seats.
    page.select_option("[data-testid=create-game]", "zigzag")
    page.fill("[data-testid=create-seats]", "5")
    page.click("[data-testid=create-submit]")
    page.wait_for_selector("#create-error:not(:empty)")
    assert page.url.endswith("/")


def test_a_friend_joins_through_the_invite_link_and_sees_the_table_live(page: Any, server: Stack) -> None:
    sign_up(page, "host1")
    page.select_option("[data-testid=create-game]", "zwicker")
    page.fill("[data-testid=create-seats]", "2")
    page.click("[data-testid=create-submit]")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    invite = page.locator("[data-testid=invite-link]").input_value()
    friend = page.context.browser.new_context(base_url=server.url()).new_page()
    # Not signed up yet: the invitation itself says what it is, and its sign-up keeps the way back to it.
    friend.goto(invite)
    friend.wait_for_selector("[data-testid=invitation]")
    friend.click("[data-testid=invite-signup]")
    friend.fill("input[name=username]", "friend1")
    friend.fill("input[name=password]", "correct horse 42")
    friend.click("[data-testid=signup-submit]")
    # The invitation says what one joins, and only its Join button (a POST) seats the friend.
    friend.wait_for_selector("[data-testid=invitation]")
    assert "host1 invites you to a table of Zwicker." in friend.locator("[data-testid=invite-summary]").inner_text()
    assert friend.locator("[data-testid=invite-seats]").inner_text() == "1 of 2 seats free."
    friend.click("[data-testid=invite-join]")
    friend.wait_for_url(re.compile(r".*/tables/\d+/$"))
    friend.wait_for_selector("[data-testid=seat-1]:has-text('friend1')")
    page.wait_for_selector("[data-testid=seat-1]:has-text('friend1')")  # the host's page updated live
    page.click("[data-testid=start]")
    friend.wait_for_selector("[data-testid=table-status]:has-text('playing')")
    friend.wait_for_selector("[data-testid=game-root] *")
    friend.context.close()
