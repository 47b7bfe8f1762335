"""Mail to players: written in the player's language, sent by a Celery task after the commit.

Django's mail framework does the sending (config/settings.py: the console backend, printed to the
log, on the embedded default; SMTP from `EMAIL_URL` in production, from `DEFAULT_FROM_EMAIL`). Nothing
here waits for a mail server: `mail_send` hands the message to the `accounts.send_mail` task once the
transaction that caused it has committed (a rolled-back reset sends nothing).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from accounts.models import User
from live import bus


def user_language(user: User) -> str:
    """The account's language, else the active one (the page's), else the site's."""
    return user.language or (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]


def mail_render(*, user: User, template: str, context: dict[str, Any]) -> tuple[str, str]:
    """(subject, body) of `templates/accounts/mail/<template>.txt` in the account's language.

    The template's first line is the subject, the rest (after one blank line) the body."""
    with translation.override(user_language(user)):
        text = render_to_string(f"accounts/mail/{template}.txt", {"user": user, **context})
    subject, _, body = text.strip().partition("\n")
    return subject.strip(), body.strip() + "\n"


def mail_send(*, user: User, template: str, context: dict[str, Any]) -> None:
    """Queue a mail to the account's address after the current transaction commits (no address: nothing).

    Queued as the `accounts.send_mail` task through the platform's scheduler (live.bus.schedule: Celery,
    or a test's queue). A broker that is away loses the mail, logged, and never fails the page."""
    if not user.email:
        return
    subject, body = mail_render(user=user, template=template, context=context)
    args = (user.email, subject, body)
    transaction.on_commit(lambda: bus.schedule("accounts.send_mail", args, 0), robust=True)
