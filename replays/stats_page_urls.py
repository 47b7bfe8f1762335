"""Pages of the leaderboards."""

from django.urls import path

from replays import stats_views

urlpatterns = [
    path("leaderboards/", stats_views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:slug>/", stats_views.leaderboard, name="leaderboard"),
]
