"""HTTP and WebSocket routing for daphne: every app's WebSocket routes are assembled here."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from accounts.ws_auth import SocketGate  # noqa: E402
from games.routing import websocket_urlpatterns as games_websockets  # noqa: E402
from live import server  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournaments_websockets  # noqa: E402

# ws/tables/<id>/, ws/lobby/, ws/tournaments/<id>/, ws/tournaments/mine/
websocket_urlpatterns = [*games_websockets, *tournaments_websockets]

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SocketGate(URLRouter(websocket_urlpatterns)),
    }
)

server.install()  # live/server.py: the daphne, Twisted and autobahn patches, then the collector settled
