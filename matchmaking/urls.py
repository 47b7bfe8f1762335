"""API routes of matchmaking (under /api/)."""

from django.urls import path

from matchmaking import api

urlpatterns = [path("queue/", api.QueueApi.as_view())]
