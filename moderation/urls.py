"""API routes of fair play (under /api/)."""

from django.urls import path

from moderation import api

urlpatterns = [
    path("reports/", api.ReportApi.as_view()),
    path("moderation/queue/", api.QueueApi.as_view()),
    path("moderation/actions/", api.ActionApi.as_view()),
    path("me/moderation/", api.MyModerationApi.as_view()),
]
