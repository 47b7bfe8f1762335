"""The arithmetic behind the benchmark figures (no servers): window rates and warm-up accounting."""

from __future__ import annotations

import asyncio

import pytest

from tools.loadtest.capacity import StoreCounters
from tools.loadtest.versus import Run, measure


def test_store_counters_give_per_second_rates_over_the_window() -> None:
    before = StoreCounters(at=10.0, wal=0, commits=100, rows=1000, events=50, commands=7, publishes=3, net_in=0)
    after = StoreCounters(at=12.0, wal=2 * 2**20, commits=300, rows=1600, events=250, commands=407, publishes=203, net_in=4096)
    d = after.minus(before)
    assert d == pytest.approx({"wal_mb_s": 1.0, "commits_s": 100.0, "rows_s": 300.0, "events_s": 100.0,
                               "redis_cmds_s": 200.0, "publish_s": 100.0, "redis_in_kb_s": 2.0})


def test_measure_drops_the_warmup_and_steps_that_measured_nothing() -> None:
    results = iter([1.0, None, 2.0, 3.0, None, 4.0, 5.0])

    async def step() -> float | None:
        return next(results)

    run = Run("fake")
    asyncio.run(measure(run, flips=3, warmup=2, gap_s=0, step=step))
    assert run.ms == [3.0, 4.0, 5.0]
