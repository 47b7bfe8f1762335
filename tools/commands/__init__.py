"""Benchmarks written as Django management commands, kept among the tools: they play simulated matches
(tools/sim.py), which no production module may import (docs/architecture.md "Checking the layers").

Run one as `python -m tools.commands <name> [options]`: Django is set up first, then the command runs as
`manage.py <name>` would run it.
"""
