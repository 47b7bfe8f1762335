from django.urls import path

from replays import views

urlpatterns = [
    path("matches/", views.history, name="history"),
    path("matches/<int:match_id>/replay/", views.replay, name="replay"),
]
