"""The processes' log lines: timestamped text by default, one JSON object a line with LOG_FORMAT=json.

Why: every process (daphne, the Celery worker, beat) writes to its standard error, and whatever
collects it (journald, a container runtime, a log shipper) has to tell when a line was written and
by which process, and, for JSON, read its fields without parsing prose. Times are UTC, ISO 8601,
to the millisecond.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

# What a LogRecord carries by itself; anything else on a record came from `extra=` and is kept as a field.
_RECORD_FIELDS = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


def utc_time(record: logging.LogRecord) -> str:
    return dt.datetime.fromtimestamp(record.created, tz=dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class TextFormatter(logging.Formatter):
    """`2026-12-05T09:12:03.123Z WARNING games.socket.consumers [pid 4242] message`."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{utc_time(record)} {record.levelname} {record.name} [pid {record.process}] {record.getMessage()}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line: `time`, `level`, `logger`, `process`, `message`, `exception` when there
    is one, and every `extra=` field of the call."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": utc_time(record),
            "level": record.levelname,
            "logger": record.name,
            "process": record.process,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        for key, value in record.__dict__.items():
            if key not in _RECORD_FIELDS and key not in entry:
                entry[key] = value
        return json.dumps(entry, default=str, ensure_ascii=False)


def logging_config(*, level: str, fmt: str) -> dict[str, Any]:
    """Django's LOGGING for `LOG_LEVEL` and `LOG_FORMAT` ("text" or "json")."""
    if fmt not in ("text", "json"):
        raise ValueError(f"LOG_FORMAT must be 'text' or 'json', not {fmt!r}")
    formatter = "ops.logs.JsonFormatter" if fmt == "json" else "ops.logs.TextFormatter"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"()": formatter}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
        "root": {"handlers": ["console"], "level": level},
    }
