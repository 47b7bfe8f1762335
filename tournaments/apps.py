from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.hooks import on_leave_check, on_match_finished, on_seat_arrived
        from tournaments.services import seat_arrived, seat_leave_refusal

        on_match_finished(_match_finished)
        on_seat_arrived(seat_arrived)
        on_leave_check(seat_leave_refusal)


def _match_finished(match_id: int) -> None:
    """Listener of games.hooks: a tournament table's end is handled by its own task."""
    from live.bus import schedule
    from tournaments.models import TournamentTable

    if TournamentTable.objects.filter(match_id=match_id).exists():
        schedule("tournaments.table_finished", (match_id,), 0)
