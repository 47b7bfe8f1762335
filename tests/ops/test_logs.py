"""Log lines carry a UTC timestamp by default, and are one JSON object each with LOG_FORMAT=json."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ops.logs import JsonFormatter, TextFormatter, logging_config

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (
    "import django, logging; django.setup(); "
    "logging.getLogger('games.test').warning('table %s stalled', 7, extra={'table': 7}); "
    "logging.getLogger('games.test').info('not shown at WARNING')"
)


def run(**env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if k not in ("LOG_FORMAT", "LOG_LEVEL")}
    environment.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=environment, capture_output=True, text=True, check=True, timeout=60).stderr


def test_default_lines_are_timestamped_text() -> None:
    lines = [line for line in run().splitlines() if "games.test" in line]
    assert len(lines) == 1
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARNING games\.test \[pid \d+\] table 7 stalled", lines[0])


def test_json_lines() -> None:
    lines = [json.loads(line) for line in run(LOG_FORMAT="json").splitlines() if "games.test" in line]
    assert len(lines) == 1
    entry = lines[0]
    assert entry["level"] == "WARNING" and entry["logger"] == "games.test" and entry["message"] == "table 7 stalled"
    assert entry["table"] == 7 and isinstance(entry["process"], int)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", entry["time"])


def test_exceptions_are_kept_in_both_forms() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.getLogger("x").makeRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    assert "ValueError: boom" in json.loads(JsonFormatter().format(record))["exception"]
    assert "ValueError: boom" in TextFormatter().format(record)


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        logging_config(level="INFO", fmt="xml")
