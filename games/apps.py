from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Serve live what it asks of the domain (live/bus.py `serve`): live never imports games."""
        from games import selectors
        from games.services import held_timers
        from games.services.presence import web_process_beat
        from live import bus

        bus.serve(table_payload=selectors.table_payload_or_none, process_beat=web_process_beat, timers=held_timers)
