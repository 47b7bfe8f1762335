"""A fifth game needs only its folder: Tally (tests/support/testgame/), registered by this test alone, is
offered in the lobby, created through the API, played over the table socket on the real routing, read back
through the replay and statistics APIs, and speaks its own words; nothing outside its folder names it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from rest_framework.test import APIClient

from accounts.services import token_for
from config.asgi import application
from games.kit import registry
from tests.conftest import run_jobs
from tests.games.factories import user
from tests.support import testgame

ROOT = Path(settings.BASE_DIR)
SLUGS = (*registry.INSTALLED, testgame.SLUG)


@pytest.fixture
def tally() -> Iterator[None]:
    testgame.register()
    yield
    testgame.unregister()


def api(name: str) -> tuple[APIClient, str]:
    token = token_for(user=user(name))
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return c, token


async def socket(table_id: int, token: str) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/?token={token}")
    connected, _ = await comm.connect()
    assert connected
    hello = await comm.receive_json_from(timeout=5)
    assert hello["type"] == "hello"
    return comm, hello


async def next_of(comm: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    while True:
        msg = await comm.receive_json_from(timeout=5)
        if msg["type"] == kind:
            return msg


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_tally_is_created_played_replayed_and_counted_through_the_platform(tally: None) -> None:
    (host, host_token), (guest, guest_token) = await database_sync_to_async(lambda: (api("tally-host"), api("tally-guest")))()

    def create_and_start() -> tuple[int, int]:
        r = host.post("/api/tables/", {"game": "tally", "seats": 2, "options": {"hand": 3}}, format="json")
        assert r.status_code == 201, r.json()
        tid = r.json()["id"]
        assert guest.post(f"/api/tables/{tid}/join/", {}, format="json").status_code == 200
        started = host.post(f"/api/tables/{tid}/start/", {}, format="json")
        assert started.status_code == 200, started.json()
        match = started.json()["match"]
        return tid, match["id"] if isinstance(match, dict) else match

    tid, match_id = await database_sync_to_async(create_and_start)()
    comms = {}
    views = {}
    for token in (host_token, guest_token):
        comm, hello = await socket(tid, token)
        comms[hello["seat"]] = comm
        views[hello["seat"]] = hello["view"]
    assert sorted(comms) == [0, 1]
    assert views[0]["hand"] and views[1]["hand"] and views[0]["hands"] is None  # the other hand is hidden

    # Tally's own refusal, in the player's language (its texts, found through the registry)
    turn = views[0]["turn"]
    await comms[turn].send_json_to({"type": "act", "id": "wrong", "action": {"kind": "play", "card": 999}})
    refused = await next_of(comms[turn], "error")
    assert refused["code"] == "rule" and refused["rule_code"] == "not_held"

    played = 0
    finished = False
    while not finished:
        view = views[turn]
        card = max(view["hand"])
        await comms[turn].send_json_to({"type": "act", "id": f"p{played}", "action": {"kind": "play", "card": card}})
        played += 1
        for seat, comm in comms.items():
            msg = await next_of(comm, "events")
            views[seat] = msg["view"]
        finished = views[0]["finished"]
        turn = views[0]["turn"]
    assert played == 6 and views[1]["hands"] is not None  # every hand face up at the end
    for comm in comms.values():
        await comm.disconnect()

    def read_back() -> None:
        run_jobs()  # the match's end: ratings and statistics
        match = host.get(f"/api/matches/{match_id}/").json()
        assert match["game"] == "tally" and match["status"] == "finished" and match["outcome"]["winners"]
        timeline = guest.get(f"/api/matches/{match_id}/timeline/?perspective=seat:1").json()
        dealt = timeline["events"][0]
        assert dealt["kind"] == "dealt" and dealt["data"]["hands"][0] == 3 and len(dealt["data"]["hands"][1]) == 3  # its redact
        everything = guest.get(f"/api/matches/{match_id}/timeline/?perspective=all").json()["events"][0]
        assert all(isinstance(h, list) for h in everything["data"]["hands"])  # a finished match opens to all
        assert [e["kind"] for e in timeline["events"]].count("played") == 6
        state = host.get(f"/api/matches/{match_id}/state/?at=1&perspective=seat:0").json()
        assert state["view"]["hand"] and state["view"]["counts"] == [3, 3]
        mine = host.get("/api/stats/players/tally-host/").json()
        assert mine["games"]["tally"]["played"] == 1 and mine["games"]["tally"]["plays"] == 3
        game = host.get("/api/stats/games/tally/").json()
        assert game["plays"] == 6

    await database_sync_to_async(read_back)()


@pytest.mark.django_db
def test_tally_has_its_lobby_card_option_words_renderer_and_table_page(tally: None) -> None:
    c = Client()
    c.force_login(user("tally-looker"))
    lobby = c.get("/").content.decode()
    assert 'data-testid="game-card-tally"' in lobby and 'data-testid="tally-picture"' in lobby
    assert "the highest total wins" in lobby and "Cards per hand" in lobby
    found = finders.find("games/tally/table.js")
    assert found and Path(found).is_relative_to(testgame.FOLDER)
    page = c.get("/games/tally/rules/")
    assert page.status_code == 200 and b"tally-help" in page.content and b"quickstart" in page.content


def test_a_registered_game_leaves_the_lobby_with_its_registration() -> None:
    assert testgame.SLUG not in registry.public_slugs()
    testgame.register()
    try:
        assert registry.public_slugs()[-1] == testgame.SLUG
    finally:
        testgame.unregister()
    assert testgame.SLUG not in registry.public_slugs() and registry.game_folder(testgame.SLUG) is None


# --- no platform file names a game ---------------------------------------------------------------------

PLATFORM_CODE = [
    *(p for app in ("games", "web", "live", "replays", "stats", "accounts", "tournaments", "matchmaking", "moderation", "people", "ops", "config")
      for p in (ROOT / app).rglob("*.py")
      if "migrations" not in p.parts and not (len(p.relative_to(ROOT).parts) > 2 and p.relative_to(ROOT).parts[1] in SLUGS)
      and "management" not in p.parts),  # benchmark commands pick a game to measure
]
PLATFORM_PAGES = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "static" / "platform").glob("*.js"), *(ROOT / "static" / "platform").glob("*.css")]
NAMED = re.compile(r"\b(" + "|".join(registry.INSTALLED) + r")\b")


def _python_strings_and_names(path: Path) -> list[str]:
    """String literals (docstrings aside) and identifiers of a module: what its code says, not its prose."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(n.body[0].value) for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
        and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)
    }
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings:
            out.append(n.value)
        elif isinstance(n, ast.Name):
            out.append(n.id)
        elif isinstance(n, ast.Attribute):
            out.append(n.attr)
    return out


def test_no_platform_code_names_a_game() -> None:
    """Python of the platform (its prose aside), its templates, scripts and styles: a game is found through the registry."""
    named = []
    for path in PLATFORM_CODE:
        named += [(str(path.relative_to(ROOT)), s) for s in _python_strings_and_names(path) if NAMED.search(s)]
    for path in PLATFORM_PAGES:
        text = re.sub(r"\{#.*?#\}|/\*.*?\*/|(?<![:\"'])//[^\n]*|<!--.*?-->", "", path.read_text(), flags=re.S)
        named += [(str(path.relative_to(ROOT)), m.group(0)) for m in NAMED.finditer(text)]
    assert named == [("games/kit/registry.py", s) for s in registry.INSTALLED]
