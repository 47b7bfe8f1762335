"""What a socket accepts and how it refuses: the one place for its input and error policy.

The consumers (games/socket/consumers.py) translate frames into service calls and
results into frames; what a frame must look like, how many a socket may send,
which refusal answers what and how a refusal reads live here. Bad input never
crashes a socket and never goes unanswered: every refusal is one `error` frame
(PROTOCOL.md "Live play"), naming the action's id where the frame had a usable one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from games import error_texts, errors
from games.services.actions import MAX_ACTION_ID, action_check
from live import socket_limits, wire


@dataclass(frozen=True)
class Refusal:
    """One `error` frame to answer with: `code`, the English `message` (localised on the way out)."""

    code: str
    message: str
    action_id: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, e: errors.PlatformError, action_id: Any = None) -> Refusal:
        """A service's refusal, with the rules' own code when the rules refused."""
        return cls(e.code, e.message, action_id, {"rule_code": e.rule_code} if e.rule_code else {})


SERVER_ERROR = Refusal("server_error", "the server could not handle this message; nothing was applied")
RATE_LIMITED = Refusal("rate_limited", "too many messages; slow down")


def error_frame(scope: dict[str, Any], refusal: Refusal) -> dict[str, Any]:
    """The `error` frame for a refusal, its message in the language of the page that opened the socket."""
    language = error_texts.socket_language(scope)
    message = error_texts.player_message(
        code=refusal.code, rule_code=refusal.extra.get("rule_code"), fallback=refusal.message, language=language
    )
    out: dict[str, Any] = {"type": "error", "code": refusal.code, "message": message}
    if isinstance(refusal.action_id, str):
        out["id"] = refusal.action_id
    out.update(refusal.extra)
    return out


def read_frame(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any] | Refusal:
    """A frame as a message object with a string `type` (live/wire.py: size, nesting, storable text, finite numbers)."""
    try:
        message = wire.loads(text_data if text_data is not None else bytes_data or b"", max_bytes=settings.WS_MAX_MESSAGE_BYTES)
    except wire.WireError as e:
        return Refusal("bad_message", e.message, e.message_id)
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return Refusal("bad_message", "a message is an object with a string `type`")
    return message


def read_only_reply(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    """A listen-only socket's answer (lobby, tournaments): `ping` gets `pong`, anything else `bad_message`."""
    try:
        message = wire.loads(text_data if text_data is not None else bytes_data or b"", max_bytes=settings.WS_MAX_MESSAGE_BYTES)
    except wire.WireError as e:
        return {"type": "error", "code": "bad_message", "message": e.message}
    if isinstance(message, dict) and message.get("type") == "ping":
        return {"type": "pong"}
    return {"type": "error", "code": "bad_message", "message": "this socket is read-only"}


class MessageBudget:
    """A socket's messages per second (WS_MAX_ACTIONS_PER_SECOND), a token bucket: bursts up to one second's worth.

    With the socket's scope, also the budgets its account and its address share across all their
    sockets on this process (WS_USER_MESSAGES_PER_SECOND, WS_ADDRESS_MESSAGES_PER_SECOND,
    live/socket_limits.py says why process-local): many sockets do not multiply one sender's rate.
    A message refused by any of them costs none of them.
    """

    def __init__(self, scope: dict[str, Any] | None = None) -> None:
        self.own = socket_limits.Bucket(settings.WS_MAX_ACTIONS_PER_SECOND)
        user = (scope or {}).get("user")
        user_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
        self.buckets = [self.own, *socket_limits.shared_buckets(user_id=user_id, address=(scope or {}).get("address", ""))]

    @property
    def rate(self) -> float:
        return self.own.rate

    def take(self) -> bool:
        return socket_limits.take(self.buckets)


def act_refusal(message: dict[str, Any], *, match_id: int | None, seat: int | None) -> Refusal | None:
    """Whether an `act` frame may go to the services at all: its shape (action_check), a match, a seat."""
    action_id, action = message.get("id"), message.get("action")
    try:  # the one shape check, here on the loop; the thread only applies
        action_check(action=action, action_id=action_id, id_required=True)
    except errors.PlatformError as e:
        valid_id = isinstance(action_id, str) and 0 < len(action_id) <= MAX_ACTION_ID
        return Refusal(e.code, e.message, action_id if valid_id else None)
    if match_id is None:
        return Refusal("no_match", "this table has no match yet", action_id)
    if seat is None:
        return Refusal("not_seated", "spectators cannot act", action_id)
    if "seat" in message and message["seat"] != seat:
        return Refusal("not_seated", "you can only act for your own seat", action_id)
    return None


def sync_refusal(message: dict[str, Any], *, match_id: int | None) -> Refusal | None:
    since = message.get("since")
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        return Refusal("bad_message", "`since` must be a whole number >= 0")
    if match_id is None:
        return Refusal("no_match", "this table has no match yet")
    return None


def chat_refusal(user: Any) -> Refusal | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return Refusal("not_authenticated", "log in to chat")
    return None


def pong_refusal(message: dict[str, Any]) -> Refusal | None:
    """A pong of no ping this socket awaits (forged, repeated, too late) is ignored; a malformed one is refused."""
    n = message.get("n")
    if isinstance(n, bool) or not isinstance(n, int):
        return Refusal("bad_message", "`n` must be the number of the ping answered")
    return None


def unknown_type(kind: str) -> Refusal:
    return Refusal("bad_message", f"unknown message type {kind!r}")
