"""The third-party code the platform patches, copies or leans on, fingerprinted.

Why: live/ replaces or copies a few functions of Twisted, daphne, autobahn, asgiref, Channels,
channels_redis and kombu (docs/performance.md says what each one bought). A patch is written
against one version of the function it replaces; the locks pin those versions
(requirements.in), and these tests hold each function's source to the hash it had when the patch
was written. An upgrade that changes one fails here, naming the function and what of ours relies
on it: read the new upstream code, re-verify (and if need be redo) the patch, then record the new
hash. Only upstream libraries are imported, so moving our own modules does not touch this file.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from typing import Any

import pytest

# dotted path of the upstream object -> (sha256 of its source, which code of ours relies on it and how)
FINGERPRINTS: dict[str, tuple[str, str]] = {
    # Twisted: live/write_through.py sends a frame at once when nothing is buffered
    "twisted.internet.abstract.FileDescriptor.write": (
        "3e46c97fc173bc7e227065420969c27688f24903c27dcc165b63166a605d688c",
        "live/write_through.py replaces tcp.Connection.write and falls back to this for everything it does not send itself",
    ),
    "twisted.internet.abstract.FileDescriptor.doWrite": (
        "a986d7b1b1054e431495d50528824683fa7ebb1ffcf3e57333bdd6f37f603141",
        "live/write_through.py reads the buffer this drains (dataBuffer, offset, _tempDataLen) to tell an empty one",
    ),
    "twisted.internet.tcp.Connection.writeSomeData": (
        "2dd0d4209260b94e2c6c4e8a16e014346cb432e7d0bfa294f8fe9e1b8b008d26",
        "live/write_through.py calls it directly and expects a byte count (or an error object) back",
    ),
    "twisted.internet.abstract._dataMustBeBytes": (
        "60e2eb17dc3be5ef9fa8b75ae3a3bf14679d7c25c5ec80668f8ba7d71729eaa0",
        "live/write_through.py checks the data as Twisted's write does",
    ),
    # daphne: live/lean_queue.py gives a WebSocket a LeanQueue as its input queue
    "daphne.server.Server.create_application": (
        "f1e300b4ecf636c85e1a66250e32af2ebb67728f01919678d43e80c794a79a87",
        "live/lean_queue.py _create_application is a copy of it with the WebSocket's queue swapped",
    ),
    "daphne.ws_protocol.WebSocketProtocol.applicationCreateWorked": (
        "4004f76cd6028e0628ffc3e1c374b683824e1ad5b116302a51f1cb72edddef6d",
        "live/lean_queue.py: daphne may only put_nowait into a WebSocket's input queue",
    ),
    "daphne.ws_protocol.WebSocketProtocol.onMessage": (
        "826cc86d0e2aeef037a1cf6448a02cc79565e485f39dbff3cbfc019141fee0a8",
        "live/lean_queue.py: daphne may only put_nowait into a WebSocket's input queue (frames by tap)",
    ),
    "daphne.ws_protocol.WebSocketProtocol.onClose": (
        "4d3b4d7c66afc2ba91436476f7a2dfd6a6b921b06aff06f546e13beb5e9cfd5a",
        "live/lean_queue.py: the close comes through put_nowait, behind every frame (the tap declines it)",
    ),
    # autobahn: live/lazy_log_args.py defers the debug lines' arguments
    "autobahn.util.hltype": (
        "7db6418e1bc5e63a2a65dd85cfb6719eb264d1fdce22ff5f72a995a5f7f75a5e",
        "live/lazy_log_args.py calls it later, when the log line is formatted, with the same arguments",
    ),
    "autobahn.util.hlval": (
        "c6a73ec8e6664a13c731c5758c255e4e9c4121a7698718040192dea89a8f79ee",
        "live/lazy_log_args.py calls it later, when the log line is formatted, with the same arguments",
    ),
    # asgiref: live/loop.py finds the server's event loop from a sync thread
    "asgiref.sync.SyncToAsync.thread_handler": (
        "5927d6cf684e6e85d18ba16f1fc8bc68f693a375b225fb738afd621224fb83fc",
        "live/loop.py server_loop reads SyncToAsync.threadlocal.main_event_loop(_pid), which this sets",
    ),
    "asgiref.sync.AsyncToSync.__call__": (
        "811b9e33968648b24d589b922cc5bf2e653140e47ef5738f22182072b4310080",
        "live/loop.py server_loop reads the thread-local loop the way this does (same process only)",
    ),
    # Channels: games/socket/consumers.py runs table sockets without Channels' reader tasks and thread hop
    "channels.consumer.AsyncConsumer.__call__": (
        "e52238720872dbc3f854519bc971aa7eb41553e63c8729081549ce42465ee419",
        "games/socket/consumers.py TableConsumer.__call__ is this without await_many_dispatch when both sources can be tapped",
    ),
    "channels.consumer.AsyncConsumer.dispatch": (
        "39f34e7d4fb0f6552de4ade665b943fe78137379702af6b58c79a14c49a75520",
        "games/socket/consumers.py PlatformConsumer.dispatch is this without close_old_connections per message",
    ),
    "channels.db.DatabaseSyncToAsync.thread_handler": (
        "00f86b58c522f98e24add023ffd40b25cfeab1cc2007cbc003b63a7677f9cfc7",
        "games/socket/consumers.py PlatformConsumer skips the per-message close_old_connections because this does it per call",
    ),
    "channels.sessions.InstanceSessionWrapper.__init__": (
        "1aed8029d4065532a2a49bad5bed7f09bfc7d88bf149fbbd30bbcaa64a993f52",
        "games/socket/consumers.py session_free_send unwraps real_send when save_message_types are HTTP only",
    ),
    "channels.sessions.InstanceSessionWrapper.send": (
        "e951315e4ef0f195877b12d53081c59edc05d409b04576cebc513eaf611364b5",
        "games/socket/consumers.py session_free_send skips it for socket frames: it must act on HTTP responses only",
    ),
    "channels.auth.get_user": (
        "3124b316d7d6472c9b991717bc2e3cccecf343162d0e3aeaac2015ff9f7beea2",
        "accounts/ws_auth.py calls it with a scope holding only the session (SocketGate replaces the auth stack)",
    ),
    # channels_redis: live/pubsub_layer.py delivers in-process first and taps a socket's channel
    "channels_redis.pubsub.RedisPubSubChannelLayer._get_layer": (
        "1862b87a25ac72b2512da2fa30e56f87ca4b37f6874f1385d2ceb5e8b442079c",
        "live/pubsub_layer.py LocalFirstPubSubChannelLayer._get_layer is a copy making our loop layer",
    ),
    "channels_redis.pubsub.RedisPubSubChannelLayer.serialize": (
        "b4934d9f37d461ec1bf75508b042a08b94ad8337a4ed84d17a009c26684ae1b3",
        "live/pubsub_layer.py prefixes the serialized message with the process's origin",
    ),
    "channels_redis.pubsub.RedisPubSubChannelLayer.deserialize": (
        "efb14181c02c1adf2cf245cbf020ae7f4703d0472aa0ba2e7c9cbbbc53398e1d",
        "live/pubsub_layer.py decodes a message once per process, after the origin prefix",
    ),
    "channels_redis.pubsub.RedisPubSubLoopLayer.__init__": (
        "fd9d37e275298a5823df02a3cd2157aaa237b803059aa55f3ccce2053c1ecf7f",
        "live/pubsub_layer.py _LoopLayer replaces its _shards with shards that drop their own echo",
    ),
    "channels_redis.pubsub.RedisPubSubLoopLayer._subscribe_to_channel": (
        "3da2e955db06450f59a634cc90dcfe4a804e703d61d93250fae532ba91875425",
        "live/pubsub_layer.py _LoopLayer._subscribe_to_channel is a copy with a LeanQueue",
    ),
    "channels_redis.pubsub.RedisPubSubLoopLayer.send": (
        "549a0535395c584ae6eb4b3a85cfe8ed0107f47ffa4ff62a8494fc58be8dd027",
        "live/pubsub_layer.py _LoopLayer.send replaces it (in-process first, origin-prefixed publish)",
    ),
    "channels_redis.pubsub.RedisPubSubLoopLayer.group_send": (
        "5d5f908ce40f335b7c401ff9cd35a2baf020e835f32a6d39964eecdb54f8f699",
        "live/pubsub_layer.py _LoopLayer.group_send replaces it (in-process first, origin-prefixed publish)",
    ),
    "channels_redis.pubsub.RedisPubSubLoopLayer.receive": (
        "2d3fa7938ba6e0a67de22b47d7af2b6e492bbbdacce4725868239d854b845de4",
        "live/pubsub_layer.py forget_channel does what this does when its reader is cancelled",
    ),
    "channels_redis.pubsub.RedisSingleShardConnection._receive_message": (
        "2f5f46af28e8ed76a78c8dabe8831ee21e2b061f32d15e90e5a0ddd94c63c54f",
        "live/pubsub_layer.py _Shard._receive_message replaces it (drops its own echo, decodes once)",
    ),
    # kombu: live/fs_transport.py writes the embedded broker's message files atomically
    "kombu.transport.filesystem.Channel._put": (
        "a88e2ceb3927a99ac69f97f5d2dec340e7ed22ae16f7ec8e33fb1716bc25b8b5",
        "live/fs_transport.py Channel._put replaces it (write under a temporary name, then rename)",
    ),
}

# msgpack is compiled code: its bytes on the wire are fingerprinted instead. Processes of one
# deployment read each other's group messages through Redis (live/pubsub_layer.py).
MSGPACK_SAMPLE: dict[str, Any] = {
    "type": "match.events",
    "seq": 42,
    "events": [{"kind": "flip", "card": "r7", "ms": 1.5}],
    "ok": True,
}
MSGPACK_WIRE_SHA = "322d2d5d37136e5a288a33554c91ab3d37f607881dc36e12ba8f1c319611372b"


def resolve(path: str) -> Any:
    """The object at a dotted path: the longest importable module prefix, then attributes."""
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = inspect.getattr_static(obj, name)
            obj = getattr(obj, "__func__", obj)  # staticmethod / classmethod
        return obj
    raise ImportError(path)


def fingerprint(obj: Any) -> str:
    return hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()


@pytest.mark.parametrize("path", sorted(FINGERPRINTS))
def test_upstream_function_is_the_one_patched(path: str) -> None:
    recorded, ours = FINGERPRINTS[path]
    try:
        now = fingerprint(resolve(path))
    except (ImportError, AttributeError, OSError, TypeError) as exc:
        pytest.fail(f"re-verify this patch: {path} is gone or unreadable upstream ({exc!r}); {ours}")
    assert now == recorded, (
        f"re-verify this patch: {path} changed upstream (source sha256 {recorded[:12]}... is now {now[:12]}...); "
        f"{ours}. Read the new code, adapt ours, then record the new hash in {__name__}."
    )


def test_msgpack_wire_bytes_unchanged() -> None:
    import msgpack

    wire = msgpack.packb(MSGPACK_SAMPLE, use_bin_type=True)
    now = hashlib.sha256(wire).hexdigest()
    assert now == MSGPACK_WIRE_SHA, (
        f"re-verify this patch: msgpack encodes a group message differently (sha256 {now[:12]}...); "
        "live/pubsub_layer.py sends origin + channels_redis's msgpack body between processes of different versions"
    )
    assert msgpack.unpackb(wire, raw=False) == MSGPACK_SAMPLE


def test_autobahn_frame_path_uses_the_helpers_deferred() -> None:
    """live/lazy_log_args.py swaps hltype/hlval only where a module took them from autobahn.util: if a
    module stops doing so, the patch silently does nothing."""
    util = importlib.import_module("autobahn.util")
    for name in ("autobahn.websocket.protocol", "autobahn.twisted.websocket"):
        module = importlib.import_module(name)
        for helper in ("hltype", "hlval"):
            value = getattr(module, helper, None)
            original = getattr(value, "wrapped", value)  # already deferred in this process
            assert original is getattr(util, helper), (
                f"re-verify this patch: {name}.{helper} is no longer autobahn.util.{helper}; live/lazy_log_args.py defers it there"
            )


def test_fingerprint_sees_a_one_character_change(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: the same function with one character changed hashes apart, an identical one does not."""
    monkeypatch.syspath_prepend(str(tmp_path))
    bodies = {
        "up_a": "def f(x):\n    return x + 1\n",
        "up_b": "def f(x):\n    return x + 2\n",
        "up_c": "def f(x):\n    return x + 1\n",
    }
    for name, body in bodies.items():
        (tmp_path / f"{name}.py").write_text(body)
    a, b, c = (fingerprint(resolve(f"{name}.f")) for name in bodies)
    assert a != b
    assert a == c
