"""Every page under a strict Content-Security-Policy: scripts from the site's files only, none inline.

Before: no page sent a Content-Security-Policy, and the lobby, table, replay, tournament and
profile pages configured their scripts inline (`<script>window.X = ...</script>`), the language
picker and the invite link with `on*` attributes: one injected script would have run.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import get_resolver
from django.urls.resolvers import URLResolver

from accounts.models import User
from games.kit.registry import public_slugs
from games.models import Match
from games.services.tables import table_create
from moderation.services import moderation_action_take
from tests.games.factories import started_table, user
from tests.moderation.factories import staff
from tests.tournaments.factories import bot_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.core]

PASSWORD = "correct horse 42"
# Not pages: files, probes, redirects, the relay, and a link's landing that answers by redirecting.
NOT_PAGES = {
    "favicon.ico", "i18n/setlang/", "jsi18n/", "health/ready/", "metrics", "health/", "internal/relay/", "logout/",
    "tournaments/<int:tournament_id>/standings.csv",
}


class Scripts(HTMLParser):
    """Inline scripts (no src, not JSON data) and on* attributes of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.handlers: list[str] = []
        self.scripts = 0
        self._in_inline = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        self.handlers += [f"<{tag} {k}>" for k in names if k.lower().startswith("on")]
        self.handlers += [f"<{tag} {k}=javascript:>" for k, v in names.items() if v and v.strip().lower().startswith("javascript:")]
        if tag == "script":
            self.scripts += 1
            self._in_inline = "src" not in names and names.get("type") != "application/json"
            if self._in_inline:
                self.inline.append("")

    def handle_data(self, data: str) -> None:
        if self._in_inline:
            self.inline[-1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_inline = False


def page_paths() -> set[str]:
    def walk(patterns: Any, prefix: str = "") -> Any:
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            else:
                yield prefix + str(p.pattern)

    return {p for p in walk(get_resolver().url_patterns) if not p.startswith(("api/", "admin/")) and p not in NOT_PAGES}


def world() -> dict[str, str]:
    """A player with a finished rated match, an open table, a tournament, a staff account."""
    host = user("csphost")
    host.set_password(PASSWORD)
    host.is_staff = True
    host.save()
    table, match, _ = started_table(players=2)
    Match.objects.filter(pk=match.pk).update(status="finished")
    open_table = table_create(host=host, game="tiny", seats=2)
    tournament = bot_tournament("swiss", bots=3, by=host)
    moderation_action_take(by=staff(), username=user("warned").username, action="warn")
    game = sorted(public_slugs())[0]
    return {
        "<int:match_id>": str(match.pk), "<int:table_id>": str(open_table.pk), "<int:tournament_id>": str(tournament.pk),
        "<str:username>": "csphost", "<str:slug>": game, "<slug:slug>": game, "<str:code>": open_table.invite_code or "x",
        "<str:uid>": "MQ", "<str:token>": "bad-token",
    }


def url(path: str, fill: dict[str, str]) -> str:
    for k, v in fill.items():
        path = path.replace(k, v)
    return "/" + path


@pytest.mark.parametrize("signed_in", [False, True])
def test_every_page_has_a_strict_policy_and_no_inline_script(signed_in: bool) -> None:
    fill = world()
    client = Client()
    if signed_in:
        client.force_login(User.objects.get(username="csphost"))
    walked = 0
    for path in sorted(page_paths()):
        r = client.get(url(path, fill), follow=True)
        assert r.status_code in (200, 400, 403, 404), (path, r.status_code)
        policy = r.headers.get("Content-Security-Policy", "")
        script_src = next((d for d in policy.split(";") if d.strip().startswith("script-src")), "")
        assert script_src.split() == ["script-src", "'self'"], (path, policy)
        if "text/html" not in r.headers.get("Content-Type", ""):
            continue
        parsed = Scripts()
        parsed.feed(r.content.decode())
        assert parsed.inline == [] and parsed.handlers == [], (path, parsed.inline[:1], parsed.handlers)
        walked += 1
    assert walked >= 20


def test_the_api_docs_every_games_pages_and_an_error_page_keep_to_it_too(client: Client) -> None:
    games = [f"/games/{slug}/{page}/" for slug in sorted(public_slugs()) for page in ("rules", "learn")]
    for path in ("/api/docs/", "/no-such-page/", *games):
        r = client.get(path)
        assert r.headers["Content-Security-Policy"].startswith("default-src 'self'; script-src 'self';")
        parsed = Scripts()
        parsed.feed(r.content.decode())
        assert parsed.inline == [] and parsed.handlers == [], (path, parsed.inline[:1])
