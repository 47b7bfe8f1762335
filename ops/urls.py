from __future__ import annotations

from django.urls import path

from ops import views

urlpatterns = [
    path("health/ready/", views.ready, name="health-ready"),
    path("metrics", views.metrics_view, name="metrics"),
]
