"""Every word in the player's language, in a real browser: the catalogue script, plural forms, and a
refusal of the server shown to a German, then (after the language switch) French player at a live table."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, axe_violations, create_bot_table, new_page, screenshot, sideways, sign_up


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
    answers: list[dict[str, Any]] = []  # the server's error frames, as the page received them

    def through(ws: Any) -> None:
        # Pass every frame both ways, and keep the server side: the test speaks on the page's own socket,
        # as a stale click would (the game's buttons never offer a move the view already rules out).
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if isinstance(frame, dict) and frame.get("type") == "error":
                answers.append(frame)
            ws.send(message)

        server.on_message(to_page)
        ws.on_message(lambda message: server.send(message))
        sockets.append(server)

    def refused(action_id: str) -> dict[str, Any]:
        sockets[-1].send(json.dumps({"type": "act", "id": action_id, "action": {"kind": "choose", "colour": "red"}}))
        for _ in range(100):
            got = [a for a in answers if a.get("id") == action_id]
            if got:
                return got[0]
            page.wait_for_timeout(50)
        raise AssertionError(f"no answer to {action_id}: {answers}")

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
    answer = refused("i18n-1")
    assert answer["code"] == "rule" and answer["rule_code"] == "not_choosing" and answer["message"] == "Du hast keine Farbe zu wählen.", answer
    expect(error).to_have_text("Du hast keine Farbe zu wählen.")
    screenshot(page, "i18n-refusal-de")
    assert axe_violations(page) == []

    page.select_option("[data-testid=language]", "fr")  # the page reloads, its new socket speaks French
    page.wait_for_selector("html[lang=fr]")
    page.wait_for_function("window.cardTable && window.cardTable.seat === 0")
    answer = refused("i18n-2")
    assert answer["code"] == "rule" and answer["rule_code"] == "not_choosing" and answer["message"] == "Vous n'avez pas de couleur à choisir.", answer
    expect(error).to_have_text("Vous n'avez pas de couleur à choisir.")
    expect(page.locator("[data-testid=throw]")).to_contain_text("Lancer")

    page.select_option("[data-testid=language]", "en")  # English keeps the rules' own, specific sentence
    page.wait_for_selector("html[lang=en]")
    page.wait_for_function("window.cardTable && window.cardTable.seat === 0")
    answer = refused("i18n-3")
    assert answer["code"] == "rule" and answer["rule_code"] == "not_choosing" and answer["message"] == "you have no colour to choose", answer
    expect(error).to_have_text("you have no colour to choose")


def test_the_create_form_and_the_rules_page_in_german_and_french_on_desktop_and_phone(browser: Any, server: Any) -> None:
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        pg = new_page(browser, server, **size)
        sign_up(pg, f"i18n_form_{name}")
        pg.select_option("[data-testid=language]", "de")
        pg.wait_for_selector("html[lang=de]")
        pg.select_option("[data-testid=create-game]", "smackit")
        option = pg.locator("label:has([data-testid=opt-auto_flip_seconds])")
        expect(option).to_contain_text("Automatisch aufdecken nach (s)")
        expect(option).to_have_attribute("title", "Das System deckt für einen Spieler auf, der so lange nichts tut (0: nie).")
        assert sideways(pg)[0] <= sideways(pg)[1]
        assert axe_violations(pg) == []
        screenshot(pg, f"i18n-create-form-de-{name}")
        pg.select_option("[data-testid=language]", "fr")
        pg.wait_for_selector("html[lang=fr]")
        pg.goto("/games/zack/rules/")
        expect(pg.locator("[data-testid=rules-legend]")).to_contain_text("signale une décision de ce site")
        assert sideways(pg)[0] <= sideways(pg)[1]
        assert axe_violations(pg) == []
        screenshot(pg, f"i18n-rules-fr-{name}")
        assert not pg.errors, pg.errors
        pg.context.close()
