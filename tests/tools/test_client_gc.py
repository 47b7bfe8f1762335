"""The load client's collector: frozen and rare while measuring, its pauses counted, put back afterwards."""

from __future__ import annotations

import gc
import time

from tools.loadtest import client_gc


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_within_the_client_collects_rarely_counts_its_pauses_and_puts_the_collector_back() -> None:
    before = gc.get_threshold()
    callbacks = list(gc.callbacks)
    with client_gc.settled() as pauses:
        assert gc.get_threshold() == client_gc.THRESHOLDS
        assert gc.get_freeze_count() > 0  # what existed before is out of the scans
        begun = time.perf_counter()
        _Cycle()
        gc.collect()
        ended = time.perf_counter()
        assert [gen for at, gen, ms in pauses.pauses if begun <= at <= ended] == [2]
        assert pauses.summary(begun, ended).startswith("load client's own garbage collection in the measured window: 1 pauses")
        assert pauses.summary(ended + 1, ended + 2).endswith("in the measured window: no pause")
        assert "since the clients were set up: " in pauses.summary()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert list(gc.callbacks) == callbacks
