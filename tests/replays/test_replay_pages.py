"""Match history pages (all, per player, per game; filters, links) and the replay page."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from accounts.services import bot_user
from games.kit.registry import get_rules
from games.services.matches import match_abort
from replays import views
from tests.games.factories import started_table
from tests.replays.replay_support import tiny_match

pytestmark = pytest.mark.django_db


def rows(html: str) -> list[int]:
    return [int(x) for x in re.findall(r'data-testid="match-row-(\d+)"', html)]


@pytest.fixture
def history() -> dict:
    _, zack, zack_players = started_table(players=3, game="zack")
    finished, (ann, _) = tiny_match(players=2, bots=1, finish=True)
    aborted, (cid, _) = tiny_match(players=2)
    match_abort(match_id=aborted.pk, by=cid)
    return {"zack": zack, "zack_player": zack_players[1], "finished": finished, "ann": ann, "aborted": aborted}


def test_history_lists_every_match_with_replay_and_profile_links(history: dict) -> None:
    html = Client().get("/matches/").content.decode()
    assert rows(html) == sorted((history[k].pk for k in ("zack", "finished", "aborted")), reverse=True)
    finished = history["finished"]
    assert f'href="/matches/{finished.pk}/replay/"' in html and "Watch replay" in html
    assert f'href="/matches/{history["zack"].pk}/replay/"' in html and "Watch live" in html  # live: follow it
    for p in finished.players.all():
        assert f'href="/u/{p.user.username}/"' in html
    assert f'href="/u/{bot_user(slug="tiny", level="normal").username}/"' in html


def test_history_per_player_and_per_game(history: dict) -> None:
    name = history["ann"].username
    page = Client().get(f"/matches/?player={name}").content.decode()
    assert rows(page) == [history["finished"].pk]
    assert f"Matches of {name}" in page and f'href="/u/{name}/"' in page
    page = Client().get("/matches/?game=zack").content.decode()
    assert rows(page) == [history["zack"].pk] and f"{get_rules('zack').name} matches" in page
    assert rows(Client().get(f"/matches/?game=zack&player={history['zack_player'].username}").content.decode()) == [history["zack"].pk]
    assert rows(Client().get(f"/matches/?game=zack&player={name}").content.decode()) == []
    assert rows(Client().get("/matches/?status=aborted").content.decode()) == [history["aborted"].pk]
    assert rows(Client().get("/matches/?status=finished").content.decode()) == [history["finished"].pk]
    assert rows(Client().get("/matches/?player=nobody-here").content.decode()) == []


def test_history_is_translated(history: dict) -> None:
    name = history["ann"].username
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/matches/?player={name}").content.decode()
    assert f"Partien von {name}" in page and "Wiederholung ansehen" in page
    page = Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/matches/?player={name}").content.decode()
    assert f"Parties de {name}" in page and "Revoir la partie" in page


def test_history_pages(history: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    first = Client().get("/matches/").content.decode()
    assert len(rows(first)) == 2 and 'data-testid="page-next"' in first and "Page 1 of 2" in first
    second = Client().get("/matches/?page=2").content.decode()
    assert len(rows(second)) == 1 and 'data-testid="page-previous"' in second
    assert set(rows(first)) | set(rows(second)) == {history[k].pk for k in ("zack", "finished", "aborted")}


@pytest.mark.parametrize("query", ["game=chess", "status=over", f"player={'x' * 151}"])
def test_history_unknown_filter_is_404(query: str) -> None:
    assert Client().get(f"/matches/?{query}").status_code == 404


def test_history_blank_filters_mean_all(history: dict) -> None:
    """The page's own form sends every field; blank ones filter nothing, a padded name is trimmed."""
    everything = rows(Client().get("/matches/").content.decode())
    assert rows(Client().get("/matches/?game=&player=&status=&page=").content.decode()) == everything
    name = history["ann"].username
    assert rows(Client().get(f"/matches/?player=%20{name}%20").content.decode()) == [history["finished"].pk]


def test_replay_page_carries_the_match_and_the_renderer(history: dict) -> None:
    match = history["zack"]
    r = Client().get(f"/matches/{match.pk}/replay/")
    html = r.content.decode()
    assert r.status_code == 200 and "platform/replay.js" in html and "games/zack/table.js" in html
    data = json.loads(re.search(r'<script id="match-data" type="application/json">(.*?)</script>', html, re.S).group(1))
    assert data["id"] == match.pk and data["status"] == "live" and len(data["seats"]) == 3
    assert Client().get("/matches/424242/replay/").status_code == 404
