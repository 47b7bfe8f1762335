"""Table chat: stored, then sent to the table's sockets after the commit."""

from __future__ import annotations

import logging

from django.conf import settings

from accounts.models import User
from games import errors, hooks
from games.models import (
    ChatMessage,
    Table,
)
from live import bus, wire

log = logging.getLogger(__name__)


def chat_post(*, table_id: int, user: User, text: str) -> ChatMessage:
    from django.core.cache import cache

    if not isinstance(text, str) or not text.strip():
        raise errors.bad_request("a chat message needs text", "bad_message")
    if wire.text_problem(text) is not None:  # stored as text and broadcast: refused here, whoever calls
        raise errors.bad_request(f"chat text contains {wire.text_problem(text)}", "bad_message")
    text = text.strip()
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise errors.bad_request(f"at most {settings.CHAT_MAX_LENGTH} characters", "too_long")
    key = f"chat-rate:{user.pk}"
    cache.add(key, 0, 10)
    try:
        count = cache.incr(key)
    except ValueError:
        cache.set(key, 1, 10)
        count = 1
    if count > settings.CHAT_MAX_PER_10S:
        raise errors.PlatformError("rate_limited", "you are sending messages too fast", 429)
    if not Table.objects.filter(pk=table_id).exists():
        raise errors.not_found("no such table")
    refused = hooks.chat_refusal(user.pk)
    if refused:
        raise errors.forbidden(refused, "muted")
    message = ChatMessage.objects.create(table_id=table_id, user=user, text=text)
    bus.chat(table_id, {"user": user.username, "text": text, "at": message.created_at.isoformat()})
    return message
