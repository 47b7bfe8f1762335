"""Everything live changes in the server process itself, installed by one call from config/asgi.py.

daphne, Twisted and autobahn are patched where the benchmarks found their own
paths the largest cost of a busy web process (docs/performance.md):

- `write_through`: a frame goes to the socket when it is written, not a loop turn later (Twisted);
- `lean_queue`: daphne's per-socket input queue is a `LeanQueue` a table socket can tap (daphne);
- `lazy_log_args`: autobahn's per-frame debug log arguments are not built when nobody logs them.

Then the process's collector is settled: what a started web process has built lives as long as it does.
"""

from __future__ import annotations

import gc

from live import lazy_log_args, lean_queue, write_through


def install() -> None:
    """Patch the server's libraries, then settle the collector; call once, after the ASGI application is built."""
    write_through.install()
    lean_queue.install_in_daphne()
    lazy_log_args.install()
    # Keep what is built (Django, URL conf, models, rules) out of the collector's scans and walk the
    # old generation rarely. Full collections walked every socket's objects and were the largest part
    # of the 200-table benchmark's p99 (docs/performance.md: every-socket p99 at 100 actions/s, median
    # of runs, about 120 ms before, 50 ms after).
    gc.freeze()
    gc.set_threshold(700, 10, 10_000)
