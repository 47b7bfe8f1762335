from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    """The matchmaking queue: players waiting for a ranked table of a game and size, seated by rating."""

    name = "matchmaking"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from matchmaking import tasks  # noqa: F401  (registers the Celery task by name)
