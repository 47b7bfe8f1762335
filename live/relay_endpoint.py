"""The web process's end of the embedded default's channel relay (`POST /internal/relay/`).

Mounted by config/urls.py only when this process holds the in-memory channel layer
(`settings.CHANNEL_RELAY_ENDPOINT`: never with REDIS_URL, where every process talks to
Redis and nothing is relayed). It delivers a group message only when the body is sealed
with the installation's relay key, fresh, not seen before, and a message the platform
itself sends (live/relay_protocol.py). Coming from this machine is required too, but
proves nothing on its own: behind a reverse proxy on the same host every client does.
"""

from __future__ import annotations

import logging

from channels.layers import get_channel_layer
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from live.relay_protocol import SIGNATURE_HEADER, Replays, open_sealed

log = logging.getLogger(__name__)

LOOPBACK = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
_replays = Replays()


def _from_this_host(request: HttpRequest) -> bool:
    """Loopback, or the address this server answers on (bin/run with HOST set to the machine's address)."""
    remote = request.META.get("REMOTE_ADDR")
    return remote in LOOPBACK or (remote is not None and remote == request.META.get("SERVER_NAME"))


@csrf_exempt
@require_POST
async def channel_relay(request: HttpRequest) -> JsonResponse:
    if not _from_this_host(request):
        return JsonResponse({"detail": "forbidden"}, status=403)
    try:
        group, message = open_sealed(request.body, request.headers.get(SIGNATURE_HEADER, ""), _replays)
    except (ValueError, RecursionError) as e:
        log.warning("relay message refused: %s", e)
        return JsonResponse({"detail": f"refused: {e}"}, status=403)
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group, message)
    return JsonResponse({"status": "ok"})
