"""`python -m tools.loadtest`: the load benchmark (see tools/loadtest/bench.py)."""

from tools.loadtest.bench import main

raise SystemExit(main())
