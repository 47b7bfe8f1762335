"""Pages: match history (all, per player, per game; filterable) and the replay viewer."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework import serializers

from games import errors
from games.kit.registry import get_rules, public_slugs
from games.models import Match
from replays import selectors
from web.query import QuerySerializer, query_params

PAGE_SIZE = 30


def _game_names() -> dict[str, str]:
    return {slug: get_rules(slug).name for slug in public_slugs()}


class HistoryFilters(QuerySerializer):
    """The page's filters (its form sends every field: blank means all). `page` is read leniently by
    Paginator.get_page (a bad one shows the first or the last page)."""

    game = serializers.ChoiceField(choices=public_slugs(), required=False, allow_blank=True)
    player = serializers.CharField(required=False, allow_blank=True, max_length=150)
    status = serializers.ChoiceField(choices=Match.Status.values, required=False, allow_blank=True)
    page = serializers.CharField(required=False, allow_blank=True, max_length=200)


def history(request: HttpRequest) -> HttpResponse:
    """`/matches/?game=&player=&status=`: the per-game and per-player histories are this page filtered."""
    names = _game_names()
    try:
        q = query_params(request, HistoryFilters)
    except errors.PlatformError:
        raise Http404("unknown filter") from None
    game, player, status = q.get("game") or None, q.get("player") or None, q.get("status") or None
    page = Paginator(selectors.match_list(game=game, player=player, status=status), PAGE_SIZE).get_page(q.get("page"))
    for m in page.object_list:
        m.game_name = names.get(m.game, m.game)
    return render(
        request,
        "replays/history.html",
        {
            "page": page,
            "game": game,
            "game_name": names.get(game or ""),
            "player": player,
            "status": status,
            "games": sorted(names.items(), key=lambda item: item[1]),
        },
    )


def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        match = selectors.match_get(match_id=match_id)
    except errors.PlatformError:
        raise Http404("no such match") from None
    try:  # the page shows what the API would: nothing of a deal another table still plays
        selectors.check_perspective(match=match, perspective="spectator", seat=None, user=request.user)
    except errors.PlatformError as e:
        context = {"match": match, "game_name": get_rules(match.game).name}
        return render(request, "replays/replay_closed.html", context, status=e.status)
    summary = selectors.match_summary(match)
    return render(
        request,
        "replays/replay.html",
        {"match": match, "summary": summary, "game_name": get_rules(match.game).name},
    )
