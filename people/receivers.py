"""What deleting an account removes from the apps above accounts (accounts.signals.account_erasing).

Runs inside the deletion's transaction, before the row is anonymised (accounts.self_service.account_delete
says why the row stays). Removed: follows and blocks both ways, challenges made and received, chat lines,
presence rows, ratings and per-game figures, and the account's seats at tables not yet started (its
hosted open tables pass to the next person or close). At a live match the seat is withdrawn: a bot
plays it to the end for the others. Finished matches and their seats stay, under the deleted name.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db.models import Q
from django.dispatch import receiver

from accounts.signals import account_erasing
from people.models import Block, Challenge, Follow

# Rows of other apps that are the person's alone, by model label (read through the app registry).
ERASED = ("games.ChatMessage", "games.TableConnection", "stats.Rating", "stats.PlayerGameStats")


@receiver(account_erasing)
def erase_people_and_play(sender: Any, user: Any, **kwargs: Any) -> None:
    from games import errors
    from games.models import Seat, Table
    from games.services.tables import seat_withdraw, table_leave
    Follow.objects.filter(Q(follower=user) | Q(followee=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    Challenge.objects.filter(Q(challenger=user) | Q(challenged=user)).delete()
    for label in ERASED:
        apps.get_model(label).objects.filter(user=user).delete()
    for seat in Seat.objects.filter(user=user, bot_level="").select_related("table"):
        try:
            if seat.table.status == Table.Status.OPEN:
                table_leave(table_id=seat.table_id, user=user)
            elif seat.table.status == Table.Status.PLAYING:
                seat_withdraw(table_id=seat.table_id, seat=seat.seat)
        except errors.PlatformError:  # gone or started meanwhile: nothing of the person to take back
            continue
