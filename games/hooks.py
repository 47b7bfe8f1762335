"""Listeners for the end of a match (ratings, statistics, tournaments add theirs here)."""

from __future__ import annotations

from collections.abc import Callable

_listeners: list[Callable[[int], None]] = []


def on_match_finished(fn: Callable[[int], None]) -> Callable[[int], None]:
    _listeners.append(fn)
    return fn


def run_match_finished(match_id: int) -> None:
    for fn in _listeners:
        fn(match_id)
