"""Phones (390x844, touch) and the desktop (1366x900): every game played to its end by taps against bots.

What a phone player needs: the main action of each game (Throw, Draw, Open,
Flip/Smack) on the first screen and large enough for a thumb, no page that
scrolls sideways, the seats and chat folded away once play starts, and no
critical or serious axe violation. Screenshots of every screen at both sizes
are kept under test-results/screenshots/ (git-ignored) for a person to look
at; the y offset of each main action is printed (run with -s to read it).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.conftest import (
    DESKTOP,
    axe_violations,
    create_bot_table,
    first_screen_box,
    new_page,
    screenshot,
    seat_players,
    sideways,
    sign_up,
)

pytestmark = [pytest.mark.browser]

THUMB = 44  # px: the smallest comfortable touch target (Apple HIG 44 pt, WCAG 2.5.5)
FINISHED = "[data-testid=table-status]:has-text('finished')"


def _tap(page: Any, selector: str, timeout: int = 1_500) -> bool:
    """Tap unless the element went away or turned disabled meanwhile (bots play on): the caller looks again."""
    try:
        page.tap(selector, timeout=timeout)
        return True
    except PlaywrightTimeout:
        return False


def _has(page: Any, selector: str) -> bool:
    return page.locator(selector).count() > 0


def _check_screen(page: Any, name: str, action: str | None = None) -> None:
    """No sideways scrolling, no serious axe finding, a screenshot; the main action on the first screen and large."""
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, name)
    width, inner = sideways(page)
    wide = page.evaluate(  # what sticks out, named in the failure message
        "(w) => [...document.querySelectorAll('body *')].filter((n) => n.getBoundingClientRect().right > w + 1)"
        ".slice(0, 5).map((n) => n.tagName + '.' + n.className)",
        page.viewport_size["width"],
    )
    assert width <= inner == page.viewport_size["width"], f"{name}: the page scrolls sideways ({width} > {inner}): {wide}"
    if action:
        box = first_screen_box(page, action)
        print(f"{name} {page.viewport_size['width']}x{page.viewport_size['height']}: {action} at y={box['top']:.0f}..{box['bottom']:.0f}")
        assert box["inside"], f"{name}: {action} is not on the first screen: {box}"
        if page.viewport_size["width"] < 800:  # a phone: a thumb taps it
            assert box["height"] >= THUMB and box["width"] >= THUMB, f"{name}: {action} is too small to tap: {box}"
    found = axe_violations(page)
    assert not found, f"{name}: axe found {found}"


def _folded(page: Any) -> None:
    """On a phone the seats and chat fold away once play starts; the summary still opens them."""
    panel = page.locator("[data-testid=seats-panel]")
    expect(panel).not_to_have_attribute("open", "")
    page.tap("[data-testid=seats-panel] summary")
    expect(page.locator("[data-testid=seat-list]")).to_be_visible()
    page.tap("[data-testid=seats-panel] summary")
    expect(page.locator("[data-testid=seat-list]")).to_be_hidden()


def _end(page: Any, name: str) -> None:
    """The end: finished, a replay link on the first screen; the replay page is checked too."""
    expect(page.locator("[data-testid=table-status]")).to_have_text("finished", timeout=20_000)
    _check_screen(page, f"{name}-end", "[data-testid=rematch]")
    link = page.locator("[data-testid=replay-link]")
    expect(link).to_be_visible()
    page.goto(link.get_attribute("href"))
    page.wait_for_load_state("networkidle")
    _check_screen(page, f"{name}-replay")


def _play_zack(page: Any) -> None:
    create_bot_table(page, "zack", 3, "hard", {"show_turn": True})
    page.wait_for_selector("[data-testid=throw]")
    expect(page.locator("[data-testid=touch-hint]")).to_be_visible()
    expect(page.locator("[data-testid=throw] small")).to_be_hidden()  # no "space" on a phone
    _folded(page)
    _check_screen(page, "zack-play", "[data-testid=throw]")
    deadline = time.monotonic() + 300
    while not _has(page, FINISHED) and time.monotonic() < deadline:
        if _has(page, "[data-testid=status]:has-text('Your turn!')"):
            _tap(page, "[data-testid=colour]:enabled" if _has(page, ".zack-colour.urgent") else "[data-testid=throw]:enabled")
        elif _has(page, "[data-testid^=choose-]"):
            _tap(page, "[data-testid^=choose-] >> nth=0")
        page.wait_for_timeout(120)
    _end(page, "zack")


def _play_smackit(page: Any) -> None:
    create_bot_table(page, "smackit", 2, "hard", {"max_minutes": 1, "auto_flip_seconds": 3})
    page.wait_for_selector("[data-testid=flip]")
    expect(page.locator("[data-testid=flip] small")).to_be_hidden()
    _folded(page)
    _check_screen(page, "smackit-play", "[data-testid=flip]")
    _check_screen(page, "smackit-play", "[data-testid=smack]")
    # the mute switch: pressed state shown, remembered by the browser across a reload
    toggle = page.locator("[data-testid=sound-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.tap("[data-testid=sound-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.reload()
    page.wait_for_selector("[data-testid=flip]")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.tap("[data-testid=sound-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    sounds: set[str] = set()
    deadline = time.monotonic() + 120
    while not _has(page, FINISHED) and time.monotonic() < deadline:
        if _has(page, "[data-testid=centre-top][data-face=smack]"):
            _tap(page, "[data-testid=smack]:enabled", 500)
        elif _has(page, "[data-testid=status].smackit-mine"):
            _tap(page, "[data-testid=flip]:enabled", 500)
        page.wait_for_timeout(80)
        sounds.add(page.evaluate("() => window.cardTableFeedback.last"))
    assert {"flip", "turn"} & sounds, f"no flip or turn sound was chosen: {sounds}"
    _end(page, "smackit")


def _play_zwicker(page: Any) -> None:
    create_bot_table(page, "zwicker", 2, "hard", {"turn_seconds": 120})
    page.wait_for_selector("[data-testid=draw]", timeout=20_000)
    _folded(page)
    _check_screen(page, "zwicker-play", "[data-testid=draw]")
    # a hidden tab: my next turn is named in the tab title, and the title comes back when the tab is shown
    title = page.title()
    page.evaluate("() => Object.defineProperty(document, 'hidden', { value: true, configurable: true })")
    page.tap("[data-testid=draw]")
    page.tap("[data-testid=discard-drawn]")
    page.wait_for_function("() => document.title.startsWith('●')", timeout=30_000)
    assert "Your turn!" in page.title() and title in page.title()
    page.evaluate("() => { delete document.hidden; document.dispatchEvent(new Event('visibilitychange')); }")
    expect(page).to_have_title(title)
    turns = 1
    deadline = time.monotonic() + 180
    while not _has(page, FINISHED) and time.monotonic() < deadline:
        if _has(page, "[data-testid=draw]"):
            if turns >= 2 and _has(page, "[data-testid=zwicker]"):
                _tap(page, "[data-testid=zwicker]")  # call: the bot plays its last turn, the match ends
            elif _tap(page, "[data-testid=draw]"):
                turns += 1
                if _tap(page, "[data-testid=discard-drawn]", 5_000):
                    page.wait_for_selector("[data-testid=drawn-card]", state="detached", timeout=5_000)
        elif _has(page, "[data-testid=discard-drawn]"):
            _tap(page, "[data-testid=discard-drawn]")
        page.wait_for_timeout(150)
    expect(page.locator("[data-testid=score-table]")).to_be_visible()
    _end(page, "zwicker")


def _play_zigzag(page: Any) -> None:
    create_bot_table(page, "zigzag", 4, "hard", {"tour_seconds": 20})
    page.wait_for_selector("[data-testid=open]")
    expect(page.locator(".zigzag-keys")).to_be_hidden()
    _folded(page)
    _check_screen(page, "zigzag-play", "[data-testid=open]")
    started = time.monotonic()
    deadline, shown = started + 420, started
    while not _has(page, FINISHED) and time.monotonic() < deadline:
        if time.monotonic() - shown > 30:  # a trace for a slow run (captured, printed only if the test fails)
            shown = time.monotonic()
            timer = page.locator("[data-testid=tour-timer]")
            print(f"zigzag at {shown - started:.0f} s: tour timer {timer.inner_text() if timer.count() else '-'!r}; "
                  f"sheet {page.locator('[data-testid=score-sheet]').inner_text()[:300]!r}")
        if _has(page, "[data-testid=open]"):
            if not _has(page, "[data-testid=hand] .zigzag-selected"):
                _tap(page, "[data-testid=hand] [data-testid^=hand-] >> nth=0")
            _tap(page, "[data-testid=open]:enabled")
        elif _has(page, "[data-testid=pass]:enabled"):
            _tap(page, "[data-testid=pass]:enabled")
        page.wait_for_timeout(200)
    expect(page.locator("[data-testid=score-sheet]")).to_be_visible()
    _end(page, "zigzag")


PLAY = {"zack": _play_zack, "smackit": _play_smackit, "zwicker": _play_zwicker, "zigzag": _play_zigzag}


@pytest.mark.timeout(600)  # a ZIGZAG match against three hard bots is 1-2 minutes here, once over 300 s in CI
@pytest.mark.parametrize("game", list(PLAY))
def test_a_game_played_to_its_end_by_touch_on_a_phone(phone: Any, game: str) -> None:
    sign_up(phone, f"thumb-{game}")
    PLAY[game](phone)


MAIN = {"zack": ("[data-testid=throw]", 3, {"show_turn": True}), "smackit": ("[data-testid=flip]", 2, {}),
        "zwicker": ("[data-testid=draw]", 2, {"turn_seconds": 120}), "zigzag": ("[data-testid=open]", 4, {"tour_seconds": 600})}


def test_on_the_desktop_every_main_action_is_on_the_first_screen(browser: Any, server: Any) -> None:
    page = new_page(browser, server, **DESKTOP)
    sign_up(page, "wide")
    for game, (action, seats, options) in MAIN.items():
        create_bot_table(page, game, seats, "easy", options)
        page.wait_for_selector(action, timeout=20_000)
        expect(page.locator("[data-testid=seats-panel]")).to_have_attribute("open", "")  # wide screens never fold it
        expect(page.locator("[data-testid=touch-hint]")).to_be_hidden()
        _check_screen(page, f"{game}-play", action)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_page_fits_the_screen_and_passes_axe(browser: Any, server: Any, size: str) -> None:
    from tests.browser.conftest import PHONE

    page = new_page(browser, server, **(PHONE if size == "phone" else DESKTOP))
    page.goto("/login/")
    _check_screen(page, "login")
    page.goto("/signup/")
    _check_screen(page, "signup")
    sign_up(page, f"pages-{size}")
    _check_screen(page, "lobby")
    # a table before Start: the seats panel is open on every screen (seats, bots, Start)
    page.select_option("[data-testid=create-game]", "zack")
    page.fill("[data-testid=create-seats]", "3")
    page.click("[data-testid=create-submit]")
    page.wait_for_url("**/tables/*/")
    page.wait_for_function("window.cardTable && window.cardTable.seat !== null")
    expect(page.locator("[data-testid=seats-panel]")).to_have_attribute("open", "")
    _check_screen(page, "table-open", "[data-testid=add-bot-1]")
    for path, name in (("/tournaments/", "tournaments"), ("/leaderboards/", "leaderboards"), ("/matches/", "matches"),
                       (f"/u/pages-{size}/", "profile"), ("/games/zack/rules/", "rules")):
        response = page.goto(path)
        assert response.ok, (name, response.status)
        page.wait_for_load_state("networkidle")
        _check_screen(page, name)
    assert not page.errors, page.errors
    page.context.close()


def test_zack_challenge_banner_overlays_the_table_without_moving_it(browser: Any, server: Any) -> None:
    """A real challenge from a random match: the banner shows, the box and the buttons stay where they were."""
    from games.zack.rules import RULES
    from tests.support.simulate import harness_of, play_random

    report = play_random(harness_of("zack"), 3, 5, max_actions=3000, check=False)
    state = None
    found = None
    for e in report.log:
        before = state
        state = RULES.fold(state, e)
        if e["kind"] == "challenged" and before is not None:
            found = (RULES.view(before, 0), RULES.view(state, 0), e)
            break
    assert found, "no challenge in this random match"
    players = seat_players(3)
    for size in ("phone", "desktop"):
        from tests.browser.conftest import PHONE

        page = new_page(browser, server, **(PHONE if size == "phone" else DESKTOP))
        page.goto("/")
        moved = page.evaluate(
            """async ([before, after, event, players]) => {
              const link = document.createElement("link");
              link.rel = "stylesheet"; link.href = "/static/games/zack/table.css";
              document.head.append(link);
              await new Promise((ok) => { link.onload = ok; link.onerror = ok; });
              const root = document.createElement("div");
              document.querySelector("main").replaceChildren(root);
              const mod = await import("/static/games/zack/table.js");
              const r = mod.createRenderer(root, { seat: 0, lang: "en", send: () => {}, players });
              r.update(before, []);
              r.update(after, []); // the same view with and without the event: only the banner differs
              const where = () => ["[data-testid=box]", "[data-testid=controls]"].map((s) => document.querySelector(s).getBoundingClientRect().top);
              const was = where();
              r.update(after, [event]);
              const banner = document.querySelector("[data-testid=banner]");
              return { was, now: where(), shown: !banner.hidden && banner.textContent.length > 0 };
            }""",
            [found[0], found[1], found[2], players],
        )
        assert moved["shown"], f"{size}: the challenge banner did not show"
        assert moved["was"] == moved["now"], f"{size}: the banner moved the table: {moved}"
        screenshot(page, "zack-banner")
        assert not page.errors, page.errors
        page.context.close()
