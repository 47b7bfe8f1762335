from django.apps import AppConfig


class PeopleConfig(AppConfig):
    """Friends, blocks and challenges (PROTOCOL.md "People")."""

    name = "people"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from people import receivers  # noqa: F401 - connects accounts' signals
