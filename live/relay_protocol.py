"""What may cross the embedded default's channel relay, and how a relayed message is sealed.

The relay (live/relay_layer.py → live/relay_endpoint.py) hands the Celery worker's
group messages to the one web process that holds the in-memory channel layer. A message
that arrives there is delivered to sockets as if the platform had sent it, so the
receiving end trusts nothing in it that it did not check:

- the body is sealed with an HMAC under a key derived from SECRET_KEY (Django's
  `salted_hmac`, salt `RELAY_SALT`), and carries the time it was sealed and a random
  nonce, so a captured body cannot be played again (`Replays`);
- the message is one the platform itself sends (live/broadcast.py, tournaments'
  `send_group`), to the kind of group it sends it to, with exactly its fields and
  their types (`message_problem`). `websocket.close`, `websocket.send` or any other
  type a consumer or the server would act on never passes.

Add a type here when the platform starts sending a new group message from a worker.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from django.utils.crypto import salted_hmac

RELAY_SALT = "live.relay_protocol.channel-relay"
SIGNATURE_HEADER = "X-Relay-Signature"
MAX_AGE_S = 60.0  # a body older (or further in the future) than this is refused
MAX_BODY_BYTES = 2 * 1024 * 1024  # below DATA_UPLOAD_MAX_MEMORY_SIZE; a match state is a few kB

_ID = r"[1-9][0-9]{0,18}"
TABLE_GROUP = re.compile(rf"table-({_ID})")
LOBBY_GROUP = re.compile(r"lobby")
TOURNAMENT_GROUP = re.compile(rf"tournament-({_ID})")
PLAYER_GROUP = re.compile(rf"tournament-player-({_ID})")


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


def _any_state(value: Any) -> bool:
    """A match state is whatever the game's rules fold to (games/engine.py `State`); the consumer reads it."""
    return True


def _is_events(value: Any) -> bool:
    """Stored events of one commit: a non-empty run of consecutive seqs, each with a kind."""
    if not isinstance(value, list) or not value:
        return False
    if not all(isinstance(e, dict) and _is_id(e.get("seq")) and isinstance(e.get("kind"), str) for e in value):
        return False
    return [e["seq"] for e in value] == list(range(value[0]["seq"], value[0]["seq"] + len(value)))


def _is_player(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("seat"), int)
        and not isinstance(value.get("seat"), bool)
        and isinstance(value.get("username"), str)
        and isinstance(value.get("bot"), bool)
    )


def _is_table(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and _is_id(value.get("id"))
        and isinstance(value.get("players"), list)
        and all(_is_player(p) for p in value["players"])
        and (value.get("match") is None or _is_id(value.get("match")))
    )


def _is_chat(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"user", "text", "at"}
        and all(isinstance(value[k], str) for k in ("user", "text", "at"))
    )


Check = Callable[[Any], bool]

# type → (the groups it goes to, its fields and their checks). Mirrors live/broadcast.py
# (match.events, table.changed, chat.message, lobby.table, lobby.removed) and
# tournaments/services.py (tournament.changed, tournament.seated).
MESSAGES: dict[str, tuple[re.Pattern[str], dict[str, Check]]] = {
    "match.events": (TABLE_GROUP, {"match": _is_id, "events": _is_events, "state": _any_state}),
    "table.changed": (TABLE_GROUP, {"table": _is_table}),
    "chat.message": (TABLE_GROUP, {"message": _is_chat}),
    "lobby.table": (LOBBY_GROUP, {"table": _is_table}),
    "lobby.removed": (LOBBY_GROUP, {"table_id": _is_id}),
    "tournament.changed": (TOURNAMENT_GROUP, {"tournament": _is_object}),
    "tournament.seated": (PLAYER_GROUP, {"seated": _is_object}),
}


def message_problem(group: Any, message: Any) -> str | None:
    """Why this group message may not be relayed, or None when it is one the platform sends."""
    if not isinstance(group, str) or not isinstance(message, dict):
        return "a relayed message is a group name and an object"
    kind = message.get("type")
    spec = MESSAGES.get(kind) if isinstance(kind, str) else None
    if spec is None:
        return f"message type {kind!r} is not relayed"
    groups, fields = spec
    match = groups.fullmatch(group)
    if match is None:
        return f"{kind} does not go to group {group!r}"
    if set(message) != {"type", *fields}:
        return f"{kind} has the fields {sorted(fields)}"
    bad = [name for name, check in fields.items() if not check(message[name])]
    if bad:
        return f"{kind}: bad {', '.join(bad)}"
    if groups is TABLE_GROUP and kind == "table.changed" and message["table"]["id"] != int(match.group(1)):
        return "table.changed names another table than its group"
    return None


# --- sealing -------------------------------------------------------------------------


def sign(body: bytes) -> str:
    return salted_hmac(RELAY_SALT, body, algorithm="sha256").hexdigest()


def seal(group: str, message: dict[str, Any]) -> tuple[bytes, str]:
    """The body to POST and its signature."""
    envelope = {"group": group, "message": message, "sent_at": time.time(), "nonce": secrets.token_hex(16)}
    body = json.dumps(envelope, separators=(",", ":")).encode()
    return body, sign(body)


class Replays:
    """Nonces of the bodies taken within the last MAX_AGE_S (older bodies are refused by their time)."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._order: deque[tuple[float, str]] = deque()
        self._lock = threading.Lock()

    def first_time(self, nonce: str, now: float) -> bool:
        with self._lock:
            while self._order and now - self._order[0][0] > 2 * MAX_AGE_S:
                self._seen.discard(self._order.popleft()[1])
            if nonce in self._seen:
                return False
            self._seen.add(nonce)
            self._order.append((now, nonce))
            return True


def open_sealed(body: bytes, signature: str, replays: Replays, now: float | None = None) -> tuple[str, dict[str, Any]]:
    """The group and message of a sealed body; ValueError (with the reason) when it must be refused.

    The signature is checked first, over the raw bytes, before anything is parsed.
    """
    if len(body) > MAX_BODY_BYTES:
        raise ValueError("body too large")
    if not hmac.compare_digest(signature.encode(), sign(body).encode()):
        raise ValueError("bad signature")
    envelope = json.loads(body)
    if not isinstance(envelope, dict) or set(envelope) != {"group", "message", "sent_at", "nonce"}:
        raise ValueError("bad envelope")
    now = time.time() if now is None else now
    sent_at, nonce = envelope["sent_at"], envelope["nonce"]
    if not isinstance(sent_at, int | float) or isinstance(sent_at, bool) or not abs(now - sent_at) <= MAX_AGE_S:  # NaN too
        raise ValueError("stale or future message")
    if not isinstance(nonce, str) or not 16 <= len(nonce) <= 64 or not replays.first_time(nonce, now):
        raise ValueError("replayed message")
    problem = message_problem(envelope["group"], envelope["message"])
    if problem is not None:
        raise ValueError(problem)
    return envelope["group"], envelope["message"]
