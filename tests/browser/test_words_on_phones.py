"""What a new German or French player reads, on a phone: every page walked at 390x844 in both languages, its
visible words checked against what must never reach a player (English left over, game slugs, option names,
milliseconds jargon, a word the glossary rules out), its width against the screen's; the top bar in one row;
a finished tournament ending on its winner and podium, and its table leading back to it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games.kit.registry import get_bot, get_rules
from replays.selectors import export_document
from tests.browser.conftest import PHONE, new_page, screenshot
from tests.integration.stack import Stack, api, register
from tests.support.simulate import play_bots

pytestmark = [pytest.mark.browser]

# Seen on no page, in either language (visible text only: folded details, titles and addresses are not read)
NEVER = [
    r"won the race", r"\bdealer\b", r"Play again", r"Watch replay", r"reached the server", r"judged at",
    r"Englisch", r"Anglais", r"\b(the|and|you|your|with|of)\b",  # English sentences
    r"(?<![\w-])(zack|zwicker|zigzag|smackit)(?![\w-])",  # slugs (names are capitalised: ZACK!, Zwicker, ZIGZAG,
    # Smack It!); not inside a player's name such as thumb-zigzag, which earlier tests of the stack made
    r"\b[a-z]+_[a-z_]+\b",  # option and event identifiers
    r"\(ms\b", r"\bμ\b|\bσ\b",  # units and symbols of the developers' tables
    r"[a-zäöüßéèàç]:[A-ZÄÖÜÉ]",  # a colon without its space ("Reaktionszeiten:Nora-bot")
]
NEVER_BY_LANG = {
    "de": [r"\bManche\b", r"Schachtel", r"Anfechtung"],
    "fr": [r"Contestation", r"\bdealer\b", r"\breplay\b"],
}
LANGUAGE_NAMES = ["English", "Deutsch", "Français"]


@pytest.fixture(scope="module")
def world(server: Stack, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A finished match (imported), a tournament being played (three bots at one table), an organiser."""
    levels = ["hard", "normal", "easy"]
    report = play_bots(get_rules("zack"), get_bot("zack"), levels, seed=11)
    seats = [{"seat": s, "username": f"walk-zack-{lv}", "bot": True, "level": lv} for s, lv in enumerate(levels)]
    path = Path(tmp_path_factory.mktemp("walk")) / "zack.json"
    path.write_text(json.dumps(export_document(game="zack", options={}, seats=seats, events=report.log, outcome=report.outcome)))
    match = int(re.search(r"imported match (\d+)", server.manage("import_match", str(path))).group(1))
    player = api(server.url(), "GET", f"/api/matches/{match}/")["seats"][0]["username"]
    token = register(server.url(), "walk-organiser")
    body = {"name": "Walk cup", "game": "zack", "format": "swiss", "table_size": 3, "rounds": 1}
    t = api(server.url(), "POST", "/api/tournaments/", body, token)
    api(server.url(), "POST", f"/api/tournaments/{t['id']}/bots/", {"count": 3, "level": "hard"}, token)
    t = api(server.url(), "POST", f"/api/tournaments/{t['id']}/start/", None, token)
    table = t["rounds"][0]["tables"][0]["table"]
    return {"match": match, "player": player, "tournament": t["id"], "table": table}


def visible_text(page: Any) -> str:
    return page.evaluate("() => document.body.innerText")


def test_every_page_in_german_and_french_fits_a_phone_and_speaks_to_players(browser: Any, server: Stack, world: dict[str, Any]) -> None:
    pages = [
        "/", "/matches/", "/leaderboards/", "/leaderboards/zack/", f"/u/{world['player']}/", "/tournaments/",
        f"/tournaments/{world['tournament']}/", f"/tables/{world['table']}/", f"/matches/{world['match']}/replay/",
        *(f"/games/{slug}/rules/" for slug in ("zack", "zwicker", "zigzag", "smackit")),
        "/login/", "/signup/",
    ]
    page = new_page(browser, server, **PHONE)
    problems: list[str] = []
    for lang in ("de", "fr"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": server.url()}])
        never = [re.compile(p) for p in [*NEVER, *NEVER_BY_LANG[lang]]]
        for path in pages:
            page.goto(path)
            page.wait_for_selector(f"html[lang={lang}]", state="attached")
            page.wait_for_load_state("networkidle")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > 390:
                problems.append(f"{lang} {path}: {width} px wide")
            # the lists (matches, leaderboards, standings, tournaments, tables) are read whole, not scrolled sideways
            wide = page.evaluate("""() => [...document.querySelectorAll("table.stack")]
              .filter((t) => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > 390.5)
              .map((t) => `${t.dataset.testid || t.id}: ${t.scrollWidth} px`)""")
            problems += [f"{lang} {path}: list {w}" for w in wide]
            text = visible_text(page)
            for pattern in never:
                for m in pattern.finditer(text):
                    problems.append(f"{lang} {path}: {m.group(0)!r} in …{text[max(0, m.start() - 40):m.end() + 40]!r}…")
            if path in ("/matches/", "/leaderboards/zack/", f"/tournaments/{world['tournament']}/"):
                screenshot(page, f"walk-{lang}-{path.strip('/').replace('/', '-')}")
        # each language named in itself, whatever the page's language
        names = page.locator("[data-testid=language] option").all_inner_texts()
        assert names == LANGUAGE_NAMES, names
    assert problems == [], "\n".join(problems[:30])
    assert not page.errors, page.errors
    page.context.close()


def test_the_top_bar_is_one_row_on_a_phone_and_its_menu_unfolds(browser: Any, server: Stack) -> None:
    page = new_page(browser, server, **PHONE)
    page.goto("/leaderboards/")
    bar = page.locator(".topbar")
    assert bar.bounding_box()["height"] <= 60, bar.bounding_box()
    expect(page.locator("[data-testid=nav-tournaments]")).to_be_hidden()
    page.click("[data-testid=menu-toggle]")
    expect(page.locator("[data-testid=menu-toggle]")).to_have_attribute("aria-expanded", "true")
    page.click("[data-testid=nav-tournaments]")
    page.wait_for_url("**/tournaments/")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert not page.errors, page.errors
    page.context.close()


def test_a_finished_tournament_ends_on_its_winner_and_its_table_leads_back(browser: Any, server: Stack, world: dict[str, Any]) -> None:
    """The podium is drawn from the page's payload: the test hands the page the payload of a finished tournament
    (the live one is still being played by its bots), as the server sends it when the last table ends."""
    tid = world["tournament"]
    page = new_page(browser, server, **PHONE)

    def finished(route: Any) -> None:
        response = route.fetch()
        html = response.text()
        found = re.search(r'(<script id="tournament-data" type="application/json">)(.*?)(</script>)', html, re.S)
        data = json.loads(found.group(2))
        data["status"] = "finished"
        for rank, row in enumerate(data["standings"], 1):
            row.update(rank=rank, points=4 - rank, played=1)
        html = html.replace(found.group(0), found.group(1) + json.dumps(data).replace("<", "\\u003c") + found.group(3))
        route.fulfill(response=response, body=html)

    page.route(re.compile(rf".*/tournaments/{tid}/$"), finished)
    page.goto(f"/tournaments/{tid}/")
    first = page.locator("[data-testid=standings] tbody tr").first.get_attribute("data-testid").removeprefix("standing-")
    expect(page.locator("[data-testid=t-winner]")).to_contain_text(first)
    expect(page.locator("[data-testid=podium-1]")).to_contain_text(first)
    expect(page.locator("[data-testid=podium-3]")).to_be_visible()
    expect(page.locator("[data-testid=t-organiser]")).to_have_text("walk-organiser")
    expect(page.locator("[data-testid=conn-status]")).to_be_hidden()  # not "finished · live"
    ratings = page.locator("[data-testid=standings] [data-testid=rating]").all_inner_texts()
    assert ratings and all(re.fullmatch(r"\d{3,4}", r) for r in ratings), ratings  # the friendly scale
    screenshot(page, "tournament-finished")
    page.unroute(re.compile(rf".*/tournaments/{tid}/$"))

    page.goto(f"/tables/{world['table']}/")
    expect(page.locator("[data-testid=tournament-link]")).to_have_attribute("href", f"/tournaments/{tid}/")
    assert not page.errors, page.errors
    page.context.close()
