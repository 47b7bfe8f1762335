"""Builders shared by the fair-play tests: a staff account and an API client acting as someone."""

from __future__ import annotations

from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import token_for
from tests.games.factories import user


def staff(name: str = "mod") -> User:
    u = user(name)
    u.is_staff = True
    u.save(update_fields=["is_staff"])
    return u


def client(who: User | None) -> APIClient:
    """An API client with `who`'s token (None: anonymous)."""
    c = APIClient()
    if who is not None:
        c.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user=who)}")
    return c
