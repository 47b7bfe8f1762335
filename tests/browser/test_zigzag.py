"""ZIGZAG in a real browser with three bots: open, exchange, sign, announce, see the score sheet change.

The bots play in real time with human delays (easy bots score a first
manche in about 7 s of match time), so every step waits on what the screen
shows and is retried when the table moved on under it (a new manche asks for
a new opening; a centre card can be taken first). A long tour timer keeps the
tours from ending under the test; the test passes to let them end instead.
"""

from __future__ import annotations

import os
import random
import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    SHOTS,
    axe_violations,
    create_bot_table,
    describe_all,
    moment,
    screenshot,
    seat_players,
    sign_up,
)

pytestmark = [pytest.mark.browser]

ME, PARTNER, OPPONENTS = 0, 2, (1, 3)
HAND = "[data-testid=hand] [data-testid^=hand-]"
DONE = "[data-testid=score-sheet] td.zigzag-done"
TEAM_COMBO = {
    ("none", "zig"): "zig",
    ("none", "zag"): "zag",
    ("zig", "zig"): "double_zig",
    ("zig", "zag"): "zigzag",
    ("zag", "zig"): "zigzag",
    ("zag", "zag"): "double_zag",
}


def _ids(page: Any, selector: str) -> list[int]:
    names = page.locator(selector).evaluate_all("ns => ns.map((n) => n.dataset.testid)")
    return [int(n.rsplit("-", 1)[1]) for n in names]


def _try_click(page: Any, selector: str) -> bool:
    """Click unless the element went away (a bot took the card, a new manche was dealt): the caller retries."""
    try:
        page.click(selector, timeout=2_000)
        return True
    except PlaywrightTimeout:
        return False


def _opened(page: Any) -> bool:
    return page.locator("[data-testid=pass]").count() > 0


OPENED = """() => !!document.querySelector("[data-testid=pass]") && !document.querySelector("[data-testid=my-starting]")
  && document.querySelectorAll("[data-testid=hand] [data-testid^=hand-]").length === 4"""
"""Opened: Pass is offered, my starting card is in my hand (no longer beside it), I hold four cards."""


def _open(page: Any) -> None:
    """Click a hand card, then Open (again when a new manche was dealt meanwhile)."""
    deadline = time.monotonic() + 20
    while not _opened(page) and time.monotonic() < deadline:
        if page.locator(f"{HAND}.zigzag-selected").count() == 0 and not _try_click(page, f"{HAND} >> nth=0"):
            continue
        if not _try_click(page, "[data-testid=open]"):
            continue  # the selection went with a new deal: select again
        try:
            page.wait_for_function(OPENED, timeout=3_000)
        except PlaywrightTimeout:
            continue
    assert _opened(page), "could not open"


def _exchange(page: Any) -> None:
    """Click a hand card, then a centre card: the centre card comes to my hand, mine goes to the centre."""
    deadline = time.monotonic() + 25
    while time.monotonic() < deadline:
        _open(page)
        give = _ids(page, HAND)[-1]
        centre = _ids(page, "[data-testid=centre] [data-testid^=centre-]")
        if not centre:
            try:
                page.wait_for_selector("[data-testid=centre] [data-testid^=centre-]", timeout=3_000)
            except PlaywrightTimeout:
                pass
            continue
        take = centre[0]
        if not (_try_click(page, f"[data-testid=hand-{give}]") and _try_click(page, f"[data-testid=centre-{take}]")):
            continue
        try:
            page.wait_for_function(
                "([g, t]) => !!document.querySelector(`[data-testid=hand] [data-testid=hand-${t}]`)"
                " && !document.querySelector(`[data-testid=hand] [data-testid=hand-${g}]`)",
                arg=[give, take],
                timeout=3_000,
            )
            return
        except PlaywrightTimeout:
            continue  # a bot took that card first ("gone"), or the manche ended: try again
    raise AssertionError("no exchange went through")


def _check_sign_secrecy(page: Any, spectator: Any) -> None:
    """Opponents' signs show that one was made, never which; a spectator never sees any content."""
    badges = page.locator(", ".join(f"[data-testid=sign-{s}]" for s in OPPONENTS))
    shown = badges.evaluate_all("ns => ns.map((n) => [n.dataset.sign || null, n.textContent])")
    assert all(sign is None and not re.search(r"ZIG|ZAG", text) for sign, text in shown), shown
    assert spectator.locator("[data-sign]").count() == 0


def _manche(page: Any) -> int:
    return int(re.search(r"Deal (\d+)", page.locator(".zigzag-title").inner_text()).group(1))


def _sign(page: Any, spectator: Any) -> None:
    """Sign ZIG: my screen says so; a spectator sees that I made a sign, not which.

    Retried (twice at most) only because a manche the bots end meanwhile clears every sign.
    """
    for _ in range(3):
        page.click("[data-testid=sign-zig]")
        try:
            page.wait_for_selector("[data-testid=my-sign][data-sign=zig]", timeout=3_000)
            spectator.wait_for_selector("[data-testid=sign-0]:text-is('made a sign')", timeout=3_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("my sign never showed")


def _announcement(page: Any) -> str:
    """What my hand and my partner's fresh sign make (ZIG when there is no sign: probably false)."""
    mine = page.get_attribute("[data-testid=hand-class]", "data-class")
    signs = page.locator(f"[data-testid=sign-{PARTNER}][data-sign]:not([data-stale])").evaluate_all(
        "ns => ns.map((n) => n.dataset.sign)"
    )
    theirs = signs[0] if signs else None
    return TEAM_COMBO.get((mine, theirs), "zig")


def test_open_exchange_sign_announce_and_see_the_score_sheet_change(page: Any, browser: Any, server: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 1000})
    sign_up(page, "zazie")
    # easy bots play slowly enough for each step; the long tour timer never ends a tour under the test
    # the beginner help names my hand's class (the test reads it to announce); off by default
    table_id = create_bot_table(page, "zigzag", 4, "easy", {"tour_seconds": 600, "hand_hint": True})
    spectator = browser.new_context(base_url=server.url(), locale="en-GB").new_page()
    spectator.goto(f"/tables/{table_id}/")
    spectator.wait_for_selector("[data-testid=player-0]")
    page.wait_for_selector(HAND)
    expect(page.locator("[data-testid=tour-timer]")).to_have_text(re.compile(r"^\d+:\d\d left$"))
    # bots of one level share an account: a repeated name carries its seat, so the three are told apart
    bots = [page.locator(f"[data-testid=player-{s}] .zigzag-name").inner_text() for s in (1, 2, 3)]
    assert len(set(bots)) == 3 and all("-bot" in b for b in bots), bots
    accounts = [b.split(" #")[0] for b in bots]
    assert all(b.endswith(f" #{s}") == (accounts.count(a) > 1) for s, a, b in zip((1, 2, 3), accounts, bots, strict=True)), bots
    expect(page.locator(f"[data-testid=player-{PARTNER}]")).to_contain_text("partner")
    done_before = page.locator(DONE).count()

    _open(page)
    page.screenshot(path="/tmp/zigzag-opened.png", full_page=True)
    _exchange(page)

    _sign(page, spectator)
    _check_sign_secrecy(page, spectator)
    page.screenshot(path="/tmp/zigzag-signed.png", full_page=True)
    spectator.screenshot(path="/tmp/zigzag-spectator.png", full_page=True)

    # Announce what my hand and my partner's sign make; the screen shows the verdict either way.
    before = set(_ids(page, HAND))
    page.click(f"[data-testid=announce-{_announcement(page)}]")
    verdict = page.locator("[data-testid=feedback] li", has_text="(you) announces").first
    expect(verdict).to_contain_text(re.compile(r": correct!|false"))
    if "correct!" in verdict.inner_text():
        expect(page.locator(f"[data-testid=sheet-team-0] {DONE.split()[-1]}")).not_to_have_count(0)
    else:  # a false announcement replaces both partners' hands: four new cards, my sign is gone
        expect(verdict).to_contain_text("both hands are replaced")
        page.wait_for_function(
            "(old) => { const ids = [...document.querySelectorAll('[data-testid=hand] [data-testid^=hand-]')]"
            ".map((n) => Number(n.dataset.testid.split('-')[1])); return ids.length === 4 && ids.every((i) => !old.includes(i)); }",
            arg=sorted(before),
        )
        expect(page.locator("[data-testid=my-sign]")).to_have_count(0)
    page.screenshot(path="/tmp/zigzag-announced.png", full_page=True)

    # Play on (open, pass, announce what the partner's sign makes) until a combination reaches the sheet.
    seen_live = page.locator(DONE).count() == done_before  # else it changed during the steps above
    deadline = time.monotonic() + 60
    while page.locator(DONE).count() == done_before and time.monotonic() < deadline:
        _check_sign_secrecy(page, spectator)
        if not _opened(page):
            _open(page)
        elif page.locator(f"[data-testid=sign-{PARTNER}][data-sign]:not([data-stale])").count():
            _try_click(page, f"[data-testid=announce-{_announcement(page)}]")
        elif page.locator("[data-testid=pass]:enabled").count():
            _try_click(page, "[data-testid=pass]:enabled")
        try:
            page.locator(DONE).nth(done_before).wait_for(timeout=2_000)
        except PlaywrightTimeout:
            pass
    assert page.locator(DONE).count() > done_before, "no combination was scored in time"
    cell = page.locator(DONE).first
    expect(cell).to_have_text(re.compile(r"^✓"))
    team, combo = re.match(r"sheet-(\d)-(\w+)", cell.get_attribute("data-testid")).groups()
    if seen_live:  # the announcement and both partners' hands are on screen for a while
        names = {"zig": "ZIG", "zag": "ZAG", "double_zig": "Double ZIG", "zigzag": "ZIGZAG"}
        scored = re.compile(rf"correct! \S+ Team {int(team) + 1} scores {names[combo]}\.")
        expect(page.locator("[data-testid=feedback]")).to_contain_text(scored)
        expect(page.locator("[data-testid=reveal] h3")).to_contain_text(scored)
        expect(page.locator("[data-testid=reveal] .zigzag-card")).to_have_count(8)
    assert _manche(page) >= 2  # a scored combination ends the manche: a new one is dealt
    expect(spectator.locator(f"[data-testid=sheet-{team}-{combo}]")).to_have_text(re.compile(r"^✓"))
    page.screenshot(path="/tmp/zigzag.png", full_page=True)
    spectator.context.close()


def _mount(
    page: Any, view: dict[str, Any], players: list[dict[str, Any]], seat: int | None = None, capture: bool = False
) -> None:
    """Draw `view` with the ZIGZAG renderer: as the replay page does (ctx.send null), or with
    `capture` as a live seat whose actions collect in `window.sent` instead of a socket."""
    page.goto("/")
    page.evaluate(
        """async ([view, players, seat, capture]) => {
          const link = document.createElement("link");
          link.rel = "stylesheet"; link.href = "/static/games/zigzag/table.css";
          document.head.append(link);
          await new Promise((ok) => { link.onload = ok; link.onerror = ok; });
          const root = document.createElement("div");
          (document.querySelector("main") || document.body).replaceChildren(root);
          const mod = await import("/static/games/zigzag/table.js");
          window.sent = [];
          const send = capture ? (a) => window.sent.push(a) : null;
          window.renderer = mod.createRenderer(root, { seat, lang: "en", send, players });
          window.renderer.update(view, []);
        }""",
        [view, players, seat, capture],
    )


def test_replay_everything_view_and_event_sentences(page: Any) -> None:
    from games.engine import fold_all
    from games.kit.registry import get_bot
    from games.zigzag.rules import RULES
    from tests.support.simulate import harness_of, play_bots, play_random

    # Random play for a busy moment and every kind of move; a bot match (random matches seldom end) for the end.
    report = play_random(harness_of("zigzag"), 4, 23, max_actions=3000, options={"signals_seen": True}, check=False)
    whole = play_bots(RULES, get_bot("zigzag"), ["hard", "easy", "normal", "easy"], 1, options={"signals_seen": True})
    assert whole.outcome is not None
    chosen = moment(
        RULES,
        report.log,
        lambda s: not s["finished"] and any(s["signals"]) and any(c is not None for c in s["starting"]) and s["centre"],
        last=True,
    )
    assert chosen is not None, "no moment with a sign, an untaken starting card and a centre in this random match"
    k, state = chosen
    players = seat_players(4)
    view = RULES.view_all(state)
    _mount(page, view, players)
    expect(page.locator("[data-testid=xray-note]")).to_be_visible()
    for s in range(4):  # every hand face up, the starting card too while untaken, and the class
        panel = page.locator(f"[data-testid=player-{s}]")
        expect(panel.locator(".zigzag-backs .zigzag-card:not(.zigzag-back)")).to_have_count(
            4 + (state["starting"][s] is not None)
        )
        expect(panel.locator(f"[data-testid=class-{s}]")).to_have_text(
            {"none": "no combination", "zig": "ZIG in hand", "zag": "ZAG in hand"}[view["hand_classes"][s]]
        )
        sig = state["signals"][s]
        if sig is not None:
            expect(panel.locator(f"[data-testid=sign-{s}]")).to_have_attribute("data-sign", sig["sign"])
    for t, held in enumerate(view["team_combos"]):
        expect(page.locator(f"[data-testid=sheet-{t}-now]")).to_have_text(
            "holds nothing" if held is None else re.compile(r"^holds (ZIG|ZAG|Double ZIG|ZIGZAG|Double ZAG)$")
        )
    expect(page.locator("[data-testid=open], [data-testid=pass], [data-testid^=announce-]")).to_have_count(0)
    page.screenshot(path="/tmp/zigzag-all.png", full_page=True)

    # The spectator's replay of the same moment keeps the hands face down.
    _mount(page, RULES.view(state, None), players)
    expect(page.locator(".zigzag-backs .zigzag-card:not(.zigzag-back)")).to_have_count(0)
    expect(page.locator("[data-testid=xray-note]")).to_have_count(0)

    # The end: every hand face up for everyone, the places, and who won.
    final = fold_all(RULES, whole.log)
    _mount(page, RULES.view(final, None), players)
    winner = final["outcome"]["winners"][0] % 2
    expect(page.locator("[data-testid=finished]")).to_have_text(re.compile(rf"Match over — \S+ Team {winner + 1} wins!"))
    expect(page.locator(f"[data-testid=sheet-team-{winner}] td").last).to_have_text("1")
    expect(page.locator(".zigzag-backs .zigzag-card:not(.zigzag-back):not(.zigzag-starting)")).to_have_count(16)

    # The replay's event list: one sentence per event in each language, every kind of the match.
    log = report.log + whole.log
    events = [dict(RULES.redact(e, None) or {"kind": None}, seq=i + 1, t_ms=100 * i) for i, e in enumerate(log)]
    events = [e for e in events if e["kind"]] + [dict(e, seq=i + 1, t_ms=100 * i) for i, e in enumerate(log)]

    texts = describe_all(page, "zigzag", events, players)  # each language from a page loaded in it
    kinds = {e["kind"] for e in events}
    assert {
        "dealt",
        "tour_started",
        "timer",
        "opened",
        "exchanged",
        "passed",
        "signalled",
        "announced",
        "countered",
        "stopped",
        "z_played",
        "hands_replaced",
        "reshuffled",
        "tour_ended",
        "manche_ended",
        "finished",
    } <= kinds
    for lang, lines in texts.items():
        assert len(lines) == len(events)
        for e, line in zip(events, lines, strict=True):
            assert line and "undefined" not in line and "{" not in line and "NaN" not in line, (lang, e["kind"], line)
            assert line.endswith("."), (lang, e["kind"], line)  # a sentence, not the bare kind
    for i, e in enumerate(events):
        if e["kind"] == "signalled" and e["seat"] is not None:
            en = texts["en"][i]
            assert f"player{e['seat']}" in en and f"player{e['data']['partner']}" in en
            assert ("ZIG" in en or "ZAG" in en) == ("sign" in e["data"]), en  # content only where the event carries it
        if e["kind"] == "announced":
            assert ("correct" in texts["en"][i]) == e["data"]["correct"]
            assert ("richtig" in texts["de"][i]) == e["data"]["correct"]
            assert ("correct" in texts["fr"][i]) == e["data"]["correct"]


def test_clicks_send_open_exchange_stop_and_z_with_their_targets(page: Any) -> None:
    """The renderer's click flows in Chromium, on a hand-built table (actions are captured, not sent)."""
    from games.zigzag.rules import RULES
    from tests.games.zigzag.zigzag_helpers import NONE_A, NONE_B, NONE_C, NONE_D, STOP_L, Z1, open_all, table

    hand = [NONE_A[0], STOP_L, Z1, NONE_A[3]]
    state = table([hand, NONE_B, NONE_C, NONE_D])
    players = [{"seat": s, "username": f"p{s}", "bot": s > 0} for s in range(4)]

    def sent() -> list[dict[str, Any]]:
        return page.evaluate("window.sent.splice(0)")

    _mount(page, RULES.view(state, 0), players, seat=0, capture=True)
    expect(page.locator("[data-testid=open]")).to_be_disabled()
    page.click(f"[data-testid=hand-{hand[0]}]")
    page.click("[data-testid=open]")
    assert sent() == [{"kind": "open", "card": hand[0]}]

    state = open_all(state)
    centre = state["centre"]
    _mount(page, RULES.view(state, 0), players, seat=0, capture=True)
    # exchange: a hand card, then a centre card
    page.click(f"[data-testid=hand-{hand[3]}]")
    page.click(f"[data-testid=centre-{centre[1]}]")
    assert sent() == [{"kind": "exchange", "give": hand[3], "take": centre[1]}]
    # a STOP: then an opponent (only opponents are offered), then the centre card to take
    page.click(f"[data-testid=hand-{STOP_L}]")
    expect(page.locator("[data-testid=hint]")).to_contain_text("or first a player to play your STOP")
    expect(page.locator(".zigzag-seat.zigzag-targetable")).to_have_count(2)
    page.click("[data-testid=player-2]")  # my partner: not a target, nothing happens
    page.click("[data-testid=player-3]")
    expect(page.locator("[data-testid=player-3].zigzag-target")).to_have_count(1)
    page.click(f"[data-testid=centre-{centre[2]}]")
    assert sent() == [{"kind": "stop", "card": STOP_L, "target": 3, "take": centre[2]}]
    # a Z for my partner, chosen with its button
    page.click(f"[data-testid=hand-{Z1}]")
    page.click("[data-testid=target-2]")
    page.click(f"[data-testid=centre-{centre[0]}]")
    assert sent() == [{"kind": "z", "card": Z1, "target": 2, "take": centre[0]}]
    # a STOP may simply be exchanged away: select it, then a centre card
    page.click(f"[data-testid=hand-{STOP_L}]")
    page.click(f"[data-testid=centre-{centre[3]}]")
    assert sent() == [{"kind": "exchange", "give": STOP_L, "take": centre[3]}]
    # keys: sign, pass, announce button, counter button
    page.keyboard.press("s")
    page.click("[data-testid=pass]")
    page.click("[data-testid=announce-zigzag]")
    page.click("[data-testid=counter-1]")
    assert sent() == [
        {"kind": "signal", "sign": "zig"},
        {"kind": "pass"},
        {"kind": "announce", "combo": "zigzag"},
        {"kind": "counter", "team": 1},
    ]


def test_at_a_secret_table_a_sign_waits_for_the_next_move_and_a_made_double_zag_is_greyed_out(page: Any) -> None:
    """Option signals_seen off: a sign cannot be sent alone (rules: `signs_ride`), the renderer lets it ride on a move."""
    from games.zigzag.rules import RULES
    from tests.games.zigzag.zigzag_helpers import NONE_A, NONE_B, NONE_C, NONE_D, STOP_L, act, open_all, table

    hand = [NONE_A[0], STOP_L, NONE_A[2], NONE_A[3]]
    state = open_all(
        table([hand, NONE_B, NONE_C, NONE_D], options={"signals_seen": False}, scored={0: ["zag"]}, bonus={0: ["zag"]})
    )
    centre = state["centre"]
    players = [{"seat": s, "username": f"p{s}", "bot": s > 0} for s in range(4)]

    def sent() -> list[dict[str, Any]]:
        return page.evaluate("window.sent.splice(0)")

    _mount(page, RULES.view(state, 0), players, seat=0, capture=True)
    expect(page.locator("[data-testid=announce-double_zag]")).to_be_disabled()  # made once: a second one is false
    expect(page.locator("[data-testid=fills]")).to_be_disabled()
    expect(page.locator("[data-testid=announce-zigzag]")).to_be_enabled()
    page.click("[data-testid=sign-zig]")
    assert sent() == []  # nothing leaves alone
    expect(page.locator("[data-testid=armed-sign]")).to_have_attribute("data-sign", "zig")
    expect(page.locator("[data-testid=sign-zig]")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("d")  # another sign replaces it; pressing it again takes it back
    expect(page.locator("[data-testid=armed-sign]")).to_have_attribute("data-sign", "zag")
    page.keyboard.press("d")
    expect(page.locator("[data-testid=armed-sign]")).to_have_count(0)
    page.keyboard.press("s")
    # the exchange carries it; a refused move keeps it armed, so the next move carries it again
    page.click(f"[data-testid=hand-{hand[3]}]")
    page.click(f"[data-testid=centre-{centre[1]}]")
    assert sent() == [{"kind": "exchange", "give": hand[3], "take": centre[1], "sign": "zig"}]
    page.click(f"[data-testid=hand-{STOP_L}]")
    page.click("[data-testid=player-3]")
    page.click(f"[data-testid=centre-{centre[2]}]")
    assert sent() == [{"kind": "stop", "card": STOP_L, "target": 3, "take": centre[2], "sign": "zig"}]
    # once the view shows my sign made, nothing more rides: the pass goes bare
    _, after = act(state, 0, {"kind": "exchange", "give": hand[3], "take": centre[1], "sign": "zig"})
    page.evaluate("(v) => window.renderer.update(v, [])", RULES.view(after, 0))
    expect(page.locator("[data-testid=armed-sign]")).to_have_count(0)
    expect(page.locator("[data-testid=my-sign]")).to_have_attribute("data-sign", "zig")
    expect(page.locator("[data-testid=my-sign]")).not_to_have_attribute("data-stale", "1")  # it describes this hand
    page.click("[data-testid=pass]")
    assert sent() == [{"kind": "pass"}]
    # my partner's screen: the sign, as new as my hand; an opponent's: no trace of it
    _mount(page, RULES.view(after, 2), players, seat=2, capture=True)
    expect(page.locator("[data-testid=sign-0]")).to_have_attribute("data-sign", "zig")
    expect(page.locator("[data-testid=sign-0]")).not_to_have_attribute("data-stale", "1")
    _mount(page, RULES.view(after, 1), players, seat=1, capture=True)
    expect(page.locator("[data-testid^=sign-]:not(button)")).to_have_count(0)


def test_scored_combinations_are_off_and_the_hand_class_is_beginner_help_only(page: Any) -> None:
    """A combination already on the sheet cannot be announced again (it would be false, a penalty);
    the class of my own hand shows only with the beginner option `hand_hint`."""
    from games.zigzag.rules import RULES
    from tests.games.zigzag.zigzag_helpers import NONE_B, NONE_C, NONE_D, ZIG_PINK, open_all, table

    players = [{"seat": s, "username": f"p{s}", "bot": s > 0} for s in range(4)]
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D], scored={0: ["zig", "double_zig"], 1: ["zag"]}))
    _mount(page, RULES.view(state, 0), players, seat=0, capture=True)
    for combo in ("zig", "double_zig"):  # my team scored them: off, ticked as on the sheet, with the reason
        button = page.locator(f"[data-testid=announce-{combo}]")
        expect(button).to_be_disabled()
        expect(button).to_have_text(re.compile(r"^✓ "))
        expect(button).to_have_attribute("title", re.compile("already scored"))
        expect(page.locator(f"[data-testid=sheet-0-{combo}]")).to_have_text("✓")
    for combo in ("zag", "zigzag", "double_zag"):  # the other team's ZAG is not mine
        expect(page.locator(f"[data-testid=announce-{combo}]")).to_be_enabled()
    page.click("[data-testid=announce-zig]", force=True)  # even a forced click on a disabled button sends nothing
    page.click("[data-testid=announce-zigzag]")
    assert page.evaluate("window.sent.splice(0)") == [{"kind": "announce", "combo": "zigzag"}]
    # no beginner help: my hand (a ZIG) is not classed for me, by the rules' view nor on screen
    assert RULES.view(state, 0)["hand_class"] is None
    expect(page.locator("[data-testid=hand-class]")).to_have_count(0)
    expect(page.locator(".zigzag-mine h3")).not_to_contain_text("ZIG")
    _look(page, "zigzag-scored-buttons")
    # with it: named
    hinted = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D], options={"hand_hint": True}))
    _mount(page, RULES.view(hinted, 0), players, seat=0, capture=True)
    expect(page.locator("[data-testid=hand-class]")).to_have_attribute("data-class", "zig")
    expect(page.locator("[data-testid=hand-class]")).to_have_text("ZIG in hand")


def test_a_take_being_judged_shows_its_card_contested(page: Any) -> None:
    """Fair races: while a take is judged the card stays in the centre, "judging…" for the claimer, "claimed" for others."""
    from games.engine import Timing
    from games.zigzag.rules import RULES
    from tests.games.zigzag.zigzag_helpers import NONE_B, NONE_C, NONE_D, ZIG_PINK, open_all, table

    players = [{"seat": s, "username": f"p{s}", "bot": s > 0} for s in range(4)]
    state = open_all(table([ZIG_PINK, NONE_B, NONE_C, NONE_D]))
    take = NONE_D[0]
    action = {"kind": "exchange", "give": state["hands"][1][1], "take": take}
    events = RULES.decide(state, 1, action, 2000, random.Random(0), timing=Timing(2000, 2000, (0, 0, 0, 120)))
    assert [e["kind"] for e in events] == ["race_claimed", "timer"]
    for e in events:
        state = RULES.fold(state, e)
    _mount(page, RULES.view(state, 1), players, seat=1, capture=True)
    expect(page.locator(f"[data-testid=contested-{take}]")).to_have_text("judging…")
    expect(page.locator(f"[data-testid=centre-{take}]")).to_have_attribute("data-contested", "1")
    _look(page, "zigzag-contested")
    _mount(page, RULES.view(state, 2), players, seat=2, capture=True)
    expect(page.locator(f"[data-testid=contested-{take}]")).to_have_text("claimed")
    # seat 3 was faster (judged 1930): seat 1 is told, keeps its cards, the card goes to seat 3
    late = {"kind": "exchange", "give": state["hands"][3][1], "take": take}
    settled = RULES.decide(state, 3, late, 2050, random.Random(0), timing=Timing(2050, 1930, (0, 0, 0, 120)))
    for e in settled:
        state = RULES.fold(state, e)
    _mount(page, RULES.view(state, 1), players, seat=1, capture=True)
    page.evaluate("([v, es]) => window.renderer.update(v, es)", [RULES.view(state, 1), [RULES.redact(e, 1) for e in settled]])
    expect(page.locator("[data-testid=feedback]")).to_contain_text("p3 was quicker")
    expect(page.locator("[data-testid^=contested-]")).to_have_count(0)
    # the replay's sentences for a race's events
    race_events = [dict(e, seq=i + 1, t_ms=2000) for i, e in enumerate([events[0], *settled]) if e["kind"].startswith("race_")]
    lines = page.evaluate(
        "async ([es, ps]) => { const m = await import('/static/games/zigzag/table.js'); return es.map((e) => m.describeEvent(e, ps)); }",
        [race_events, players],
    )
    assert lines[0].startswith("p1 reaches for ") and lines[0].endswith("(1000 ms after it came).")
    assert lines[-1].startswith("p3 wins the race for ") and lines[-1].endswith("(2 claims).")


def _look(page: Any, name: str) -> None:
    """Screenshots at desktop and phone size (test artefacts) and no serious axe violation at either."""
    for size in (DESKTOP["viewport"], PHONE["viewport"]):
        page.set_viewport_size(size)
        screenshot(page, name)
        assert not axe_violations(page), (name, size, axe_violations(page))


BROKEN_WORDS = """() => {
  // every word of the score sheet drawn on one line: a word whose letters lie on two lines was broken inside it
  const out = [];
  const sheet = document.querySelector("[data-testid=score-sheet]");
  const walker = document.createTreeWalker(sheet, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""


def test_the_score_sheet_keeps_its_words_whole_on_a_phone(phone: Any) -> None:
    """At 390 px the sheet's heads, team names and "holds …" cells wrap between words, never inside one, in every
    language; at a live table it fits its box; the replay's busier sheet (what each team holds now, the places)
    scrolls inside its own box, never the page."""
    from games.engine import fold_all
    from games.kit.registry import get_bot
    from games.zigzag.rules import RULES
    from tests.browser.conftest import mount_renderer
    from tests.support.simulate import play_bots

    whole = play_bots(RULES, get_bot("zigzag"), ["hard", "easy", "normal", "easy"], 1, options={"signals_seen": True})
    final = fold_all(RULES, whole.log)
    live = next(
        s for s in (fold_all(RULES, whole.log[:k]) for k in range(len(whole.log) // 2, len(whole.log))) if any(s["scored"])
    )
    players = [{"seat": s, "username": n, "bot": s > 0} for s, n in enumerate(["margarethe", "Nora-bot", "Cleo-bot", "Mila-bot"])]
    os.makedirs(SHOTS, exist_ok=True)
    views = {"live": RULES.view(live, 0), "finished": RULES.view(final, 0), "replay": RULES.view_all(final)}
    for lang in ("en", "de", "fr"):
        for name, view in views.items():
            mount_renderer(phone, "zigzag", view, players, lang)
            phone.wait_for_selector("[data-testid=score-sheet] table")
            assert phone.evaluate(BROKEN_WORDS) == [], (lang, name)
            width, box, inner = phone.evaluate(
                """() => { const s = document.querySelector(".zigzag-sheet-scroll");
                  return [document.documentElement.scrollWidth, s.clientWidth, s.scrollWidth]; }"""
            )
            assert width <= 390, (lang, name, width)
            if name != "replay":
                assert inner <= box, (lang, name, inner, box)  # a live table's sheet is read whole, not scrolled
            phone.locator("[data-testid=score-sheet]").screenshot(path=f"{SHOTS}/zigzag-sheet-{lang}-{name}-390.png")
    assert (
        phone.locator(".zigzag-sheet-scroll[tabindex='0'][role=region]").count() == 1
    )  # its scrolled part is reachable by keyboard
    assert axe_violations(phone) == []
