"""REST (mounted under api/ by config/urls.py) and pages of people."""

from django.urls import path

from people import api, views

api_urlpatterns = [
    path("me/following/", api.FollowingApi.as_view()),
    path("me/following/<str:username>/", api.FollowApi.as_view()),
    path("me/blocks/", api.BlocksApi.as_view()),
    path("me/blocks/<str:username>/", api.BlockApi.as_view()),
    path("me/notifications/", api.NotificationsApi.as_view()),
    path("challenges/", api.ChallengesApi.as_view()),
    path("challenges/<int:challenge_id>/accept/", api.ChallengeAcceptApi.as_view()),
    path("challenges/<int:challenge_id>/decline/", api.ChallengeDeclineApi.as_view()),
]

page_urlpatterns = [
    path("friends/", views.friends, name="friends"),
]
