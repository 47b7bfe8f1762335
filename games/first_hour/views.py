"""The guided first match page (`/games/<slug>/learn/`, PROTOCOL.md "Pages and operations"). Thin.

The frames come from `games.first_hour.learning.lesson` (the game's scripted match,
folded through its rules); this view only translates the words, names the
seats and hands everything to the page as JSON (no inline script).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext

from games.first_hour.learning import lesson, script_of
from games.kit.registry import get_rules, public_slugs
from games.models import MatchPlayer


def lesson_offered(*, user: Any) -> bool:
    """Whether the lobby offers the guided first matches: to visitors and to accounts with no finished match."""
    if not user.is_authenticated:
        return True
    return not MatchPlayer.objects.filter(user=user, match__status="finished").exists()


def learn(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in public_slugs():
        raise Http404("no such game")
    try:
        script = script_of(slug)
    except (ImportError, AttributeError):
        raise Http404("this game has no guided match yet") from None
    me = request.user.username if request.user.is_authenticated else gettext("Guest")
    players = [
        {"seat": s, "username": me if s == script.seat else name, "bot": s != script.seat}
        for s, name in enumerate(script.names)
    ]
    steps = [
        {**f, "prompt": gettext(f["prompt"]), "wrong": gettext(f["wrong"]) if f["wrong"] else ""}
        for f in lesson(slug)
    ]
    data = {
        "game": slug,
        "seat": script.seat,
        "players": players,
        "rendererUrl": static(f"games/{slug}/table.js"),
        "steps": steps,
    }
    return render(request, "games/learn.html", {"slug": slug, "game_name": get_rules(slug).name, "data": data})
