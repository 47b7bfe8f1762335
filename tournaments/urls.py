"""API routes, mounted under /api/."""

from django.urls import path

from tournaments import api

urlpatterns = [
    path("tournaments/", api.TournamentListApi.as_view()),
    path("tournaments/<int:tournament_id>/", api.TournamentDetailApi.as_view()),
    path("tournaments/<int:tournament_id>/standings/", api.StandingsApi.as_view()),
    *(path(f"tournaments/<int:tournament_id>/{name}/", view.as_view()) for name, view in api.ACTIONS.items()),
]
