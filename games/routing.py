from django.urls import path

from games.consumers import LobbyConsumer, TableConsumer
from tournaments.routing import websocket_urlpatterns as tournament_websockets

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    *tournament_websockets,  # ws/tournaments/<id>/ and ws/tournaments/mine/
]
