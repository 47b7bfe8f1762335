"""`python -m tools.commands <name> [options]`: a benchmark command of this folder, run as manage.py runs its own."""

from __future__ import annotations

import importlib
import os
import sys

import django


def main(argv: list[str]) -> None:
    if len(argv) < 2 or argv[1].startswith("-"):
        raise SystemExit("usage: python -m tools.commands <bench_replays|bench_stats> [options]")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    command = importlib.import_module(f"tools.commands.{argv[1]}").Command()
    command.run_from_argv(["python -m tools.commands", *argv[1:]])


if __name__ == "__main__":
    main(sys.argv)
