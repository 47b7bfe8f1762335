"""The moderators' desk page."""

from django.urls import path

from moderation import views

urlpatterns = [path("moderation/", views.desk, name="moderation-desk")]
