"""Browser tests: Debian's Chromium driven by Playwright against real daphne + Celery processes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.stack import Stack, stack

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _services() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(os.environ.get("REDIS_URL"))


@pytest.fixture(scope="session")
def server() -> Iterator[Stack]:
    with stack(services=_services()) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Per module: Playwright's sync API keeps an event loop running while it is open,
    and the asyncio tests that follow the browser tests need the main thread free."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (bin/test does, as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, server: Stack) -> Iterator[Any]:
    context = browser.new_context(base_url=server.url(), locale="en-GB")
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def sign_up(page: Any, name: str, password: str = "correct horse 42") -> None:
    page.goto("/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.click("[data-testid=signup-submit]")
    page.wait_for_url("**/")


def create_bot_table(page: Any, game: str, seats: int, level: str = "normal", options: dict[str, Any] | None = None) -> int:
    """From the lobby: create a table, fill the other seats with bots, start. Returns the table id."""
    page.goto("/")
    page.select_option("[data-testid=create-game]", game)
    page.fill("[data-testid=create-seats]", str(seats))
    for name, value in (options or {}).items():
        selector = f"[data-testid=opt-{name}]"
        if isinstance(value, bool):
            page.set_checked(selector, value)
        else:
            page.fill(selector, str(value))
    page.click("[data-testid=create-submit]")
    page.wait_for_url("**/tables/*/")
    table_id = int(page.url.rstrip("/").split("/")[-1])
    # the socket's hello redraws the seat list (level selects back to "normal"): choose levels after it
    page.wait_for_function("window.cardTable && window.cardTable.seat !== null")
    for s in range(1, seats):
        page.select_option(f"[data-testid=bot-level-{s}]", level)
        page.click(f"[data-testid=add-bot-{s}]")
        page.wait_for_selector(f"[data-testid=seat-{s}] .tag")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=table-status]:has-text('playing')")
    return table_id
