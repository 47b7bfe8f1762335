"""The Celery app: timers, bot moves and background work."""

from __future__ import annotations

import os

from celery import Celery
from kombu.transport import TRANSPORT_ALIASES

# The embedded default's broker: kombu's filesystem transport, made atomic (live/fs_transport.py).
TRANSPORT_ALIASES["safefs"] = "live.fs_transport:Transport"

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cardtables")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
