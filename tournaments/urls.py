"""API routes, mounted under /api/."""

from django.urls import path

from tournaments import api

urlpatterns = [
    path("tournaments/", api.TournamentListApi.as_view()),
    path("tournaments/<int:tournament_id>/", api.TournamentDetailApi.as_view()),
    path("tournaments/<int:tournament_id>/standings/", api.StandingsApi.as_view()),
    path("tournaments/<int:tournament_id>/register/", api.RegisterApi.as_view()),
    path("tournaments/<int:tournament_id>/unregister/", api.UnregisterApi.as_view()),
    path("tournaments/<int:tournament_id>/open/", api.OpenApi.as_view()),
    path("tournaments/<int:tournament_id>/start/", api.StartApi.as_view()),
    path("tournaments/<int:tournament_id>/pause/", api.PauseApi.as_view()),
    path("tournaments/<int:tournament_id>/resume/", api.ResumeApi.as_view()),
    path("tournaments/<int:tournament_id>/cancel/", api.CancelApi.as_view()),
    path("tournaments/<int:tournament_id>/bots/", api.BotsApi.as_view()),
    path("tournaments/<int:tournament_id>/remove/", api.RemoveApi.as_view()),
    path("tournaments/<int:tournament_id>/replace/", api.ReplaceApi.as_view()),
]
