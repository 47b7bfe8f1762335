"""HTTP and WebSocket routing for daphne."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from accounts.ws_auth import TokenOrSessionAuth, same_origin_only  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": same_origin_only(TokenOrSessionAuth(URLRouter(websocket_urlpatterns))),
    }
)
