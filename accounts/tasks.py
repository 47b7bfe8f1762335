"""Mail leaves in the background: a slow or absent mail server never slows a page."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.mail import EmailMessage

log = logging.getLogger(__name__)

# A mail server that refuses or times out is asked again, at most this many times, a minute apart.
SEND_RETRIES = 5


@shared_task(name="accounts.send_mail", bind=True, max_retries=SEND_RETRIES, default_retry_delay=60)
def send_mail(self: object, to: str, subject: str, body: str) -> None:
    """Send one plain-text mail through the configured backend (accounts.mail.mail_send queues it)."""
    try:
        EmailMessage(subject=subject, body=body, to=[to]).send()
    except OSError as e:  # smtplib's errors and refused connections are OSErrors
        log.warning("mail to %s not sent (%s): trying again", to.split("@")[-1], e)
        raise self.retry(exc=e) from e  # type: ignore[attr-defined]
