"""A log-in that ends closes its open sockets everywhere (PROTOCOL.md "Fair play", live/sessions.py).

Ends: a log-out (the browser's or `POST /api/auth/logout/`), a revoked token
(`DELETE /api/auth/token/`), a password change or reset and a deletion
(accounts.signals.credentials_changed), a ban (moderation sends credentials_changed) and any
other deactivation (an account saved inactive, the admin's checkbox). Each asks live, after the
commit, to close every socket of the user on every web process (`bus.sessions_end`).

`credentials_gone` is live's periodic re-check, for a fan-out message that was lost: which of a
process's sockets' credentials no longer hold, in three queries whatever their number.
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import User
from accounts.signals import credentials_changed
from accounts.tokens import token_expired
from live import bus


@functools.lru_cache(maxsize=16_384)
def _auth_hash(user_id: int, password: str, secret: str) -> str:
    """The session hash of a password as stored (and of the key it is signed with): an HMAC and a model built
    once per password, not for every socket at every recheck."""
    return User(pk=user_id, password=password).get_session_auth_hash()


@receiver(credentials_changed)
def _credentials_changed(sender: Any, user: Any, **kwargs: Any) -> None:
    bus.sessions_end(user.pk)


@receiver(user_logged_out)
def _logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None and user.pk is not None:
        bus.sessions_end(user.pk)


@receiver(post_save, sender=User)
def _deactivated(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
    if not created and not instance.is_active:
        bus.sessions_end(instance.pk)


def credentials_gone(credentials: list[bus.Credential]) -> set[bus.Credential]:
    """The credentials that no longer hold: account gone or inactive, password changed, token or session ended."""
    users = {
        pk: (active, password)
        for pk, active, password in User.objects.filter(pk__in={c.user_id for c in credentials}).values_list("pk", "is_active", "password")
    }
    token_keys = {c.key for c in credentials if c.kind == "token"}
    tokens = {t.key: t for t in Token.objects.filter(key__in=token_keys)} if token_keys else {}
    session_keys = {c.key for c in credentials if c.kind == "session"}
    sessions = (
        set(Session.objects.filter(session_key__in=session_keys, expire_date__gt=timezone.now()).values_list("session_key", flat=True))
        if session_keys else set()
    )
    hashes: dict[int, str] = {}
    gone: set[bus.Credential] = set()
    for c in credentials:
        row = users.get(c.user_id)
        if row is None or not row[0]:
            gone.add(c)
            continue
        if c.user_id not in hashes:
            hashes[c.user_id] = _auth_hash(c.user_id, row[1], settings.SECRET_KEY)
        if hashes[c.user_id] != c.auth_hash:
            gone.add(c)
        elif c.kind == "token" and (c.key not in tokens or token_expired(tokens[c.key])):
            gone.add(c)
        elif c.kind == "session" and c.key not in sessions:
            gone.add(c)
    return gone
