"""Reads for accounts."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from accounts.models import User


def user_by_name(*, username: str) -> User:
    return get_object_or_404(User, username=username)
