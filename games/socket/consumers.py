"""The live table socket `ws/tables/<id>/` (PROTOCOL.md "Live play").

Thin: it authenticates, checks the message shape, calls services in a
thread and turns every outcome into exactly one answer. Each socket keeps
`last_seq` so its seqs are consecutive; a gap (group messages from several
processes can overtake each other) is filled from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import time
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.sessions import InstanceSessionWrapper
from django.conf import settings
from django.utils import timezone

from games import errors, selectors
from games.deals import deal_played_elsewhere
from games.kit.latency import RttEstimator
from games.kit.registry import get_rules
from games.models import Match, Table
from games.services.actions import SubmitResult, action_submit, action_submit_cached, now_ms
from games.services.chat import chat_post
from games.services.presence import presence_close, presence_open, presence_rtt_set, presence_rtt_set_async
from games.socket import policy, spectator_syncs
from live import async_db, eager, heartbeat, local_sockets, sessions, transport_rtt, wire
from live.broadcast import LOBBY_GROUP, table_group
from live.lean_queue import LeanQueue
from live.loop import database_sync_to_async
from live.sessions import Credential
from moderation.services import fair_play_rtt_inflated_record
from ops import metrics
from people.groups import user_group
from people.selectors import blocked_usernames_by

log = logging.getLogger(__name__)

SYNC_LIMIT = 500

# Fair races: the socket's round trip is measured with pings right after the hello, a few quickly so a
# race early in the match is already judged on an estimate, then every WS_PING_SECONDS (0: no pings).
PING_WARMUP = 3
PING_WARMUP_GAP_S = 0.3
_background: set[asyncio.Task[None]] = set()  # round-trip writes in flight (kept from the garbage collector)


def ping_seconds() -> float:
    return float(settings.WS_PING_SECONDS)


def session_free_send(send: Any) -> Any:
    """The send under Channels' session middleware, for a socket: that middleware only acts on HTTP responses.

    `InstanceSessionWrapper.send` saves the session and sets its cookie on `http.response.start`
    and passes every other message through; on the way it reads the lazy session's `modified` and
    `is_empty()` for each frame (a sixth of an idle socket's ping cost, py-spy, docs/performance.md).
    A WebSocket never sends that message, so its frames go straight to the
    server; a wrapper set to act on anything else is kept.
    """
    wrapper = getattr(send, "__self__", None)
    while isinstance(wrapper, InstanceSessionWrapper) and all(t.startswith("http.") for t in wrapper.save_message_types):
        send = wrapper.real_send
        wrapper = getattr(send, "__self__", None)
    return send


class PlatformConsumer(AsyncWebsocketConsumer):
    """Every socket of the platform: Channels' dispatch without its per-message thread hop.

    Channels' `AsyncConsumer.dispatch` runs `close_old_connections` through
    `sync_to_async` (the one shared sync thread) before *every* message: each
    frame and each group message of each socket queued behind one thread,
    0.2-1 ms each and a serial point for the whole process (12 % of daphne's
    busy time at one 3-seat table, docs/performance.md). Here no handler
    touches the database on the event loop: every database call goes through
    `DatabaseSyncToAsync`, which closes stale connections itself around each
    call, so the hop guards nothing and is skipped.
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await super().__call__(scope, receive, session_free_send(send))

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # --- sessions end everywhere (live/sessions.py) -------------------------------------

    session_gone = False  # the log-in this socket was opened with has ended: it sends and hears nothing more
    socket_kind = "other"  # its label in /metrics' cardtables_open_sockets (ops/metrics.py)
    counted_open = False
    credential: Credential | None = None

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        """Accepted; a signed-in socket is counted under its user, so the end of that log-in closes it (4401)."""
        await super().accept(subprotocol, headers)
        self.counted_open = True
        metrics.socket_opened(kind=self.socket_kind)
        credential = self.scope.get("credential")
        if isinstance(credential, Credential):
            self.credential = credential
            sessions.add(self, credential)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self.counted_open:
            self.counted_open = False
            metrics.socket_closed(kind=self.socket_kind)
        if self.credential is not None:
            sessions.discard(self.credential.user_id, self)
        await super().websocket_disconnect(message)

    async def session_end(self) -> None:
        """The user logged out, changed the password, lost the token or the account: close with 4401, see nothing more."""
        if self.session_gone:
            return
        self.session_gone = True
        await self.close(code=sessions.CLOSE_CODE)

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False) -> None:
        if self.session_gone:
            return  # nothing more reaches a socket whose session ended, even what was already on its way
        await super().send(text_data, bytes_data, close)


class TableConsumer(PlatformConsumer):
    socket_kind = "table"
    table_id: int
    seat: int | None
    match_id: int | None
    last_seq: int

    frames: LeanQueue[dict[str, Any]] | None = None  # daphne's input queue of this socket, when it is ours (live/lean_queue.py)
    channel_tapped = False  # the layer hands this socket's group messages to `_tap_channel` as they are put

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Channels' `AsyncConsumer.__call__`, without its reader tasks when both sources can be tapped.

        Channels' `await_many_dispatch` keeps a task per source (daphne's frames, the layer's
        channel) and `asyncio.wait`s over both, making a new task after every message: about
        4 KB of an idle socket and a task per group message (docs/performance.md). With
        daphne's `LeanQueue` and a layer that offers `tap_channel`, a frame and a group
        message go straight into the inbox as they are put (`_tap`, `_tap_channel`, set once
        the socket is accepted); this coroutine itself reads only what the taps decline: the
        connect, and the close, which comes behind every frame taken before it. On the way
        out the channel is forgotten, as the layer's cancelled reader would have done.
        Another layer (the embedded default's in-memory one) keeps Channels' loop.
        """
        queue = getattr(receive, "__self__", None)
        layer = None
        if isinstance(queue, LeanQueue):
            self.frames = queue
            layer = get_channel_layer(self.channel_layer_alias)
        if not hasattr(layer, "tap_channel"):
            await super().__call__(scope, receive, send)
            return
        self.scope = scope
        self.channel_layer = layer
        self.channel_name = await layer.new_channel()
        self.channel_receive = functools.partial(layer.receive, self.channel_name)
        self.base_send = session_free_send(send)
        self.channel_tapped = True
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        finally:
            await layer.forget_channel(self.channel_name)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.seat = None
        self.match_id = None
        self.last_seq = 0
        self.blind = False  # a watcher of a deal another table still plays sees nothing of it (games.deals)
        self.game = ""
        self.budget = policy.MessageBudget(self.scope)
        self.present_as: int | None = None  # the user this socket makes present at the table
        self.rtt = RttEstimator(unbounded_cap_ms=settings.RTT_UNBOUNDED_CAP_MS)
        # Fair play: the transport's round trip bounds the pongs' (live/transport_rtt.py); None: nothing vouches
        self.rtt_bound = transport_rtt.bound_source(
            transport_rtt.transport_of(self.base_send), self.scope.get("headers") or (),
            transport_rtt.trusted_networks(settings.TRUSTED_PROXIES),
        )
        self.rtt.bound_ms = None if self.rtt_bound is None else self.rtt_bound()
        self.pinger: asyncio.TimerHandle | None = None  # the next ping, while the socket is open
        self.pings_sent = 0
        self.match_started_at: Any = None
        self.received_at = time.monotonic()
        self.received_wall: Any = None
        hello = await self._hello()
        if hello is None:
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        if self.user is not None and getattr(self.user, "is_authenticated", False):
            await self._present()
        await self.accept()
        await self.send_json(hello)
        self.inbox = []
        if self.frames is not None:
            self.frames.set_tap(self._tap)
        if self.channel_tapped:
            self.channel_layer.tap_channel(self.channel_name, self._tap_channel)
        local_sockets.add(self.table_id, self)
        if ping_seconds() > 0:
            self._ping_due()

    # --- dispatch: everything in order, pongs timed on arrival -------------------------

    # Messages waiting, in arrival order, and the task that handles them one at a time: it exists
    # only while the inbox holds something (an idle socket holds neither a task nor a queue:
    # memory per socket, docs/performance.md).
    inbox: list[dict[str, Any]] | None = None
    inbox_worker: asyncio.Task[None] | None = None
    handling = False  # the inbox worker is handling a message (it may be awaiting inside it)
    closing = False  # disconnect has begun: no further ping is armed

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand every message to one worker task, in order, except a pong of ours: it is timed now.

        Channels reads a socket's next frame only once the previous message is
        handled, so a pong behind an action (a database round trip) would be
        timed late and a busy player would look far away. Here the frames are
        read as they come: a pong answering one of our pings is counted at
        once, everything else is handled exactly as before, one at a time in
        arrival order (the consecutive-seq guarantees rest on that), with the
        time it reached this process kept for a race claim.
        """
        kind = message.get("type")
        if self.inbox is None or kind == "websocket.connect":
            await super().dispatch(message)
            return
        if kind == "websocket.disconnect":
            self.closing = True
            if self.frames is not None:
                self.frames.set_tap(None)
            worker = self.inbox_worker
            if worker is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(worker), 10)  # what arrived before the close is handled
                worker.cancel()
            await super().dispatch(message)
            return
        if kind == "websocket.receive":
            self._arrived(message)
            return
        self._queue(message)

    def _tap(self, message: dict[str, Any]) -> bool:
        """daphne's frames as it reads them, before Channels' reader wakes (live/lean_queue.py): taken, True.

        Exactly what `dispatch` does with a frame, a turn of the loop and two tasks sooner: a pong
        of ours counted, anything else into the inbox in order. The close is declined (False):
        it reaches `dispatch` through whatever reads daphne's queue (`__call__`'s own loop, or
        Channels' reader when the layer cannot be tapped), behind every frame taken before it.
        """
        if message.get("type") != "websocket.receive" or self.inbox is None or self.closing:
            return False
        self._arrived(message)
        return True

    def _tap_channel(self, message: dict[str, Any]) -> bool:
        """A group message as the layer puts it: into the inbox, in order, as `dispatch` would; declined once closing."""
        if self.inbox is None or self.closing:
            return False
        self._queue(message)
        return True

    def _arrived(self, message: dict[str, Any]) -> None:
        at = time.monotonic()
        if self._pong_frame(message.get("text"), at):
            return
        self._queue({**message, "_received": (at, timezone.now())})

    def _queue(self, message: dict[str, Any]) -> None:
        assert self.inbox is not None
        self.inbox.append(message)
        if self.inbox_worker is None:
            self.inbox_worker = asyncio.get_running_loop().create_task(self._work(), name="table-socket-inbox")

    def _pong_frame(self, text: Any, at: float) -> bool:
        """A text frame that is a pong answering one of our outstanding pings: counted, True."""
        if not isinstance(text, str) or len(text) > 200 or '"pong"' not in text:
            return False
        try:
            message = wire.loads(text, max_bytes=settings.WS_MAX_MESSAGE_BYTES)
        except wire.WireError:
            return False
        return isinstance(message, dict) and message.get("type") == "pong" and self._pong(message, at)

    async def _work(self) -> None:
        """Handle the inbox until it is empty, then end (the next message starts a new worker)."""
        assert self.inbox is not None
        try:
            while self.inbox:
                message = self.inbox.pop(0)
                self.handling = True
                try:
                    received = message.pop("_received", None)
                    if received is not None:
                        self.received_at, self.received_wall = received
                    await super().dispatch(message)
                except Exception:  # noqa: BLE001 - as a consumer that dies of a message: the socket closes
                    log.exception("unexpected error handling %s on table %s", message.get("type"), self.table_id)
                    with contextlib.suppress(Exception):
                        await self.close(code=1011)
                finally:
                    self.handling = False
        finally:
            self.inbox_worker = None

    async def _present(self) -> None:
        """Count this socket for its user, before the hello (whoever holds a hello is present).

        Every signed-in socket, seated or not: presence is per user and connection, and the seat
        it stands for is looked up when needed (a watcher who sits down is present at once).
        """
        self.present_as = self.user.pk
        await heartbeat.opened(self.channel_name, self.table_id, self.user.pk)
        try:
            await database_sync_to_async(presence_open)(
                table_id=self.table_id, user_id=self.user.pk, channel_name=self.channel_name, process_id=heartbeat.PROCESS_ID
            )
        except Exception:  # noqa: BLE001 - the socket works; the process's next heartbeat writes the row
            log.warning("opening a socket of table %s was not written", self.table_id, exc_info=True)

    async def disconnect(self, code: int) -> None:
        local_sockets.discard(self.table_id, self)
        self.closing = True
        if self.pinger is not None:
            self.pinger.cancel()
            self.pinger = None
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        if self.present_as is not None:
            heartbeat.closed(self.channel_name)
            try:
                await database_sync_to_async(presence_close)(
                    table_id=self.table_id, user_id=self.present_as, channel_name=self.channel_name
                )
            except Exception:  # noqa: BLE001 - the next heartbeat closes the row it no longer holds
                log.warning("closing a socket of table %s was not written", self.table_id, exc_info=True)

    # --- sending ---------------------------------------------------------------

    async def send_json(self, message: dict[str, Any]) -> None:
        await self.send(text_data=wire.dumps(message))

    async def refuse(self, refusal: policy.Refusal) -> None:
        """Answer with one `error` frame (games/socket/policy.py says what and how it reads)."""
        metrics.socket_error(code=refusal.code)
        await self.send_json(policy.error_frame(self.scope, refusal))

    async def error(self, code: str, message: str, action_id: Any = None, **extra: Any) -> None:
        await self.refuse(policy.Refusal(code, message, action_id, extra))

    @database_sync_to_async
    def _hello(self) -> dict[str, Any] | None:
        table = Table.objects.select_related("host").filter(pk=self.table_id).first()
        if table is None:
            return None
        self.seat = selectors.seat_of(table=table, user=self.user)
        self.game = table.game
        payload: dict[str, Any] = {"type": "hello", "table": selectors.table_payload(table), "seat": self.seat, "seq": 0, "view": None}
        match = Match.objects.filter(pk=table.current_match_id).first() if table.current_match_id else None
        if match is not None:
            self.match_id = match.pk
            self.match_started_at = match.started_at
            self.last_seq = match.seq
            payload["seq"] = match.seq
            self.blind = self.seat is None and deal_played_elsewhere(match=match)
            payload["view"] = None if self.blind else get_rules(match.game).view(match.state, self.seat)
            if self.blind:
                payload["deal_secret"] = True  # an extension: the table opens when its twin tables end
            payload["match"] = match.pk
            payload["now_ms"] = now_ms(match)  # match time now, for countdowns drawn from a view
        return payload

    @database_sync_to_async
    def _catch_up(self, upto: int | None = None) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """Events after last_seq from the database: up to `upto` (no view), or up to now with the view."""
        assert self.match_id is not None
        if self.blind:
            return [], None
        rules = get_rules(self.game)
        view = None
        if upto is None:
            match = Match.objects.get(pk=self.match_id)
            upto, view = match.seq, rules.view(match.state, self.seat)
        events = selectors.events_between(match_id=self.match_id, after=self.last_seq, upto=upto)
        return selectors.redact_for(rules, events, self.seat), view

    async def _send_redacted(self, events: list[dict[str, Any]], state: Any) -> None:
        """Raw events and the state they lead to, as this socket's seat sees them."""
        rules = get_rules(self.game)
        await self._send_events(selectors.redact_for(rules, events, self.seat), rules.view(state, self.seat))

    async def _send_events(self, events: list[dict[str, Any]], view: dict[str, Any] | None) -> None:
        if not events:
            return
        self.last_seq = events[-1]["seq"]
        await self.send_json({"type": "events", "events": events, "seq": self.last_seq, "view": view})

    # --- group messages --------------------------------------------------------

    async def match_events(self, message: dict[str, Any]) -> None:
        """New events of the match, redacted here for this socket's own seat (`self.seat`, from the database).

        The message carries the raw events and state, hidden cards included: it is trusted
        because only the platform can put it on the layer (Redis in production; on the
        embedded default the worker's messages pass the sealed, type-checked relay,
        live/relay_protocol.py). It never decides which seat this socket sees.
        """
        spectator_syncs.note(message["match"], message["events"], message["state"])
        if message["match"] != self.match_id:
            if self.match_id is None or message["match"] > self.match_id:
                await self._switch_match()
            return
        if self.blind:
            return
        events = message["events"]
        last = events[-1]["seq"]
        if last <= self.last_seq:
            return  # already delivered (a gap fill or an ack got there first)
        if events[0]["seq"] > self.last_seq + 1:
            rules = get_rules(self.game)
            view = rules.view(message["state"], self.seat)
            missing, _ = await self._catch_up(events[0]["seq"] - 1)
            await self._send_events(missing + selectors.redact_for(rules, events, self.seat), view)
            return
        await self._send_redacted([e for e in events if e["seq"] > self.last_seq], message["state"])

    async def deliver_now(self, message: dict[str, Any]) -> bool:
        """A committed `match.events` handed over in-process (live/local_sockets.py): sent now if this socket is idle.

        Only when the inbox holds nothing and handles nothing, for the match shown, and the
        events follow on from the last delivered seq: then sending them here is exactly what
        `match_events` would do when the group message came, only sooner. Otherwise nothing
        happens and that group message delivers them in order. True when sent.
        """
        spectator_syncs.note(message["match"], message["events"], message["state"])
        if self.seat is None:
            # A watcher takes the group message, sent after the acting player's ack: forty spectators
            # redacted and written here first held every player's ack (docs/security.md "Limits").
            return False
        if self.inbox is None or self.handling or self.inbox or self.blind:
            return False
        events = message["events"]
        if message["match"] != self.match_id or not events or events[0]["seq"] != self.last_seq + 1:
            return False
        await self._send_redacted(events, message["state"])
        return True

    async def send_hello(self) -> None:
        """Greet the socket again (a sync too far behind or ahead of the log)."""
        hello = await self._hello()
        if hello is not None:
            await self.send_json(hello)

    async def _switch_match(self) -> None:
        """A rematch started: greet the socket again for the new match."""
        hello = await self._hello()
        if hello is not None:
            await self.send_json(hello)

    async def table_changed(self, message: dict[str, Any]) -> None:
        """Pass the table on; a watcher who just sat down (or a player removed) gets their seat from the database.

        The seat a socket acts for is never read from a group message: the message only
        says that something changed, the Seat rows say who holds which seat. When the
        message lists this user at the seat the socket already has (or nowhere, for a
        watcher), nothing about it changed and the database is not asked: most table
        messages are a round trip or a presence changing, one query per socket each.
        """
        table = message["table"]
        await self.send_json({"type": "table", "table": table})
        if table.get("match") and table["match"] != self.match_id:
            await self._switch_match()
        elif self.user is not None and getattr(self.user, "is_authenticated", False) and self._listed_seat(table) != self.seat:

            def seat_now() -> int | None:
                row = Table.objects.filter(pk=self.table_id).first()
                return None if row is None else selectors.seat_of(table=row, user=self.user)

            self.seat = await database_sync_to_async(seat_now)()

    def _listed_seat(self, table: dict[str, Any]) -> int | None:
        name = getattr(self.user, "username", None)
        return next((p["seat"] for p in table.get("players", ()) if not p.get("bot") and p.get("username") == name), None)

    async def chat_message(self, message: dict[str, Any]) -> None:
        if await self._muted(message["message"].get("user")):
            return
        await self.send_json({"type": "chat", "message": message["message"]})

    async def _muted(self, sender: Any) -> bool:
        """People's block rule: a blocked player's chat never reaches the blocker (read when a line arrives)."""
        if not sender or self.user is None or not getattr(self.user, "is_authenticated", False):
            return False
        return sender in await database_sync_to_async(blocked_usernames_by)(self.user.pk)

    # --- receiving -------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.answering = None  # the id of the action being handled, so a server error names it
        try:
            await self._receive(text_data, bytes_data)
        except Exception:  # noqa: BLE001 - a consumer never dies of a message
            log.exception("unexpected error handling a message on table %s", self.table_id)
            await self.refuse(dataclasses.replace(policy.SERVER_ERROR, action_id=self.answering))

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if self.session_gone:
            return  # closing with 4401: whatever it still sent does nothing
        message = policy.read_frame(text_data, bytes_data)
        if isinstance(message, policy.Refusal):
            await self.refuse(message)
            return
        kind = message["type"]
        self.answering = message.get("id")
        if kind == "pong" and self._pong(message, time.monotonic()):
            return  # the answer to one of our own pings costs the client nothing of its message budget
        if not self.budget.take():
            await self.refuse(dataclasses.replace(policy.RATE_LIMITED, action_id=self.answering))
            return
        if kind == "act":
            await self._act(message)
        elif kind == "sync":
            await self._resync(message)
        elif kind == "chat":
            await self._chat(message)
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "pong":
            if (refusal := policy.pong_refusal(message)) is not None:
                await self.refuse(refusal)
        else:
            await self.refuse(policy.unknown_type(kind))

    # --- round trips (Fair races) ------------------------------------------------

    def _ping_due(self) -> None:
        """Ping now, a few times quickly, then every WS_PING_SECONDS, while the socket is open.

        A timer handle between pings, not a task sleeping in a loop: an idle socket holds
        no coroutine for its pings (memory per socket, docs/performance.md).
        """
        self.pinger = None
        if self.closing:
            return
        eager.run_now(self._ping(), what="a ping")  # no task: daphne's send never waits (live/eager.py)

    async def _ping(self) -> None:
        try:
            await self.send_json(self.rtt.ping(time.monotonic()))
        except Exception:  # noqa: BLE001 - a socket closing under the ping; races then judge on the last estimate
            log.debug("pinging a socket of table %s stopped", self.table_id, exc_info=True)
            return
        self.pings_sent += 1
        if not self.closing:
            delay = PING_WARMUP_GAP_S if self.pings_sent < PING_WARMUP else ping_seconds()
            self.pinger = asyncio.get_running_loop().call_later(delay, self._ping_due)

    def _pong(self, message: dict[str, Any], at: float) -> bool:
        """Count a pong that answers one of this socket's pings (it came in at `at`); False for any other."""
        sample = self.rtt.pong(message.get("n"), at)
        if sample is None:
            return False
        if self.rtt_bound is not None:
            self.rtt.bound_ms = self.rtt_bound()  # the kernel's, read now (a syscall); a proxy's stays as it came
        if self.present_as is not None and self.rtt.newly_inflated(settings.RTT_SLACK_MS):
            self._in_background(self._record_inflated(self.present_as))
        stored = self.rtt.worth_storing(at)
        if stored is not None and self.present_as is not None:
            self.rtt.stored_ms, self.rtt.stored_at = stored, at
            task = asyncio.get_running_loop().create_task(self._store_rtt(stored))
            _background.add(task)
            task.add_done_callback(_background.discard)
        return True

    @staticmethod
    def _in_background(coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        _background.add(task)
        task.add_done_callback(_background.discard)

    async def _record_inflated(self, user_id: int) -> None:
        """Count this socket's pongs running late beyond the transport's round trip in its player's fair-play record."""
        log.info("table %s: a socket of user %s answers pings %s ms late beyond its line's %s ms", self.table_id, user_id,
                 self.rtt.pong_ms, self.rtt.bound_ms)
        try:
            await database_sync_to_async(fair_play_rtt_inflated_record)(user_id=user_id)
        except Exception:  # noqa: BLE001 - a record lost is a figure, never the socket
            log.warning("the inflated round trip of user %s was not recorded", user_id, exc_info=True)

    async def _store_rtt(self, rtt_ms: int) -> None:
        """Write the estimate where every web process reads it (table payload, other seats' races)."""
        try:
            if async_db.enabled():
                changed = await presence_rtt_set_async(channel_name=self.channel_name, rtt_ms=rtt_ms, table_id=self.table_id)
            else:
                changed = await database_sync_to_async(presence_rtt_set)(
                    channel_name=self.channel_name, rtt_ms=rtt_ms, table_id=self.table_id
                )
        except Exception:  # noqa: BLE001 - the next change is written again
            self.rtt.stored_ms = None
            log.warning("the round trip of a socket of table %s was not written", self.table_id, exc_info=True)
            return
        if changed:
            self.rtt.stored_ms = rtt_ms

    async def _act(self, message: dict[str, Any]) -> None:
        if (refusal := policy.act_refusal(message, match_id=self.match_id, seat=self.seat)) is not None:
            await self.refuse(refusal)
            return
        action_id, action = message.get("id"), message.get("action")
        try:
            result = await self._submit(action, action_id)
        except errors.PlatformError as e:
            await self.refuse(policy.Refusal.of(e, action_id))
            return
        if result.seq > self.last_seq:
            # Deliver our own events before the ack, even if the group message is late:
            # straight from the result when they follow on, else from the database.
            if result.events and result.events[0]["seq"] == self.last_seq + 1 and result.state is not None:
                await self._send_redacted(result.events, result.state)
            else:
                events, view = await self._catch_up()
                await self._send_events(events, view)
        await self.send_json({"type": "ack", "id": action_id, "seq": result.seq})
        metrics.action_acked(seconds=time.monotonic() - self.received_at)

    async def _submit(self, action: dict[str, Any], action_id: str) -> SubmitResult:
        """The fast path on this event loop when it can decide (live/async_db.py), else a database thread."""
        assert self.match_id is not None and self.seat is not None
        on_loop = async_db.enabled()
        if on_loop:
            result = await action_submit_cached(
                match_id=self.match_id, seat=self.seat, action=action, action_id=action_id, rtt_ms=self.rtt.estimate_ms,
                received_at=self.received_wall, channel=self.channel_name,
            )
            if result is not None:
                return result
        return await database_sync_to_async(action_submit)(
            match_id=self.match_id, seat=self.seat, action=action, action_id=action_id, rtt_ms=self.rtt.estimate_ms,
            received_at=self.received_wall, checked=True, hold_timers=True, cache=not on_loop,
        )

    async def _resync(self, message: dict[str, Any]) -> None:
        if (refusal := policy.sync_refusal(message, match_id=self.match_id)) is not None:
            await self.refuse(refusal)
            return
        since = message["since"]
        if self.seat is None and not self.blind:
            spectator_syncs.ask(self, since)  # from memory, coalesced, behind the players (games/socket/spectator_syncs.py)
            return
        seq = await database_sync_to_async(lambda: Match.objects.values_list("seq", flat=True).get(pk=self.match_id))()
        if seq - since > SYNC_LIMIT or since > seq:
            hello = await self._hello()
            if hello is not None:
                await self.send_json(hello)
            return
        self.last_seq = since
        events, view = await self._catch_up()
        if events:
            await self._send_events(events, view)
        else:
            await self.send_json({"type": "events", "events": [], "seq": self.last_seq, "view": view})

    async def _chat(self, message: dict[str, Any]) -> None:
        if (refusal := policy.chat_refusal(self.user)) is not None:
            await self.refuse(refusal)
            return
        try:
            await database_sync_to_async(chat_post)(table_id=self.table_id, user=self.user, text=message.get("text"))
        except errors.PlatformError as e:
            await self.refuse(policy.Refusal(e.code, e.message))


class ReadOnlyConsumer(PlatformConsumer):
    """A socket clients only listen on (lobby, tournaments): `ping` answers `pong`, anything else
    `bad_message`. Its frames are read by the same loader as the table socket's (live/wire.py)."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=wire.dumps(policy.read_only_reply(text_data, bytes_data)))


class LobbyConsumer(ReadOnlyConsumer):
    """`ws/lobby/`: tables as they open, fill and start; and a signed-in player's own news (group `user-<id>`):
    a challenge to them, a table the matchmaking queue seated them at."""

    socket_kind = "lobby"
    own_group: str | None = None

    async def connect(self) -> None:
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.own_group = user_group(user.pk)
            await self.channel_layer.group_add(self.own_group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        if self.own_group is not None:
            await self.channel_layer.group_discard(self.own_group, self.channel_name)

    async def matchmaking_matched(self, message: dict[str, Any]) -> None:
        await self.send(text_data=wire.dumps({"type": "matched", "table": message["table"]}))

    async def challenge_notice(self, message: dict[str, Any]) -> None:
        await self.send(text_data=wire.dumps({"type": "challenge", "challenge": message["challenge"]}))

    async def lobby_table(self, message: dict[str, Any]) -> None:
        await self.send(text_data=wire.dumps({"type": "table", "table": message["table"]}))

    async def lobby_removed(self, message: dict[str, Any]) -> None:
        await self.send(text_data=wire.dumps({"type": "removed", "table_id": message["table_id"]}))
