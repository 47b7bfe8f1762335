"""Defaults the settings module computes for ops: importable before Django is set up (no models, no settings)."""

from __future__ import annotations


def default_allowed(*, production: bool) -> str:
    """METRICS_ALLOWED when the environment does not say: loopback on the embedded default, nobody in production."""
    return "" if production else "127.0.0.0/8,::1/128"
