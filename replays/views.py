"""Pages: match history (per player, per game) and the replay viewer."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games import errors
from games.registry import get_rules, public_slugs
from replays import selectors


def history(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game") or None
    player = request.GET.get("player") or None
    status = request.GET.get("status") or None
    if game not in (None, *public_slugs()) or status not in (None, "live", "finished", "aborted"):
        raise Http404("unknown filter")
    page = Paginator(selectors.match_list(game=game, player=player, status=status), 30).get_page(request.GET.get("page"))
    return render(
        request,
        "replays/history.html",
        {"page": page, "game": game, "player": player, "status": status, "games": public_slugs()},
    )


def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = selectors.match_get(match_id=match_id)
    except errors.PlatformError:
        raise Http404("no such match") from None
    summary = selectors.match_summary(match)
    return render(
        request,
        "replays/replay.html",
        {"match": match, "summary": summary, "game_name": get_rules(match.game).name},
    )
