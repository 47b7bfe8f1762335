"""Fixtures of the people tests."""

from tests.support.smtp import smtp_inbox  # noqa: F401 - a real SMTP server (aiosmtpd) for the mail tests
