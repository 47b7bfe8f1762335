from django.apps import AppConfig


def schedule_stats(match_id: int) -> None:
    """Match-end listener: ratings and statistics run in their own Celery task."""
    from live.bus import schedule

    schedule("stats.match_finished", (match_id,), 0)


class StatsConfig(AppConfig):
    """Ratings, statistics, leaderboards and the player profile: everything counted from finished matches."""

    name = "stats"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import hooks
        from stats import tasks  # noqa: F401  (registers the Celery task by name)

        hooks.on_match_finished(schedule_stats)
