"""Listeners for the end of a match (ratings, statistics, tournaments add theirs here), and chat checks."""

from __future__ import annotations

from collections.abc import Callable

_listeners: list[Callable[[int], None]] = []


def on_match_finished(fn: Callable[[int], None]) -> Callable[[int], None]:
    _listeners.append(fn)
    return fn


def run_match_finished(match_id: int) -> None:
    for fn in _listeners:
        fn(match_id)


# Who may not chat: an app above games registers a check (moderation: a muted account), so games never
# imports it. A check returns None, or the English reason of the refusal (code `muted`).
_chat_checks: list[Callable[[int], str | None]] = []


def on_chat_check(fn: Callable[[int], str | None]) -> Callable[[int], str | None]:
    _chat_checks.append(fn)
    return fn


def chat_refusal(user_id: int) -> str | None:
    for fn in _chat_checks:
        reason = fn(user_id)
        if reason:
            return reason
    return None


# A person came to a table for the first time (its seat had never been seen): tournaments deal a table
# waiting for its players once the last one is there. Called inside presence_open's transaction.
_seat_arrived: list[Callable[[int], None]] = []


def on_seat_arrived(fn: Callable[[int], None]) -> Callable[[int], None]:
    _seat_arrived.append(fn)
    return fn


def run_seat_arrived(table_id: int) -> None:
    for fn in _seat_arrived:
        fn(table_id)


# Who may not leave an open table: an app above games registers a check (tournaments: a table it seated,
# waiting for its players before the deal). A check returns None, or the English reason (code `organised`).
_leave_checks: list[Callable[[int], str | None]] = []


def on_leave_check(fn: Callable[[int], str | None]) -> Callable[[int], str | None]:
    _leave_checks.append(fn)
    return fn


def leave_refusal(table_id: int) -> str | None:
    for fn in _leave_checks:
        reason = fn(table_id)
        if reason:
            return reason
    return None
