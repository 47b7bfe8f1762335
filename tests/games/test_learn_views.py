"""The guided first match page: every game has one, in every language, its data as JSON; the lobby offers it."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.first_hour.learning import lesson
from games.kit.registry import public_slugs
from games.models import Match, MatchPlayer
from tests.games.factories import user


def _page(lang: str, slug: str) -> tuple[int, str]:
    with translation.override("en"):
        page = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/games/{slug}/learn/")
    return page.status_code, page.content.decode()


def _data(html: str) -> dict:
    found = re.search(r'<script id="learn-data" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page's data is a json_script"
    return json.loads(found.group(1))


@pytest.mark.parametrize("slug", ["zack", "smackit", "zwicker", "zigzag"])
def test_every_game_has_a_guided_match_page_drawn_by_its_renderer(db: None, slug: str) -> None:
    assert slug in public_slugs()
    status, html = _page("en", slug)
    assert status == 200
    data = _data(html)
    assert data["rendererUrl"].endswith(f"games/{slug}/table.js")
    assert [s["view"] for s in data["steps"]] == [f["view"] for f in lesson(slug)]
    assert data["steps"][0]["prompt"] == lesson(slug)[0]["prompt"]
    assert 'src="/static/platform/learn.js"' in html


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_lesson_speaks_the_readers_language(db: None, lang: str) -> None:
    for slug in ("zack", "smackit", "zwicker", "zigzag"):
        status, html = _page(lang, slug)
        assert status == 200 and f'<html lang="{lang}">' in html
        for english, shown in zip(lesson(slug), _data(html)["steps"], strict=True):
            assert shown["prompt"] != english["prompt"], (slug, english["prompt"])
            assert not english["wrong"] or shown["wrong"] != english["wrong"], (slug, english["wrong"])


def test_an_unknown_game_has_no_lesson(db: None) -> None:
    assert Client().get("/games/chess/learn/").status_code == 404


def test_the_lobby_offers_the_lessons_until_the_first_finished_match(db: None) -> None:
    assert 'data-testid="learn-banner"' in Client().get("/").content.decode()
    newcomer = user("newcomer")
    client = Client()
    client.force_login(newcomer)
    html = client.get("/").content.decode()
    assert 'data-testid="learn-banner"' in html and 'data-testid="learn-zack"' in html
    match = Match.objects.create(game="zack", seats=3, seed="x", status=Match.Status.FINISHED, started_at=timezone.now())
    MatchPlayer.objects.create(match=match, seat=0, user=newcomer, place=1)
    html = client.get("/").content.decode()
    assert 'data-testid="learn-banner"' not in html
    assert 'data-testid="learn-zack"' in html  # every game card keeps its link
