from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    name = "replays"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import hooks
        from replays.services import snapshots_on_match_finished

        hooks.on_match_finished(snapshots_on_match_finished)
