from django.urls import path

from replays import api

urlpatterns = [
    path("matches/", api.MatchListApi.as_view()),
    path("matches/<int:match_id>/", api.MatchDetailApi.as_view()),
    path("matches/<int:match_id>/timeline/", api.TimelineApi.as_view()),
    path("matches/<int:match_id>/state/", api.StateApi.as_view()),
    path("matches/<int:match_id>/export/", api.ExportApi.as_view()),
]
