"""Presence as the web processes write it, without sockets: a process's beat, a socket opening or closing."""

from __future__ import annotations

import uuid

from django.utils import timezone

from games.models import WebProcess
from games.services.presence import presence_close, presence_open

PROCESS = uuid.UUID(int=1)  # "the" web process of a test


def beat(process: uuid.UUID = PROCESS) -> None:
    """The process's heartbeat at the (virtual) time now: its sockets count for a lease from here."""
    WebProcess.objects.update_or_create(pk=process, defaults={"seen_at": timezone.now()})


def socket_open(table_id: int, user_id: int, channel: str, process: uuid.UUID = PROCESS) -> None:
    beat(process)
    presence_open(table_id=table_id, user_id=user_id, channel_name=channel, process_id=process)


def socket_close(table_id: int, user_id: int, channel: str) -> None:
    presence_close(table_id=table_id, user_id=user_id, channel_name=channel)
