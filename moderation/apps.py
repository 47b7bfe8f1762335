from django.apps import AppConfig


def schedule_review(match_id: int) -> None:
    """Match-end listener: the players' fair-play records are reviewed in their own Celery task."""
    from live.scheduling import schedule

    schedule("moderation.fair_play_review", (match_id,), 0)


def mute_refusal(user_id: int) -> str | None:
    """The chat check games asks (games.hooks.on_chat_check): a muted account may not chat."""
    from moderation.selectors import user_is_muted

    return "a moderator muted you: you cannot chat for now" if user_is_muted(user_id) else None


class ModerationConfig(AppConfig):
    """Fair play: players' records and flags, reports, the moderators' desk and its actions."""

    name = "moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import hooks
        from moderation import selectors, tasks  # noqa: F401  (tasks: registers the Celery task by name)
        from stats import rating_services

        hooks.on_match_finished(schedule_review)
        hooks.on_chat_check(mute_refusal)
        rating_services.unrated_accounts_from(selectors.marked_user_ids)
