"""URL patterns (filled by its feature)."""

urlpatterns: list = []
