"""Mail settings from EMAIL_URL, and a real SMTP delivery from a process configured only by the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import ImproperlyConfigured

from accounts.tasks import send_mail
from config.settings import email_settings
from tests.support.smtp import free_port

ROOT = Path(django_settings.BASE_DIR)


def test_no_email_url_prints_mail_to_the_log() -> None:
    assert email_settings("") == {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtp://user:pass@mail.example.org:587/?tls=1",
         {"EMAIL_HOST": "mail.example.org", "EMAIL_PORT": 587, "EMAIL_HOST_USER": "user", "EMAIL_HOST_PASSWORD": "pass", "EMAIL_USE_TLS": True, "EMAIL_USE_SSL": False}),
        ("smtps://me%40example.org:p%40ss%2Fword@smtp.example.org/",
         {"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": 465, "EMAIL_HOST_USER": "me@example.org", "EMAIL_HOST_PASSWORD": "p@ss/word", "EMAIL_USE_TLS": False, "EMAIL_USE_SSL": True}),
        ("smtp://relay.local", {"EMAIL_HOST": "relay.local", "EMAIL_PORT": 25, "EMAIL_HOST_USER": "", "EMAIL_USE_TLS": False, "EMAIL_USE_SSL": False}),
        ("smtp://relay.local:2525/?ssl=1&timeout=3", {"EMAIL_PORT": 2525, "EMAIL_USE_SSL": True, "EMAIL_USE_TLS": False, "EMAIL_TIMEOUT": 3.0}),
    ],
)
def test_email_url_gives_the_smtp_settings(url: str, expected: dict[str, Any]) -> None:
    got = email_settings(url)
    assert got["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert {k: got[k] for k in expected} == expected


def test_an_unknown_scheme_stops_the_start() -> None:
    with pytest.raises(ImproperlyConfigured, match="smtp"):
        email_settings("http://mail.example.org")


def test_a_process_configured_by_email_url_delivers_through_smtp(smtp_inbox: Any, tmp_path: Path) -> None:
    """A fresh process sees only the environment (EMAIL_URL, DEFAULT_FROM_EMAIL) and sends to the real server."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env.update(VAR_DIR=str(tmp_path), EMAIL_URL=f"smtp://127.0.0.1:{smtp_inbox.port}/?timeout=5", DEFAULT_FROM_EMAIL="Tables <tables@example.org>")
    subprocess.run([sys.executable, "manage.py", "sendtestemail", "ops@example.org"], cwd=ROOT, env=env, check=True, capture_output=True, timeout=60)
    (mail,) = smtp_inbox.messages
    assert str(mail["To"]) == "ops@example.org" and str(mail["From"]) == "Tables <tables@example.org>"


def test_a_refused_delivery_is_tried_again_then_given_up(settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 2  # nothing listens there
    result = send_mail.apply(args=("ana@example.org", "subject", "body"))
    assert result.failed() and isinstance(result.result, OSError)
