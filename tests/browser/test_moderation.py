"""The moderators' desk in a real browser (desktop and 390x844): queue, evidence, replay link, an action;
a report sent from a replay's report button. Screenshots in test-results/screenshots/ and axe-clean."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, axe_violations, new_page, screenshot
from tests.integration.stack import Stack

pytestmark = [pytest.mark.browser]

PASSWORD = "correct horse 42"

SETUP = """
from accounts.models import User
from games.models import Match, MatchEvent, MatchPlayer
from django.utils import timezone
from moderation.models import Report
from moderation.services import fair_play_review
mod = User.objects.create_user("desk-mod", password="%(pw)s", is_staff=True)
fast = User.objects.create_user("fast-fingers", password="%(pw)s")
victim = User.objects.create_user("desk-victim", password="%(pw)s")
now = timezone.now()
import random
from games.kit.registry import get_rules
deal = get_rules("zwicker").setup(2, {}, random.Random(1))  # a real deal: the replay draws it
m = Match.objects.create(game="zwicker", seats=2, options={}, ranked=True, state=None, seq=len(deal) + 30, status="finished",
    outcome={"placements": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}], "winners": [0]}, started_at=now, ended_at=now)
MatchPlayer.objects.create(match=m, seat=0, user=fast, place=1)
MatchPlayer.objects.create(match=m, seat=1, user=victim, place=2)
for n, e in enumerate(deal):
    MatchEvent.objects.create(match=m, seq=n + 1, t_ms=0, kind=e["kind"], seat=e["seat"], data=e["data"])
for i in range(30):
    MatchEvent.objects.create(match=m, seq=len(deal) + i + 1, t_ms=1000 * i, kind="race_claimed", seat=0,
        data={"race": "snap:%%d" %% i, "claim": {"seat": 0, "reaction_ms": 9 + i %% 20}, "comp_ms": [28, 60]})
fair_play_review(user_id=fast.pk)
Report.objects.create(reporter=victim, reported=fast, reason="cheating", match=m, text="snaps before the card shows")
print(m.pk)
"""


def log_in(page: Any, name: str) -> None:
    page.goto("/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("[data-testid=login-submit]")
    page.wait_for_url("**/")


def test_the_desk_shows_the_evidence_and_takes_an_action_on_desktop_and_phone(browser: Any, server: Stack) -> None:
    match_id = int(server.manage("shell", "-c", SETUP % {"pw": PASSWORD}).strip().splitlines()[-1])
    for name, context in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, server, **context)
        log_in(page, "desk-mod")
        if name == "phone":
            page.click("[data-testid=menu-toggle]")
        page.click("[data-testid=nav-moderation]")
        page.wait_for_selector("[data-testid=queue-entry][data-username=fast-fingers]")
        entry = page.locator("[data-testid=queue-entry][data-username=fast-fingers]")
        assert entry.locator("[data-testid=entry-flagged]").count() == 1
        assert "snaps before the card shows" in entry.inner_text()
        assert entry.locator("[data-testid=reaction-histogram] tr.fast").count() >= 2
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "no sideways scrolling"
        screenshot(page, f"moderation-desk-{name}")
        assert axe_violations(page) == []
        if name == "desktop":
            replay = entry.locator("[data-testid=evidence-replay]").first
            assert replay.get_attribute("href") == f"/matches/{match_id}/replay/"
        else:
            entry.locator("[data-testid=action-select]").select_option("warn")
            entry.locator("[data-testid=action-note]").fill("Play fair, please.")
            entry.locator("[data-testid=action-submit]").click()
            page.wait_for_selector("[data-testid=action-log] >> text=fast-fingers")
            screenshot(page, "moderation-desk-after-action")
        assert not page.errors, page.errors
        page.context.close()
    # the player sees the warning on the lobby, and may report from a replay's report button
    player = new_page(browser, server, **DESKTOP)
    log_in(player, "fast-fingers")
    assert "Play fair, please." in player.locator("[data-testid=moderation-notices]").inner_text()
    screenshot(player, "moderation-notice-lobby")
    victim = new_page(browser, server, **PHONE)
    log_in(victim, "desk-victim")
    victim.goto(f"/matches/{match_id}/replay/")
    victim.click("[data-testid=report-button]")
    victim.wait_for_selector("[data-testid=report-dialog][open]")
    victim.select_option("[data-testid=report-dialog-reason]", "abuse")
    screenshot(victim, "report-dialog-replay")
    assert axe_violations(victim) == []
    victim.click("[data-testid=report-dialog-send]")
    victim.wait_for_selector("[data-testid=report-dialog-status]:not(:empty)")
    assert "moderators" in victim.locator("[data-testid=report-dialog-status]").inner_text()  # sent (a second open report would be refused)
    assert not player.errors and not victim.errors, (player.errors, victim.errors)
    player.context.close()
    victim.context.close()
