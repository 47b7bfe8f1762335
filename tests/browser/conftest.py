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


def _as_function(expression: Any) -> Any:
    """A predicate string as a function: Playwright `eval`s a bare expression in the page, which the pages'
    Content-Security-Policy refuses (no 'unsafe-eval', web/csp.py); a function is compiled by the browser's
    debugging protocol, outside the page's policy."""
    if isinstance(expression, str) and "=>" not in expression and not expression.lstrip().startswith(("function", "async")):
        return f"() => ({expression})"
    return expression


def _predicates_as_functions() -> None:
    from playwright.sync_api import Frame, Page

    for cls in (Page, Frame):
        original = cls.wait_for_function
        if getattr(original, "csp_safe", False):
            continue

        def wait_for_function(self: Any, expression: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            return _original(self, _as_function(expression), *args, **kwargs)

        wait_for_function.csp_safe = True  # type: ignore[attr-defined]
        cls.wait_for_function = wait_for_function  # type: ignore[method-assign]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Per module: Playwright's sync API keeps an event loop running while it is open,
    and the asyncio tests that follow the browser tests need the main thread free."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (bin/test does, as root)")
    from playwright.sync_api import sync_playwright

    _predicates_as_functions()
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
    # A script, handler or style the Content-Security-Policy refused (web/csp.py) is an error of the page too.
    pg.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
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
    if options:  # the technical options are folded under "Advanced settings": unfold them to set any option
        page.evaluate("() => document.querySelectorAll('details.advanced').forEach((d) => { d.open = true; })")
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


# ---- phones, screenshots and axe (shared by the phone and page tests) ---------------------------------------
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOTS = os.path.join(ROOT, "test-results", "screenshots")
AXE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendor", "axe.min.js")  # axe-core 4.10.3, MPL-2.0
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}


def new_page(browser: Any, server: Stack, **context: Any) -> Any:
    """A page in its own context (phone: PHONE, desktop: DESKTOP); JavaScript errors are kept in `page.errors`."""
    ctx = browser.new_context(base_url=server.url(), locale="en-GB", **context)
    pg = ctx.new_page()
    pg.set_default_timeout(15_000)
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    return pg


@pytest.fixture
def phone(browser: Any, server: Stack) -> Iterator[Any]:
    """A phone: 390x844, touch, mobile viewport, no keyboard use in the tests that take it."""
    pg = new_page(browser, server, **PHONE)
    yield pg
    pg.context.close()
    assert not pg.errors, f"JavaScript errors on the page: {pg.errors}"


def screenshot(page: Any, name: str) -> str:
    """Save a full-page screenshot as a test artefact: test-results/screenshots/<name>-<w>x<h>.png."""
    size = page.viewport_size
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, f"{name}-{size['width']}x{size['height']}.png")
    page.screenshot(path=path, full_page=True)
    return path


def axe_violations(page: Any, impacts: tuple[str, ...] = ("critical", "serious")) -> list[str]:
    """Run axe-core on the page; the violations of the given impacts, one line each (rule, impact, first targets)."""
    if not page.evaluate("() => !!window.axe"):
        # Evaluated, not added as a <script>: the pages' Content-Security-Policy runs no inline script (web/csp.py).
        with open(AXE, encoding="utf-8") as f:
            page.evaluate(f.read())
    result = page.evaluate("async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations"
                           ".map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))")
    return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in result if v["impact"] in impacts]


def sideways(page: Any) -> tuple[int, int]:
    """(document width, viewport width): a page that scrolls sideways has the first larger."""
    return tuple(page.evaluate("() => [document.scrollingElement.scrollWidth, window.innerWidth]"))


def first_screen_box(page: Any, selector: str) -> dict[str, float]:
    """The element's box in page coordinates, and whether it lies wholly within the first screen (scrolled to the top)."""
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
          const top = r.top + window.scrollY;
          return { top, bottom: top + r.height, height: r.height, width: r.width, inside: top >= 0 && top + r.height <= window.innerHeight }; }""",
        selector,
    )


def seat_players(n: int) -> list[dict[str, Any]]:
    """The players list of an n-seat table for a renderer drawn without a server: seat 0 a person, bots after."""
    return [{"seat": s, "username": f"player{s}", "bot": s > 0} for s in range(n)]


def moment(rules: Any, log: list[dict[str, Any]], wanted: Any, last: bool = False) -> tuple[int, Any] | None:
    """(index, state after it) of the first event of `log` (with `last`: the last) after which `wanted(state)`
    holds, folding as a replay does; None when there is none."""
    found = None
    state = None
    for k, e in enumerate(log):
        state = rules.fold(state, e)
        if wanted(state):
            found = (k, state)
            if not last:
                break
    return found


def mount_renderer(page: Any, slug: str, view: dict[str, Any], players: list[dict[str, Any]], lang: str = "en") -> None:
    """Draw `view` with the game's renderer as the replay page does (no socket: ctx.send is null).

    The renderer's words come from the page's djangojs catalogue, so the page is loaded in `lang`."""
    open_in_language(page, lang)
    page.evaluate(
        """async ([slug, view, players, lang]) => {
          const link = document.createElement("link");
          link.rel = "stylesheet"; link.href = `/static/games/${slug}/table.css`;
          document.head.append(link);
          await new Promise((ok) => { link.onload = ok; link.onerror = ok; });
          const main = document.querySelector("main") || document.body;
          const root = document.createElement("div");
          root.dataset.testid = "replay-root";
          main.replaceChildren(root);
          const mod = await import(`/static/games/${slug}/table.js`);
          mod.createRenderer(root, { seat: null, lang, send: null, players }).update(view, []);
        }""",
        [slug, view, players, lang],
    )


def open_in_language(page: Any, lang: str) -> None:
    """Load a page in `lang` (Django's language cookie, as the language switch sets it): its catalogue speaks `lang`."""
    if not page.url.startswith("http"):
        page.goto("/")
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": page.url}])
    page.goto("/")
    page.wait_for_selector(f"html[lang={lang}]", state="attached")


def describe_all(page: Any, slug: str, events: list[dict[str, Any]], players: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The replay sentence of every event in each language, each from a page loaded in that language."""
    out: dict[str, list[str]] = {}
    for lang in ("en", "de", "fr"):
        open_in_language(page, lang)
        out[lang] = page.evaluate(
            """async ([slug, events, players, lang]) => {
              const mod = await import(`/static/games/${slug}/table.js`);
              return events.map((e) => mod.describeEvent(e, players));
            }""",
            [slug, events, players, lang],
        )
    open_in_language(page, "en")
    return out
