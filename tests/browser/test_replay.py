"""The replay viewer in Chromium: play, pause, drag the slider, switch perspective, read the events; follow live.

The finished match is a ZACK! match of three bots played by the pure rules
and imported into the server's own database with `manage.py import_match`
(the same path a match moved between installations takes).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.kit.registry import get_bot, get_rules
from replays.selectors import export_document
from tests.browser.conftest import DESKTOP, PHONE, axe_violations, new_page, screenshot, sideways
from tests.integration.stack import Stack, api, register
from tests.support.simulate import play_bots

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def bot_match(server: Stack, tmp_path_factory: pytest.TempPathFactory) -> int:
    levels = ["hard", "normal", "easy"]
    report = play_bots(get_rules("zack"), get_bot("zack"), levels, seed=4)
    assert report.outcome is not None and report.events > 20
    seats = [{"seat": s, "username": f"bot-zack-{lv}", "bot": True, "level": lv} for s, lv in enumerate(levels)]
    path = Path(tmp_path_factory.mktemp("replay")) / "zack.json"
    path.write_text(json.dumps(export_document(game="zack", options={}, seats=seats, events=report.log, outcome=report.outcome)))
    out = server.manage("import_match", str(path))
    return int(re.search(r"imported match (\d+)", out).group(1))


def position(page: Any) -> int:
    return int(page.locator("[data-testid=position]").inner_text())


def board(page: Any) -> str:
    return page.locator("[data-testid=game-root]").inner_html()


def open_replay(page: Any, match_id: int, query: str = "") -> None:
    page.goto(f"/matches/{match_id}/replay/{query}")
    page.wait_for_selector("[data-testid=replay-root][data-ready='1']")


def test_play_pause_slider_and_perspective(page: Any, bot_match: int) -> None:
    open_replay(page, bot_match)
    total = int(page.locator("[data-testid=total]").inner_text())
    options = page.locator("[data-testid=perspective] option").evaluate_all("els => els.map(e => e.value)")
    assert options == ["all", "spectator", "seat:0", "seat:1", "seat:2"]
    # every event but the bookkeeping (timers set, the claims a race result sums up) is a line of the list
    listed = page.locator("[data-testid=event-list] li").count()
    assert position(page) == 1 and 0 < listed <= total

    # Play at 8× until the table moves on, then pause: the position stays.
    page.select_option("[data-testid=speed]", "8")
    start_board = board(page)
    page.click("[data-testid=play]")
    page.wait_for_function("() => Number(document.querySelector('[data-testid=position]').textContent) >= 6")
    page.click("[data-testid=play]")
    assert page.locator("[data-testid=play]").get_attribute("data-state") == "paused"
    paused_at = position(page)
    page.wait_for_timeout(800)
    assert position(page) == paused_at and board(page) != start_board

    # Drag the slider to about 60 % of the match.
    box = page.locator("[data-testid=slider]").bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 4, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, y, steps=8)
    page.mouse.up()
    page.wait_for_function(f"() => Math.abs(window.replay.position - {round(total * 0.6)}) <= 3")
    page.wait_for_timeout(300)
    dragged_to = position(page)
    assert abs(dragged_to - total * 0.6) <= 3
    assert page.locator(f"[data-testid=event-list] li.current[data-seq='{dragged_to}']").count() == 1
    everything = board(page)

    # The same moment from the spectator's seat: the hidden piles are no longer on the board.
    page.select_option("[data-testid=perspective]", "spectator")
    page.wait_for_function("() => window.replay.perspective === 'spectator'")
    page.wait_for_function(f"() => document.querySelector('[data-testid=game-root]').innerHTML !== {json.dumps(everything)}")
    assert position(page) == dragged_to

    # The link copies this moment and this perspective.
    page.click("[data-testid=copy-link]")
    link = page.locator("[data-testid=copy-link]").get_attribute("data-copied")
    assert f"at={dragged_to}" in link and "perspective=spectator" in link
    open_replay(page, bot_match, link[link.index("?") :])
    assert position(page) == dragged_to and page.locator("[data-testid=perspective]").input_value() == "spectator"


# The viewer's own words, used when a renderer has no describeEvent (or it fails): the platform's kinds only
# (races, timers, the end); a game's kind is the renderer's to describe, here it is only humanised.
GENERIC_EVENTS = [
    {"seq": 1, "t_ms": 0},  # hidden from this perspective
    {"seq": 2, "t_ms": 0, "kind": "timer", "seat": None, "data": {"id": "t", "due_ms": 5000}},
    {"seq": 3, "t_ms": 10, "kind": "slapped_wrong", "seat": 1, "data": {}},  # a kind no game knows: humanised
    {"seq": 4, "t_ms": 10, "kind": "table_tilted", "seat": None, "data": {}},
    {"seq": 5, "t_ms": 20, "kind": "passed", "seat": 7, "data": {}},  # a seat without a player: its number, read from 1
    {
        "seq": 6,
        "t_ms": 20,
        "kind": "race_settled",
        "seat": None,
        "data": {"winner": 0, "ranking": [{"seat": 0, "reaction_ms": 120}]},
    },
    {"seq": 7, "t_ms": 30, "kind": "finished", "seat": None, "data": {"outcome": {"winners": [0, 2]}}},
    {
        "seq": 8,
        "t_ms": 40,
        "kind": "race_settled",
        "seat": None,
        "data": {"winner": 1, "ranking": [{"seat": 1, "reaction_ms": 250}, {"seat": 0, "reaction_ms": 280}]},
    },
    {
        "seq": 9,
        "t_ms": 40,
        "kind": "race_claimed",
        "seat": 0,
        "data": {"claim": {"arrival_ms": 4990, "judged_ms": 4990, "reaction_ms": 280}},
    },
]
GENERIC = {
    "en": [
        "Hidden event",
        "Timer: 5 s.",
        "{normal}: slapped wrong",
        "Table tilted",
        "Seat 8: passed",
        "{hard} reacted in 120 ms (nobody else did).",
        "Match over: {hard} and {easy} won.",
        "{normal} won the race ({normal} 250 ms, {hard} 280 ms).",
        "{hard} reacted in 280 ms.",
    ],
    "de": [
        "Verdecktes Ereignis",
        "Timer: 5 s.",
        "{normal}: slapped wrong",
        "Table tilted",
        "Platz 8: passed",
        "{hard} hat in 120 ms reagiert (sonst niemand).",
        "Partie beendet: {hard} und {easy} gewinnen.",
        "{normal} hat das Rennen gewonnen ({normal} 250 ms, {hard} 280 ms).",
        "{hard} hat in 280 ms reagiert.",
    ],
    "fr": [
        "Événement caché",
        "Minuteur : 5 s.",
        "{normal}: slapped wrong",
        "Table tilted",
        "Place 8: passed",
        "{hard} a réagi en 120 ms (personne d’autre).",
        "Partie terminée : {hard} et {easy} gagnent.",
        "{normal} a gagné la course ({normal} 250 ms, {hard} 280 ms).",
        "{hard} a réagi en 280 ms.",
    ],
}


def generic_words(page: Any) -> list[str]:
    return page.evaluate(f"() => {json.dumps(GENERIC_EVENTS)}.map(e => window.replay.describeGeneric(e))")


def generic_expected(page: Any, lang: str) -> list[str]:
    """GENERIC[lang] with the imported bots' persona names (seats 0, 1, 2: hard, normal, easy)."""
    hard, normal, easy = page.locator("[data-testid=replay-player]").all_text_contents()[:3]
    return [w.format(hard=hard, normal=normal, easy=easy) for w in GENERIC[lang]]


def test_event_list_describes_events_in_words_and_marks_important_ones(page: Any, bot_match: int) -> None:
    open_replay(page, bot_match)
    items = page.locator("[data-testid=event-list] li")
    english = items.evaluate_all("els => els.map(e => e.querySelector('.what').textContent)")
    times = items.evaluate_all("els => els.map(e => e.querySelector('.t').textContent)")
    assert all(re.fullmatch(r"\d+:\d\d\.\d", t) for t in times)
    assert not [text for text in english if "_" in text or not text.strip()]
    important = page.locator("[data-testid=event-list] li.important")
    assert 0 < important.count() < items.count()
    # "Next important event" jumps to the first one after the current position.
    first_important = int(important.first.get_attribute("data-seq"))
    page.click("[data-testid=next-important]")
    page.wait_for_function(f"() => window.replay.position === {first_important}")

    assert generic_words(page) == generic_expected(page, "en")

    page.select_option("[data-testid=language]", "de")
    page.wait_for_selector("html[lang=de]")
    open_replay(page, bot_match)
    german = page.locator("[data-testid=event-list] li .what").evaluate_all("els => els.map(e => e.textContent)")
    assert len(german) == len(english) and german[0] != english[0] and german[-1] != english[-1]
    assert page.locator("[data-testid=play]").inner_text() == "Abspielen"
    assert generic_words(page) == generic_expected(page, "de")
    page.select_option("[data-testid=language]", "fr")
    page.wait_for_selector("html[lang=fr]")
    open_replay(page, bot_match)
    assert generic_words(page) == generic_expected(page, "fr")
    page.select_option("[data-testid=language]", "en")
    page.wait_for_selector("html[lang=en]")


def test_spectator_follows_a_live_match(page: Any, server: Stack) -> None:
    token = register(server.url(), "replay-host")
    table = api(server.url(), "POST", "/api/tables/", {"game": "zack", "seats": 3, "sit": False}, token)
    for _ in range(3):
        api(server.url(), "POST", f"/api/tables/{table['id']}/bots/", {"level": "hard"}, token)
    match_id = api(server.url(), "POST", f"/api/tables/{table['id']}/start/", None, token)["match"]
    open_replay(page, match_id)
    options = page.locator("[data-testid=perspective] option").evaluate_all("els => els.map(e => e.value)")
    assert options == ["spectator"]  # live: nobody sees everything or another seat
    seen = int(page.locator("[data-testid=total]").inner_text())
    try:
        page.wait_for_function(
            f"() => Number(document.querySelector('[data-testid=total]').textContent) > {seen}", timeout=60_000
        )
    except PlaywrightTimeout:
        summary = api(server.url(), "GET", f"/api/matches/{match_id}/")
        raise AssertionError(
            f"the page stayed at {seen} events; the server has {summary['event_count']}\n{server.log_text()}"
        ) from None
    page.wait_for_function("() => window.replay.position === Number(document.querySelector('[data-testid=total]').textContent)")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_replay_page_mid_match_fits_the_screen(browser: Any, server: Stack, bot_match: int, size: dict) -> None:
    """Halfway through the match, with the ★ marks in the list: no sideways scrolling, no serious axe finding; a
    screenshot (test-results/screenshots/replay-mid-<w>x<h>.png) for a person to look at."""
    page = new_page(browser, server, **size)
    open_replay(page, bot_match)
    total = int(page.locator("[data-testid=total]").inner_text())
    page.evaluate(f"() => window.replay.seek({total // 2})")
    page.wait_for_function(f"() => window.replay.position === {total // 2}")
    assert page.locator("[data-testid=event-list] li.important").count() > 0
    screenshot(page, "replay-mid")
    width, inner = sideways(page)
    assert width <= inner, f"the replay page scrolls sideways ({width} > {inner})"
    assert axe_violations(page) == []
    assert not page.errors, page.errors
    page.context.close()


def test_keys_work_after_a_click_and_the_address_follows_the_position(page: Any, bot_match: int) -> None:
    """The arrow keys step wherever the last click left the focus (a button, the list), the address says where
    the viewer is (?at=k), so a reload comes back to that moment; a seat's view names whose it is."""
    open_replay(page, bot_match)
    at = lambda: int(re.search(r"[?&]at=(\d+)", page.url).group(1))  # noqa: E731 - read where asked
    page.click("[data-testid=step]")  # the focus stays on the button
    page.wait_for_function("() => window.replay.position === 2")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.replay.position === 3")
    page.locator("[data-testid=event-list] li").nth(5).click()
    clicked = int(page.locator("[data-testid=event-list] li").nth(5).get_attribute("data-seq"))
    page.wait_for_function(f"() => window.replay.position === {clicked}")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => window.replay.position === {clicked - 1}")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => window.replay.position === {clicked - 2}")
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('at') === '{clicked - 2}'")
    assert at() == clicked - 2
    page.reload()
    page.wait_for_selector("[data-testid=replay-root][data-ready='1']")
    assert position(page) == clicked - 2

    page.select_option("[data-testid=perspective]", "seat:1")
    page.wait_for_function("() => window.replay.perspective === 'seat:1'")
    page.wait_for_function("() => new URLSearchParams(location.search).get('perspective') === 'seat:1'")
    name = page.locator("[data-testid=replay-player]").nth(1).inner_text()
    page.wait_for_function("() => document.querySelector('[data-testid=game-root]').textContent.length > 0")
    text = page.locator("[data-testid=game-root]").inner_text()
    assert "You are watching" not in text and "(you)" not in text and "your " not in text, text
    assert name in text, text


def test_the_end_line_names_the_real_winner_after_a_resignation(page: Any, server: Stack, tmp_path: Path) -> None:
    """PROTOCOL "Leaving a match": whoever resigned is placed after everyone still in. The game's own `finished`
    event still names its winner; the replay's end line must tell the match's result, which the resignation changed."""
    from games.engine import fold_all

    levels = ["hard", "normal", "easy"]
    rules = get_rules("zack")
    report = play_bots(rules, get_bot("zack"), levels, seed=4)
    first = report.outcome["winners"][0]
    log = [dict(e) for e in report.log]
    log.insert(10, {"kind": "resigned", "seat": first, "data": {}, "t_ms": log[9]["t_ms"]})  # the game's winner left early
    for seq, e in enumerate(log, 1):
        e["seq"] = seq
    outcome = fold_all(rules, log)["outcome"]
    real = outcome["winners"]
    assert first not in real
    seats = [{"seat": s, "username": f"quit-zack-{lv}", "bot": True, "level": lv} for s, lv in enumerate(levels)]
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(export_document(game="zack", options={}, seats=seats, events=log, outcome=outcome)))
    match = int(re.search(r"imported match (\d+)", server.manage("import_match", str(path))).group(1))
    names = {s["seat"]: s["username"] for s in api(server.url(), "GET", f"/api/matches/{match}/")["seats"]}

    for lang in ("en", "de"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": server.url()}])
        open_replay(page, match)
        end = page.locator("[data-testid=event-list] li .what").last.inner_text()
        assert names[real[0]] in end, (lang, end)
        assert names[first] not in end, (lang, end)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": server.url()}])
