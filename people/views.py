"""The friends page: who you follow (online, where they play, watch in one click), challenges and their
answers, blocks, and a challenge form. Thin: people.selectors reads, the page's script writes via the API."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from people import selectors


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    from games.kit.registry import get_rules, public_slugs

    games = [{"slug": s, "name": get_rules(s).name, "min": get_rules(s).min_seats, "max": get_rules(s).max_seats} for s in public_slugs()]
    mine = selectors.challenges_of(user=request.user)
    names = {g["slug"]: g["name"] for g in games}
    for c in mine["received"] + mine["sent"]:
        c["game_name"] = names.get(c["game"], c["game"])
    return render(request, "people/friends.html", {
        "following": selectors.following(user=request.user),
        "blocks": selectors.blocks(user=request.user),
        "received": mine["received"],
        "sent": mine["sent"],
        "games": games,
        "challenge_to": request.GET.get("challenge", "")[:150],
    })
