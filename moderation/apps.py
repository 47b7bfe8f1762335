from django.apps import AppConfig


def schedule_review(match_id: int) -> None:
    """Match-end listener: the players' fair-play records are reviewed in their own Celery task."""
    from live.scheduling import schedule

    schedule("moderation.fair_play_review", (match_id,), 0)


class ModerationConfig(AppConfig):
    """Fair play: players' records and flags, reports, the moderators' desk and its actions."""

    name = "moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import hooks
        from moderation import selectors, tasks  # noqa: F401  (tasks: registers the Celery task by name)
        from stats import rating_services

        hooks.on_match_finished(schedule_review)
        rating_services.unrated_accounts_from(selectors.marked_user_ids)
