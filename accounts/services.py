"""Writes for accounts: registration, tokens and the failed log-in throttle."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate, password_validation
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.models import User


class LoginThrottledError(Exception):
    """Too many failed log-ins for this name or address; wait and try again."""


def user_register(*, username: str, password: str, email: str = "") -> User:
    """Create a player; raises ValidationError with field errors (taken name, weak password)."""
    errors: dict[str, list[str]] = {}
    username = (username or "").strip()
    if not username:
        errors["username"] = ["This field is required."]
    elif len(username) > 150 or not all(c.isalnum() or c in "@.+-_" for c in username):
        errors["username"] = ["Use at most 150 letters, digits and @.+-_ only."]
    elif User.objects.filter(username__iexact=username).exists():
        errors["username"] = ["A user with that username already exists."]
    try:
        password_validation.validate_password(password or "", User(username=username, email=email))
    except ValidationError as e:
        errors["password"] = list(e.messages)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        return User.objects.create_user(username=username, password=password, email=email or "")


def token_for(*, user: User) -> str:
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def _throttle_keys(username: str, address: str) -> list[str]:
    return [f"login-fail:user:{username.lower()}", f"login-fail:addr:{address}"]


def login_check(*, username: str, password: str, address: str) -> User | None:
    """Authenticate, counting failures per name and per address.

    Raises LoginThrottledError once either has failed too often within the window,
    even for the right password, so guessing does not pay.
    """
    keys = _throttle_keys(username or "", address or "")
    limit = settings.LOGIN_FAILURES_ALLOWED
    if any((cache.get(k) or 0) >= limit for k in keys):
        raise LoginThrottledError("Too many failed log-ins. Try again in a few minutes.")
    user = authenticate(username=username, password=password)
    if user is None:
        for k in keys:
            cache.add(k, 0, settings.LOGIN_FAILURE_WINDOW_SECONDS)
            try:
                cache.incr(k)
            except ValueError:
                cache.set(k, 1, settings.LOGIN_FAILURE_WINDOW_SECONDS)
        return None
    return user  # type: ignore[return-value]


def bot_user(*, slug: str, level: str) -> User:
    """One bot account per game and level, so bots have history and ratings."""
    name = f"bot-{slug}-{level}"
    user, created = User.objects.get_or_create(username=name, defaults={"is_bot": True, "bot_level": level})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user
