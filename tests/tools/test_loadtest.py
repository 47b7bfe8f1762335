"""The load benchmark runs end to end and its delivery checks hold at a small size.

Figures are not asserted (they live in the docs/performance.md);
what is asserted is what must hold at any load: every action answered, no
socket behind the log, no gap, nothing lost.
"""

from __future__ import annotations

import re

import pytest

from tests.faults.support import needs_services
from tools.loadtest.bench import main

pytestmark = [pytest.mark.services, pytest.mark.processes, needs_services, pytest.mark.timeout(240)]


def test_two_web_processes_three_tables_deliver_everything(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--tables", "3", "--web", "2", "--rate", "4", "--seconds", "4", "--warmup", "1"]) == 0
    out = capsys.readouterr().out
    acks = re.search(r"action -> ack .*\((\d+) acks\)", out)
    assert acks is not None and int(acks.group(1)) > 10, out
    assert re.search(r"dropped or out of order: 0 sockets behind the log, 0 gaps, 0 lost/reset, 0 actions not seen by every socket, 0 actions unanswered", out), out
    assert re.search(r"daphne +CPU +[\d.]+% of a core +RSS +[\d.]+ MB +\(2 processes\)", out), out
    # The store processes are found by name, then command line (tools/loadtest/procstats.py).
    assert re.search(r"postgres \(own DB\) +CPU +[\d.]+% of a core +RSS +[\d.]+ MB +\([1-9]\d* processes\)", out), out
    assert re.search(r"redis-server +CPU +[\d.]+% of a core +RSS +[\d.]+ MB +\(1 processes\)", out), out
    assert "load client's own garbage collection in the measured window: " in out, out
