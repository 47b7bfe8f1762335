"""Sessions end everywhere at once: each web process closes its own sockets of a user whose log-in ended.

PROTOCOL.md "Fair play": log-out, a revoked token, a password change and a deactivation close
every open socket of that user (close code 4401) on every web process within a second.

How. One process-wide group, `SESSIONS_GROUP`, that every web process listens on with one
channel of its own (not a group per socket or per user: a socket costs nothing here but an
entry in a dict). `end(user_id)` publishes `{"type": "session.end", "user": id}` to it after
the surrounding commit (nothing for a rollback); each process closes its sockets of that user
(`SessionSocket.session_end`, close code 4401). On the Redis pub/sub layer the group reaches
every process; on the embedded default the one web process is the group.

A message can be lost (Redis restarting, a process busy past the in-memory layer's expiry),
so each socket also keeps the credential it was opened with (a token key or a session key,
and the account's session auth hash, which a password change or a deactivation changes), and
every `SESSION_RECHECK_SECONDS` this process asks the domain, in one call for all its
sockets, which of them no longer hold (`check_with`, served at app ready: live never
imports the domain). A socket whose credential is gone is closed the same way; until then
the fan-out message is the fast path and the recheck the bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from channels.layers import get_channel_layer
from django.conf import settings

from live import broadcast
from live.loop import database_sync_to_async

log = logging.getLogger(__name__)

SESSIONS_GROUP = "live.sessions"
CLOSE_CODE = 4401
GROUP_RENEW_S = 600.0  # the in-memory layer forgets a group member after a day; renewed long before


@dataclass(frozen=True)
class Credential:
    """What a socket was opened with: `kind` "token" or "session", its `key`, the account's auth hash then."""

    user_id: int
    kind: str
    key: str
    auth_hash: str


class SessionSocket(Protocol):
    async def session_end(self) -> None: ...


# The domain's answer to "which of these credentials no longer hold" (accounts.selectors.credentials_gone).
CredentialsGone = Callable[[list[Credential]], set[Credential]]
_check: CredentialsGone | None = None

_by_user: dict[int, weakref.WeakKeyDictionary[SessionSocket, Credential]] = {}
_listener: tuple[asyncio.AbstractEventLoop, asyncio.Task[None]] | None = None
listener_channel: str | None = None  # this process's one channel in SESSIONS_GROUP (it outlives every socket)
ended = 0  # sockets this process closed because their session ended (a figure for /metrics and tests)


def check_with(check: CredentialsGone) -> None:
    global _check
    _check = check


def add(socket: SessionSocket, credential: Credential) -> None:
    """A socket of a signed-in user, open on this process; starts this loop's listener once."""
    _by_user.setdefault(credential.user_id, weakref.WeakKeyDictionary())[socket] = credential
    _listen()


def discard(user_id: int, socket: SessionSocket) -> None:
    sockets = _by_user.get(user_id)
    if sockets is not None:
        sockets.pop(socket, None)
        if not sockets:
            del _by_user[user_id]


def end(user_id: int) -> None:
    """Every socket of the user, on every web process, closes with 4401 after the surrounding commit."""
    broadcast.send_on_commit(SESSIONS_GROUP, {"type": "session.end", "user": int(user_id)})


async def close_here(user_id: int) -> int:
    """Close this process's sockets of the user; how many."""
    sockets = list(_by_user.pop(int(user_id), {}).keys())
    return await _close(sockets)


async def _close(sockets: Iterable[SessionSocket]) -> int:
    global ended
    n = 0
    for socket in sockets:
        try:
            await socket.session_end()
            n += 1
        except Exception:  # noqa: BLE001 - a socket already going; the others still close
            log.debug("closing an ended session's socket failed", exc_info=True)
    ended += n
    return n


def _listen() -> None:
    """One listener per event loop (tests run several loops; a server has one), and its recheck."""
    global _listener
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    if _listener is not None and _listener[0] is loop and not _listener[1].done():
        return
    _listener = (loop, loop.create_task(_run(), name="live-sessions"))


async def _run() -> None:
    """Read the group's messages; a receive is never cancelled (channels_redis forgets a channel whose reader is)."""
    layer = get_channel_layer()
    if layer is None:
        return
    global listener_channel
    channel = listener_channel = await layer.new_channel()
    await layer.group_add(SESSIONS_GROUP, channel)
    rechecking = asyncio.get_running_loop().create_task(_recheck_every(layer, channel), name="live-sessions-recheck")
    try:
        while True:
            message = await layer.receive(channel)
            if message.get("type") == "session.end":
                with contextlib.suppress(KeyError, TypeError, ValueError):
                    await close_here(int(message["user"]))
    except asyncio.CancelledError:
        raise
    except Exception:  # noqa: BLE001 - the listener restarts with the next socket; the recheck bounds the loss
        log.warning("the sessions listener stopped", exc_info=True)
    finally:
        rechecking.cancel()


async def _recheck_every(layer: Any, channel: str) -> None:
    recheck_s = float(settings.SESSION_RECHECK_SECONDS)
    joined = time.monotonic()
    while recheck_s > 0:
        await asyncio.sleep(recheck_s)
        await recheck()
        if time.monotonic() - joined > GROUP_RENEW_S:
            with contextlib.suppress(Exception):
                await layer.group_add(SESSIONS_GROUP, channel)
            joined = time.monotonic()


async def recheck() -> int:
    """Close this process's sockets whose credential no longer holds (one question to the domain); how many."""
    if _check is None or not _by_user:
        return 0
    held = [(socket, credential) for sockets in list(_by_user.values()) for socket, credential in list(sockets.items())]
    try:
        gone = await database_sync_to_async(_check)([c for _, c in held])
    except Exception:  # noqa: BLE001 - checked again next time
        log.warning("checking the sockets' sessions failed", exc_info=True)
        return 0
    stale = [socket for socket, credential in held if credential in gone]
    for socket, credential in held:
        if credential in gone:
            discard(credential.user_id, socket)
    return await _close(stale)


def count(user_id: int) -> int:
    sockets = _by_user.get(user_id)
    return 0 if sockets is None else len(sockets)
