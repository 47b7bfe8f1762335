"""Writes of a player's own account: settings, password change and reset, e-mail check, deletion.

Kept apart from accounts/services.py (registration, log-in, tokens, bots): these are what the settings
page and `/api/me/...` do. Each ends the log-ins it must (a changed password ends every other session
and token) and tells the apps above accounts through accounts.signals, after the commit.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import password_validation, update_session_auth_hash
from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from accounts.mail import mail_send
from accounts.models import DELETED_NAME_PREFIX, LANGUAGE_CHOICES, User
from accounts.services import token_for
from accounts.signals import account_erasing, credentials_changed

LANGUAGES = tuple(code for code, _name in LANGUAGE_CHOICES)


class BadLinkError(Exception):
    """A reset or verification link that is used, expired, or was never ours."""


class EmailTokenGenerator(PasswordResetTokenGenerator):
    """Tokens of e-mail verification links: bound to the address, so a link for an old address checks nothing."""

    key_salt = "accounts.self_service.EmailTokenGenerator"

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        return f"{user.pk}{user.email}{user.email_verified}{timestamp}"


email_token_generator = EmailTokenGenerator()


def link_uid(user: User) -> str:
    return urlsafe_base64_encode(force_bytes(user.pk))


def _user_of_link(uid: str, token: str, generator: PasswordResetTokenGenerator) -> User:
    try:
        pk = int(force_str(urlsafe_base64_decode(uid)))
        user = User.objects.get(pk=pk, is_active=True, is_bot=False, deleted_at__isnull=True)
    except (ValueError, TypeError, OverflowError, User.DoesNotExist):
        raise BadLinkError from None
    if not isinstance(token, str) or not generator.check_token(user, token):
        raise BadLinkError
    return user


# --- settings ---------------------------------------------------------------------------------------


def account_update(
    *, user: User, email: str | None = None, language: str | None = None, sounds: bool | None = None,
    notifications: bool | None = None, base_url: str = "",
) -> User:
    """Change what is given. A new address is unverified until its link is opened (a mail is sent)."""
    if language is not None and language not in ("", *LANGUAGES):
        raise ValidationError({"language": [_("Choose one of: %(choices)s.") % {"choices": ", ".join(LANGUAGES)}]})
    fields: list[str] = []
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if email is not None and email.strip().lower() != user.email.lower():
            user.email = User.objects.normalize_email(email.strip())
            user.email_verified = False
            fields += ["email", "email_verified"]
        for name, value in (("language", language), ("sounds", sounds), ("notifications", notifications)):
            if value is not None and getattr(user, name) != value:
                setattr(user, name, value)
                fields.append(name)
        if fields:
            user.save(update_fields=fields)
        if "email" in fields and user.email and base_url:
            email_verify_request(user=user, base_url=base_url)
    return user


def email_verify_request(*, user: User, base_url: str) -> None:
    """Mail a link that confirms the account's address (optional: nothing depends on it but the badge)."""
    if not user.email:
        return
    link = f"{base_url.rstrip('/')}/verify-email/{link_uid(user)}/{email_token_generator.make_token(user)}/"
    mail_send(user=user, template="verify_email", context={"link": link})


def email_verify_confirm(*, uid: str, token: str) -> User:
    with transaction.atomic():
        user = _user_of_link(uid, token, email_token_generator)
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    return user


# --- passwords --------------------------------------------------------------------------------------


def _credentials_end(user: User) -> None:
    """Every API token ends now; sessions end by their auth hash (Django checks it on every request and
    socket, accounts.ws_auth). Receivers of credentials_changed close what is open after the commit."""
    Token.objects.filter(user=user).delete()
    transaction.on_commit(lambda: credentials_changed.send(sender=User, user=user))


def _password_checked(user: User, password: str, field: str) -> None:
    try:
        password_validation.validate_password(password or "", user)
    except ValidationError as e:
        raise ValidationError({field: list(e.messages)}) from None


def password_change(*, user: User, old_password: str, new_password: str, request: HttpRequest | None = None) -> str:
    """A new password; every other session and API token ends. Returns a fresh API token.

    With `request` (a browser's session) that one session stays logged in under the new password."""
    if not user.check_password(old_password or ""):
        raise ValidationError({"old_password": [_("Your old password was entered incorrectly.")]})
    _password_checked(user, new_password, "new_password")
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        user.set_password(new_password)
        user.save(update_fields=["password"])
        _credentials_end(user)
        token = token_for(user=user)
        mail_send(user=user, template="password_changed", context={"reset_link": _reset_page(request)})
    if request is not None and getattr(request, "session", None) is not None and request.user.is_authenticated:
        update_session_auth_hash(request, user)
    return token


def _reset_page(request: HttpRequest | None) -> str:
    return request.build_absolute_uri("/password-reset/") if request is not None else "/password-reset/"


def password_reset_request(*, email: str, base_url: str) -> None:
    """Mail a one-time, expiring link to every person's account with this address; say nothing either way.

    The answer is the same whether or not an account has the address (no account is revealed); the
    link's token (Django's PasswordResetTokenGenerator) is bound to the password hash and the last
    log-in, so it stops working once used, and after PASSWORD_RESET_TIMEOUT."""
    email = (email or "").strip()
    if not email:
        return
    users = User.objects.filter(email__iexact=email, is_active=True, is_bot=False, deleted_at__isnull=True)
    for user in users:
        if not user.has_usable_password():
            continue
        link = f"{base_url.rstrip('/')}/reset/{link_uid(user)}/{default_token_generator.make_token(user)}/"
        mail_send(user=user, template="password_reset", context={"link": link, "hours": _reset_hours()})


def _reset_hours() -> int:
    from django.conf import settings

    return max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)


def password_reset_check(*, uid: str, token: str) -> User:
    """The account of a reset link that still works; BadLinkError otherwise (the landing page asks first)."""
    return _user_of_link(uid, token, default_token_generator)


def password_reset_confirm(*, uid: str, token: str, new_password: str) -> User:
    """Set the password of a working link (then the link is used: the hash it was bound to changed)."""
    with transaction.atomic():
        user = _user_of_link(uid, token, default_token_generator)
        user = User.objects.select_for_update().get(pk=user.pk)
        if not default_token_generator.check_token(user, token):  # used meanwhile by a concurrent confirm
            raise BadLinkError
        _password_checked(user, new_password, "new_password")
        user.set_password(new_password)
        user.save(update_fields=["password"])
        _credentials_end(user)
    return user


# --- deletion ---------------------------------------------------------------------------------------


def account_delete(*, user: User, password: str) -> None:
    """Erase the account: anonymised in place, never deleted as a row.

    Why not delete the row: every seat of a match (games.MatchPlayer), a started table's seats and host,
    rating changes and tournament seats point at the user with ON DELETE CASCADE, so deleting it would
    tear the account's finished matches out of the other players' history and replays. So the row stays
    and loses, irreversibly, everything that says who the person was: the name becomes
    `deleted-<random>` (reserved: nobody can sign up as one), the password unusable, the account
    inactive, the address, names, language and preferences erased, its API token deleted, and its
    failed log-ins forgotten. The apps above accounts remove the rest (chat lines, follows, blocks,
    challenges, ratings, open seats) on `account_erasing`, inside this transaction. Its finished
    matches stay, each seat shown under the deleted player's name.
    """
    if not user.check_password(password or ""):
        raise ValidationError({"password": [_("Your password was entered incorrectly.")]})
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        old_name = user.username
        account_erasing.send(sender=User, user=user)
        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            model.objects.filter(username__iexact=old_name).delete()
        for _attempt in range(5):
            user.username = f"{DELETED_NAME_PREFIX}{secrets.token_hex(5)}"
            if not User.objects.filter(username=user.username).exists():
                break
        user.set_unusable_password()
        user.is_active = user.is_staff = user.is_superuser = False
        user.email = user.first_name = user.last_name = user.language = ""
        user.email_verified = False
        user.sounds = user.notifications = False
        user.last_login = None
        user.deleted_at = timezone.now()
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:  # the one name in a trillion taken meanwhile
            user.username = f"{DELETED_NAME_PREFIX}{secrets.token_hex(8)}"
            user.save()
        _credentials_end(user)
