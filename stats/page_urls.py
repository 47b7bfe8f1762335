"""Pages of the leaderboards and the player profiles."""

from django.urls import path

from stats import views as stats_views

urlpatterns = [
    path("leaderboards/", stats_views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:slug>/", stats_views.leaderboard, name="leaderboard"),
    path("u/<str:username>/", stats_views.profile, name="profile"),
]
