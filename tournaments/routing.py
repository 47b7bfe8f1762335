"""The tournaments' WebSocket routes; config/asgi.py assembles every app's routes."""

from django.urls import path

from tournaments.consumers import PlayerConsumer, TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournaments/mine/", PlayerConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
