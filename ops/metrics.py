"""The platform's Prometheus metrics, and the one-line calls that record them.

Why here and without Django: the action path, the sockets and the race judging record from
wherever the event happens (the domain, live/, the consumers), so this module imports nothing of
the platform and costs a counter increment per call. Each web process keeps its own figures
(Prometheus scrapes every daphne process on its own port); `/metrics` (ops/views.py) renders them.
Names follow Prometheus's conventions: `_total` for counters, seconds for durations.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    gc_collector,
    generate_latest,
    platform_collector,
    process_collector,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

disable_created_metrics()  # no `_created` series beside each counter and histogram: nobody reads them here
REGISTRY = CollectorRegistry()
process_collector.ProcessCollector(registry=REGISTRY)  # CPU, memory, open files of this process
platform_collector.PlatformCollector(registry=REGISTRY)
gc_collector.GCCollector(registry=REGISTRY)

ACTIONS_COMMITTED = Counter(
    "cardtables_actions_committed",
    "Actions durably committed by this process, by game and by path (loop: the one-message commit from the event loop; "
    "cached: the same message from a database thread; locked: the row locked, then decided).",
    ["game", "path"],
    registry=REGISTRY,
)
# A flip takes 2-5 ms from the frame to the ack on a quiet machine (docs/performance.md); the buckets
# reach far enough to show a saturated process (hundreds of ms) and a stall (seconds).
ACK_SECONDS = Histogram(
    "cardtables_action_ack_seconds",
    "From an action's frame reaching the web process to its ack sent on the socket.",
    buckets=(0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
OPEN_SOCKETS = Gauge(
    "cardtables_open_sockets",
    "WebSocket connections open in this process, by kind (table, lobby, tournament).",
    ["kind"],
    registry=REGISTRY,
)
RACE_CLAIMS = Counter(
    "cardtables_race_claims",
    "Race claims decided by this process (a smack, a challenge, a snap, a take from the centre), by game; a claim "
    "decided again on the locked path after the fast path's guard refused it counts twice.",
    ["game"],
    registry=REGISTRY,
)
SOCKETS_REFUSED = Counter(
    "cardtables_sockets_refused_total",
    "Sockets refused at the door (close 4429), by the cap they would pass: sockets_per_user or sockets_per_address.",
    ["reason"],
    registry=REGISTRY,
)
SOCKET_ERRORS = Counter(
    "cardtables_socket_errors_total",
    "Error frames sent on open sockets, by code: rate_limited (a message budget spent), bad_message, rule, ...",
    ["code"],
    registry=REGISTRY,
)
# Compensation is the claimer's round trip, capped at the table's lag_cap_ms (0-500 ms).
RACE_COMPENSATION_SECONDS = Histogram(
    "cardtables_race_compensation_seconds",
    "How much earlier than its arrival a race claim was judged: its socket's round trip, capped at the table's lag_cap_ms.",
    ["game"],
    buckets=(0.0, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5),
    registry=REGISTRY,
)


@functools.cache
def _committed(game: str, path: str) -> Any:
    """A labelled child, looked up once: `labels()` checks and locks on every call, and this is per action."""
    return ACTIONS_COMMITTED.labels(game=game, path=path)


def action_committed(*, game: str, path: str) -> None:
    """One action durably committed (call after the COMMIT, once per action)."""
    _committed(game, path).inc()


def action_acked(*, seconds: float) -> None:
    """An ack sent, `seconds` after its action's frame reached the process."""
    ACK_SECONDS.observe(max(0.0, seconds))


def socket_opened(*, kind: str) -> None:
    OPEN_SOCKETS.labels(kind=kind).inc()


def socket_closed(*, kind: str) -> None:
    OPEN_SOCKETS.labels(kind=kind).dec()


def socket_refused(*, reason: str) -> None:
    """A socket refused because its user or its address holds too many already."""
    SOCKETS_REFUSED.labels(reason=reason).inc()


def socket_error(*, code: str) -> None:
    """An `error` frame sent (a refused message, action or sync)."""
    SOCKET_ERRORS.labels(code=code).inc()


def race_claimed(*, game: str, compensation_ms: float) -> None:
    """A race claim judged, `compensation_ms` earlier than it arrived."""
    RACE_CLAIMS.labels(game=game).inc()
    RACE_COMPENSATION_SECONDS.labels(game=game).observe(max(0.0, compensation_ms) / 1000.0)


PoolStats = Callable[[], dict[str, int] | None]
_pool_sources: dict[str, PoolStats] = {}


def pool_source(name: str, stats: PoolStats) -> None:
    """Name a database pool whose use is read at each scrape: `stats()` gives `size` (open
    connections), `idle`, `max` and `waiting` (requests waiting for a connection), or None when the
    pool does not exist in this process (yet). A pool that does not count its waiters leaves `waiting` out."""
    _pool_sources[name] = stats


class _PoolCollector(Collector):
    """Database pool use, read when scraped (a gauge kept up to date would cost every checkout)."""

    def collect(self) -> Iterator[Any]:
        used = GaugeMetricFamily("cardtables_db_pool_connections", "Open database connections of a pool, by state.", labels=["pool", "state"])
        limit = GaugeMetricFamily("cardtables_db_pool_max", "The most connections a pool may open.", labels=["pool"])
        waiting = GaugeMetricFamily("cardtables_db_pool_waiting", "Requests waiting for a pool connection.", labels=["pool"])
        for name, source in sorted(_pool_sources.items()):
            stats = source()
            if stats is None:
                continue
            idle = stats.get("idle", 0)
            used.add_metric([name, "in_use"], max(0, stats.get("size", 0) - idle))
            used.add_metric([name, "idle"], idle)
            limit.add_metric([name], stats.get("max", 0))
            if "waiting" in stats:  # only a pool that counts them
                waiting.add_metric([name], stats["waiting"])
        yield from (used, limit, waiting)


REGISTRY.register(_PoolCollector())


def render() -> tuple[bytes, str]:
    """The exposition text of every metric of this process, and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def value(name: str, labels: dict[str, str] | None = None) -> float:
    """One sample's current value (0 when not recorded yet): for tests and for the admin."""
    return REGISTRY.get_sample_value(name, labels or {}) or 0.0
