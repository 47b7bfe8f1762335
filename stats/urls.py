"""API routes of statistics and leaderboards (under /api/)."""

from django.urls import path

from stats import api as stats_api

urlpatterns = [
    path("stats/players/<str:username>/", stats_api.PlayerStatsApi.as_view()),
    path("stats/games/<str:slug>/", stats_api.GameStatsApi.as_view()),
    path("leaderboards/<str:slug>/", stats_api.LeaderboardApi.as_view()),
]
