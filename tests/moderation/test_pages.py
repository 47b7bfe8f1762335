"""The moderators' desk page and the notices players see."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from moderation.models import ModerationAction, Report
from moderation.services import fair_play_review
from tests.games.factories import user
from tests.moderation.factories import staff
from tests.replays.factories import finished_match

pytestmark = pytest.mark.django_db


def logged_in(u: User) -> Client:
    c = Client()
    c.force_login(u)
    return c




def scripted_match(cheater: User, other: User) -> None:
    events = [{"t_ms": 0, "kind": "dealt", "seat": None, "data": {"first": 0}}]
    events += [
        {"t_ms": 100 * i, "kind": "race_claimed", "seat": 0, "data": {"claim": {"seat": 0, "reaction_ms": 10 + i % 15}, "comp_ms": [25, 0]}}
        for i in range(30)
    ]
    finished_match("zwicker", [cheater, other], [1, 2], events=events)


def test_the_desk_is_for_staff_and_shows_the_queue_with_evidence_and_replays() -> None:
    cheater, ada = user("cheater"), user("ada")
    scripted_match(cheater, ada)
    fair_play_review(user_id=cheater.pk)
    Report.objects.create(reporter=ada, reported=cheater, reason="cheating", text="inhumanly fast")
    assert Client().get("/moderation/").status_code == 302  # to the log-in page
    assert logged_in(ada).get("/moderation/").status_code == 403
    page = logged_in(staff()).get("/moderation/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-username="cheater"' in html and "inhumanly fast" in html
    assert 'data-testid="reaction-histogram"' in html and 'data-testid="evidence-replay"' in html
    assert "/replay/" in html and "median reaction faster than a person" in html


def test_an_action_from_the_desk_is_kept_and_the_player_sees_it() -> None:
    bea = user("bea")
    mod = staff()
    r = logged_in(mod).post("/moderation/", {"username": "bea", "action": "warn", "note": "mind your words"})
    assert r.status_code == 302
    taken = ModerationAction.objects.get()
    assert (taken.user, taken.action, taken.by, taken.note) == (bea, "warn", mod, "mind your words")
    lobby = logged_in(bea).get("/").content.decode()
    assert 'data-testid="moderation-notice"' in lobby and "mind your words" in lobby
    assert 'data-testid="moderation-notice"' not in logged_in(user("cy")).get("/").content.decode()


def test_a_refused_action_from_the_desk_says_why() -> None:
    mod = staff()
    r = logged_in(mod).post("/moderation/", {"username": "nobody", "action": "warn"}, follow=True)
    assert r.status_code == 200 and not ModerationAction.objects.exists()
    assert "no player" in r.content.decode()


def test_the_desk_in_german_and_french() -> None:
    mod = staff()
    for lang, word in (("de", "Moderation"), ("fr", "Modération")):
        c = logged_in(mod)
        c.cookies["django_language"] = lang
        html = c.get("/moderation/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert f'lang="{lang}"' in html and word in html
