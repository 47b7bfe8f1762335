"""`{% moderation_notices as notices %}`: the actions moderators took on the viewer lately (the base page shows them)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.utils import timezone

from moderation.models import ModerationAction

register = template.Library()

NOTICE_DAYS = 14


@register.simple_tag(takes_context=True)
def moderation_notices(context: dict[str, Any]) -> list[ModerationAction]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return []
    since = timezone.now() - dt.timedelta(days=NOTICE_DAYS)
    return list(ModerationAction.objects.filter(user=user, created_at__gte=since).order_by("-id")[:3])


@register.filter
def action_label(action: str) -> str:
    """An action's name in the page's language."""
    from moderation.views import action_labels

    return action_labels().get(action, action)
