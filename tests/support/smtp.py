"""A real SMTP server for tests: aiosmtpd on a free loopback port, in a thread of the test process.

The platform talks to it through Django's SMTP backend exactly as to a production server; the test
reads what arrived (`inbox.messages`, each an `email.message.EmailMessage`)."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Inbox:
    port: int = 0
    messages: list[email.message.EmailMessage] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's hook name
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        self.messages.append(email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [m for m in self.messages if address in str(m["To"])]


@pytest.fixture
def smtp_inbox(settings: Any) -> Iterator[Inbox]:
    """Starts the server and points Django's SMTP backend at it (plain SMTP, no TLS, on 127.0.0.1)."""
    from aiosmtpd.controller import Controller

    inbox = Inbox(port=free_port())
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = inbox.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 10
    try:
        yield inbox
    finally:
        controller.stop()
