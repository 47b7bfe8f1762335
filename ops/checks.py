"""Readiness: whether the database, the channel layer and the broker answer, each within a short timeout.

Why real round trips, in parallel, bounded: a proxy or an orchestrator asks this every few seconds
to decide whether to send players to this process. A check that only looks at settings would say
"ready" with Redis gone; one without a timeout would hang the probe as long as a dead host keeps
a TCP connect waiting (the database pool alone waits DB_POOL_TIMEOUT, 20 s). Each check runs in a
thread of a small pool of its own; one that has not answered after READY_TIMEOUT_SECONDS is reported
as `timeout` (its thread finishes or fails on its own later; at most four such threads per process).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)
_checks = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ops-ready")


def _timeout() -> float:
    return float(settings.READY_TIMEOUT_SECONDS)


def database() -> str:
    """`SELECT 1` on the default database, through Django's own connection (and pool)."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connections.close_all()  # this thread's connection back to the pool
    return "ok"


def channel_layer() -> str:
    """Redis layers: PING every host of the layer. The in-memory layer: a message sent to a new
    channel and received back (it lives in this process; there is nothing else to ask)."""
    config = settings.CHANNEL_LAYERS["default"]
    hosts = config.get("CONFIG", {}).get("hosts")
    if hosts:
        import redis

        for host in hosts:
            address = host["address"] if isinstance(host, dict) else host
            client = redis.Redis.from_url(address, socket_timeout=_timeout(), socket_connect_timeout=_timeout())
            try:
                client.ping()
            finally:
                client.close()
        return "ok"
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")

    async def round_trip() -> None:
        channel = await layer.new_channel("ops.ready.")
        await layer.send(channel, {"type": "ops.ready"})
        message = await layer.receive(channel)
        if message.get("type") != "ops.ready":
            raise RuntimeError(f"the layer returned {message!r}")

    async_to_sync(round_trip)()
    return "ok"


def broker() -> str:
    """A connection to CELERY_BROKER_URL, and a PING on a Redis broker; the embedded filesystem
    broker: its message folder exists and is writable."""
    from celery import current_app

    options = dict(getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}))
    folder = options.get("data_folder_out")
    if settings.CELERY_BROKER_URL.startswith(("safefs://", "filesystem://")):
        if not folder or not os.access(folder, os.W_OK):
            raise RuntimeError(f"message folder {folder!r} is not writable")
        return "ok"
    options.update(socket_timeout=_timeout(), socket_connect_timeout=_timeout())
    with current_app.connection_for_write(url=settings.CELERY_BROKER_URL, connect_timeout=_timeout(), transport_options=options) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=_timeout())
        client = getattr(conn.default_channel, "client", None)
        if client is not None and hasattr(client, "ping"):
            client.ping()
    return "ok"


CHECKS: dict[str, Callable[[], str]] = {"database": database, "channel_layer": channel_layer, "broker": broker}


def readiness() -> dict[str, str]:
    """Each dependency's answer, checked side by side: "ok", "timeout" or "error: <exception class>".

    The answer names only the exception's class (the probe may be public); its message, which can
    name hosts, goes to the log.
    """
    futures = {name: _checks.submit(check) for name, check in CHECKS.items()}
    wait(futures.values(), timeout=_timeout())
    answers: dict[str, str] = {}
    for name, future in futures.items():
        if not future.done():
            answers[name] = "timeout"
            log.warning("readiness: %s did not answer within %.1f s", name, _timeout())
            continue
        exc = future.exception()
        if exc is None:
            answers[name] = future.result()
        else:
            answers[name] = f"error: {exc.__class__.__name__}"
            log.warning("readiness: %s failed: %r", name, exc)
    return answers
