from django.apps import AppConfig


def schedule_stats(match_id: int) -> None:
    """Match-end listener: ratings and statistics run in their own Celery task."""
    from games.scheduling import schedule

    schedule("replays.match_finished", (match_id,), 0)


class ReplaysConfig(AppConfig):
    name = "replays"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import hooks
        from replays import tasks  # noqa: F401  (registers the Celery task by name)
        from replays.services import snapshots_on_match_finished

        hooks.on_match_finished(schedule_stats)
        hooks.on_match_finished(snapshots_on_match_finished)
