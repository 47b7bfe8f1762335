"""Every word in the player's language, in a real browser: the catalogue script, plural forms, and a
refusal of the server shown to a German, then (after the language switch) French player at a live table."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import axe_violations, create_bot_table, screenshot, sign_up


def test_the_catalogue_gives_every_page_gettext_and_plural_forms(page: Any) -> None:
    page.goto("/")
    page.select_option("[data-testid=language]", "de")
    page.wait_for_selector("html[lang=de]")
    got = page.evaluate(
        """() => [typeof gettext, typeof ngettext, typeof interpolate, typeof pgettext,
                  ngettext("{n} card", "{n} cards", 1), ngettext("{n} card", "{n} cards", 2),
                  pgettext("card rank letter: Jack", "J")]"""
    )
    assert got == ["function", "function", "function", "function", "{n} Karte", "{n} Karten", "B"]
    page.select_option("[data-testid=language]", "fr")
    page.wait_for_selector("html[lang=fr]")
    # French counts 0 and 1 as singular; German does not.
    got = page.evaluate("""() => [0, 1, 2].map((n) => ngettext("{n} card", "{n} cards", n))""")
    assert got == ["{n} carte", "{n} carte", "{n} cartes"]
    page.select_option("[data-testid=language]", "en")
    page.wait_for_selector("html[lang=en]")


def test_a_refusal_reaches_the_player_in_the_language_of_the_page(page: Any) -> None:
    sockets: list[Any] = []

    def through(ws: Any) -> None:
        # Pass every frame both ways, and keep the server side: the test speaks on the page's own socket,
        # as a stale click would (the game's buttons never offer a move the view already rules out).
        sockets.append(ws.connect_to_server())

    page.route_web_socket(re.compile(r".*/ws/tables/\d+/"), through)
    sign_up(page, "i18n_refused")
    page.select_option("[data-testid=language]", "de")  # the language switch of the top bar
    page.wait_for_selector("html[lang=de]")
    # The create form names its options in German, never by their identifiers.
    page.select_option("[data-testid=create-game]", "zack")
    expect(page.locator("label:has([data-testid=opt-stop_pause_ms])")).to_contain_text("Pause nach einer Stopp-Karte (ms)")
    page.select_option("[data-testid=language]", "en")
    page.wait_for_selector("html[lang=en]")
    create_bot_table(page, "zack", 3, "easy")  # its waits read English texts
    page.select_option("[data-testid=language]", "de")  # on the live table: the page reloads, its new socket speaks German
    page.wait_for_selector("html[lang=de]")
    page.wait_for_function("window.cardTable && window.cardTable.seat === 0")

    error = page.locator("[data-testid=table-error]")
    sockets[-1].send(json.dumps({"type": "act", "id": "i18n-1", "action": {"kind": "choose", "colour": "red"}}))
    expect(error).to_have_text("Du hast keine Farbe zu wählen.")
    screenshot(page, "i18n-refusal-de")
    assert axe_violations(page) == []

    page.select_option("[data-testid=language]", "fr")  # the page reloads, its new socket speaks French
    page.wait_for_selector("html[lang=fr]")
    page.wait_for_function("window.cardTable && window.cardTable.seat === 0")
    sockets[-1].send(json.dumps({"type": "act", "id": "i18n-2", "action": {"kind": "choose", "colour": "red"}}))
    expect(error).to_have_text("Vous n'avez pas de couleur à choisir.")
    expect(page.locator("[data-testid=throw]")).to_contain_text("Lancer")

    page.select_option("[data-testid=language]", "en")  # English keeps the rules' own, specific sentence
    page.wait_for_selector("html[lang=en]")
    page.wait_for_function("window.cardTable && window.cardTable.seat === 0")
    sockets[-1].send(json.dumps({"type": "act", "id": "i18n-3", "action": {"kind": "choose", "colour": "red"}}))
    expect(error).to_have_text("you have no colour to choose")
