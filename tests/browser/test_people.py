"""People's pages in Chromium: settings, password reset (ask and land), e-mail check, friends, a profile's
buttons; each in English, German and French, at desktop and phone size, axe-clean (no critical or serious
violation). The mails come from the stack's Celery worker, printed to its log (the embedded default)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, axe_violations, new_page, screenshot, sideways, sign_up
from tests.integration.stack import Stack, api, register

pytestmark = [pytest.mark.browser]


def _mailed_link(server: Stack, pattern: str, timeout: float = 60) -> str:
    """The last link matching `pattern` in the worker's log: the console backend printed the mail there."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.findall(pattern, "\n".join(p.read_text(errors="replace") for p in server.logs.glob("*.log")))
        if found:
            return found[-1]
        time.sleep(0.3)
    raise AssertionError(f"no mail with {pattern} in the logs")


def test_people_pages_in_every_language_and_size_then_follow_challenge_accept(browser: Any, server: Stack) -> None:
    base = server.url()
    desk = new_page(browser, server, **DESKTOP)
    sign_up(desk, "ana-people")
    bob = register(base, "bob-people")
    api(base, "POST", "/api/challenges/", {"username": "ana-people", "game": "zwicker", "seats": 2}, bob)
    desk.goto("/settings/")
    desk.fill("input[name=email]", "ana@example.org")
    desk.click("[data-testid=settings-submit]")
    verify = _mailed_link(server, r"/verify-email/[^/\s]+/[^/\s]+/")
    desk.goto("/password-reset/")
    desk.fill("input[name=email]", "ana@example.org")
    desk.click("[data-testid=reset-submit]")
    desk.wait_for_selector("[data-testid=reset-sent]")
    reset = _mailed_link(server, r"/reset/[^/\s]+/[^/\s]+/")
    pages = [
        ("settings", "/settings/", "[data-testid=settings-form]"),
        ("friends", "/friends/", "[data-testid=challenge-form]"),
        ("profile-actions", "/u/bob-people/", "[data-testid=profile-actions]"),
        ("password-reset", "/password-reset/", "[data-testid=reset-form]"),
        ("password-reset-confirm", reset, "[data-testid=reset-confirm-form]"),
        ("verify-email", verify, "[data-testid=verify-submit]"),
    ]
    phone = new_page(browser, server, storage_state=desk.context.storage_state(), **PHONE)
    problems: list[str] = []
    for lang in ("en", "de", "fr"):
        desk.evaluate("(lang) => fetch('/api/me/', {method: 'PATCH', headers: {'Content-Type': 'application/json', "
                      "'X-CSRFToken': document.cookie.match(/csrftoken=([^;]+)/)[1]}, body: JSON.stringify({language: lang})})", lang)
        for pg in (desk, phone):
            for name, path, ready in pages:
                pg.goto(path)
                pg.wait_for_selector(ready)
                pg.wait_for_selector(f"html[lang={lang}]", state="attached")
                screenshot(pg, f"people-{name}-{lang}")
                problems += [f"{name} {lang} {pg.viewport_size['width']}: {v}" for v in axe_violations(pg)]
                width, viewport = sideways(pg)
                if width > viewport:
                    problems.append(f"{name} {lang} {pg.viewport_size['width']}: scrolls sideways ({width} > {viewport})")
    assert not problems, "\n".join(problems)
    desk.goto("/settings/")
    assert desk.locator("h1").inner_text() == "Réglages"  # the account's language (the last pass: French)
    # Report from the profile (moderation's endpoint), follow, then accept the challenge on the friends page.
    desk.goto("/u/bob-people/")
    desk.click("[data-testid=report-open]")
    desk.select_option("[data-testid=report-reason]", "abuse")
    desk.click("[data-testid=report-submit]")
    desk.wait_for_selector("[data-testid=profile-actions-status]:has-text('modérateurs')")
    desk.click("[data-testid=follow-button]")
    desk.wait_for_selector("[data-testid=follow-button][data-action=unfollow]")
    desk.goto("/friends/")
    assert desk.locator("[data-testid=following-bob-people]").count() == 1
    desk.locator("[data-testid^=accept-]").first.click()
    desk.wait_for_url(re.compile(r".*/tables/\d+/$"))
    table = api(base, "GET", f"/api/tables/{desk.url.rstrip('/').split('/')[-1]}/")
    assert [(p["seat"], p["username"]) for p in table["players"]] == [(0, "bob-people"), (1, "ana-people")]
    desk.wait_for_selector("[data-testid=conn-status][data-state=open]")
    for pg in (desk, phone):
        assert not pg.errors, pg.errors
        pg.context.close()
