"""`{% profile_actions player %}`: follow, challenge, block and report buttons on a player's profile,
and `{% pending_challenges %}`: how many challenges wait for the viewer's answer (the nav's badge)."""

from __future__ import annotations

from typing import Any

from django import template

from people import selectors

register = template.Library()


@register.inclusion_tag("people/_profile_actions.html", takes_context=True)
def profile_actions(context: dict[str, Any], player: Any) -> dict[str, Any]:
    request = context.get("request")
    viewer = getattr(request, "user", None)
    shown = viewer is not None and viewer.is_authenticated and viewer.pk != player.pk and not player.is_bot and player.is_active
    out: dict[str, Any] = {"shown": shown, "player": player, "request": request, "logged_in": bool(viewer and viewer.is_authenticated)}
    if shown:
        out["following"] = selectors.is_following(user=viewer, other=player)
        out["blocking"] = selectors.is_blocking(user=viewer, other=player)
    return out


@register.simple_tag(takes_context=True)
def pending_challenges(context: dict[str, Any]) -> int:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    return selectors.pending_count(user=user)
