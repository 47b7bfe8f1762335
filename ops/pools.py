"""The database pools' use, for /metrics: Django's psycopg pool of each PostgreSQL database, and the
event loop's own pool that commits actions (live/async_db.py).

Read at each scrape, from the pools' own counters (psycopg_pool's `get_stats`). SQLite has no pool.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connections

from live import async_db
from ops import metrics


def _django_pool(alias: str) -> metrics.PoolStats:
    def stats() -> dict[str, int] | None:
        pool = connections[alias].pool  # Django's per-process pool (opened on first use)
        if pool is None:
            return None
        figures = pool.get_stats()
        return {
            "size": figures.get("pool_size", 0),
            "idle": figures.get("pool_available", 0),
            "max": figures.get("pool_max", pool.max_size),
            "waiting": figures.get("requests_waiting", 0),
        }

    return stats


def register() -> None:
    """Name each pooled database of the settings to ops.metrics (once, at start-up)."""
    for alias, database in settings.DATABASES.items():
        if isinstance(database.get("OPTIONS"), dict) and database["OPTIONS"].get("pool"):
            metrics.pool_source(f"django:{alias}", _django_pool(alias))
    if async_db.enabled():
        metrics.pool_source("action-loop", async_db.stats)
