"""HTTP and WebSocket routing for daphne: every app's WebSocket routes are assembled here."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from accounts.ws_auth import SocketGate  # noqa: E402
from config import lazy_log_args, lean_queue, write_through  # noqa: E402
from games.routing import websocket_urlpatterns as games_websockets  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournaments_websockets  # noqa: E402

# ws/tables/<id>/, ws/lobby/, ws/tournaments/<id>/, ws/tournaments/mine/
websocket_urlpatterns = [*games_websockets, *tournaments_websockets]

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SocketGate(URLRouter(websocket_urlpatterns)),
    }
)

if settings.WS_WRITE_THROUGH:
    write_through.install()
lean_queue.install_in_daphne()
lazy_log_args.install()

# What a started web process has built (Django, URL conf, models, rules) lives as long as it does:
# keep it out of the collector's scans and walk the old generation rarely. Full collections walked
# every socket's objects and were the largest part of the 200-table benchmark's p99 (README
# "Performance": every-socket p99 at 100 actions/s, median of runs, about 120 ms before, 50 ms after).
gc.freeze()
gc.set_threshold(700, 10, 10_000)
