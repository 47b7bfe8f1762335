"""Pages, mounted at /."""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/new/", views.tournament_new, name="tournament_new"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:tournament_id>/standings.csv", views.standings_csv, name="tournament_standings_csv"),
]
