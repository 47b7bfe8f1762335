from __future__ import annotations

from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operations: liveness and readiness probes, Prometheus metrics, log format, error reporting."""

    name = "ops"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ops import pools

        pools.register()
