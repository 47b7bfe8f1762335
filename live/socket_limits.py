"""Open sockets per account and per address on this web process, and their shared message budgets.

PROTOCOL.md "Fair play" and docs/security.md "Limits": one account (or one address) must not
be able to open hundreds of sockets on a table or spend many sockets' message budgets at once.

Process-local on purpose: the count is what this process holds (every socket's life runs on
one process, so there is nothing to reconcile and nothing lost if Redis restarts), and a
message budget is taken on the event loop for every frame, where a Redis round trip would cost
each honest frame more than the abuse it stops. With N web processes behind a balancer an
account may hold up to N times the cap in all; the balancer's own per-address connection
limit is the deployment's outer bound (README "Deployment").
"""

from __future__ import annotations

import time
from collections import Counter

from django.conf import settings

CLOSE_CODE = 4429

_per_user: Counter[int] = Counter()
_per_address: Counter[str] = Counter()


def admit(*, user_id: int | None, address: str) -> str | None:
    """Count a new socket in, or the reason it is refused ("sockets_per_user", "sockets_per_address")."""
    if user_id is not None and _per_user[user_id] >= settings.WS_MAX_SOCKETS_PER_USER:
        reason = "sockets_per_user"
    elif address and _per_address[address] >= settings.WS_MAX_SOCKETS_PER_ADDRESS:
        reason = "sockets_per_address"
    else:
        if user_id is not None:
            _per_user[user_id] += 1
        if address:
            _per_address[address] += 1
        return None
    return reason  # counted in /metrics by the caller (cardtables_sockets_refused_total)


def release(*, user_id: int | None, address: str) -> None:
    if user_id is not None:
        _per_user[user_id] -= 1
        if _per_user[user_id] <= 0:
            del _per_user[user_id]
            _user_buckets.pop(user_id, None)
    if address:
        _per_address[address] -= 1
        if _per_address[address] <= 0:
            del _per_address[address]
            _address_buckets.pop(address, None)


class Bucket:
    """A token bucket: `rate` messages per second, bursts up to one second's worth."""

    __slots__ = ("at", "rate", "tokens")

    def __init__(self, rate: float) -> None:
        self.rate = float(rate)
        self.tokens = self.rate
        self.at = time.monotonic()

    def refill(self, now: float) -> None:
        self.tokens = min(self.rate, self.tokens + (now - self.at) * self.rate)
        self.at = now


_user_buckets: dict[int, Bucket] = {}
_address_buckets: dict[str, Bucket] = {}


def shared_buckets(*, user_id: int | None, address: str) -> list[Bucket]:
    """The budgets a socket of this account and address shares with the others (none for a rate of 0)."""
    out: list[Bucket] = []
    if user_id is not None and settings.WS_USER_MESSAGES_PER_SECOND > 0:
        bucket = _user_buckets.get(user_id)
        if bucket is None:
            bucket = _user_buckets[user_id] = Bucket(settings.WS_USER_MESSAGES_PER_SECOND)
        out.append(bucket)
    if address and settings.WS_ADDRESS_MESSAGES_PER_SECOND > 0:
        bucket = _address_buckets.get(address)
        if bucket is None:
            bucket = _address_buckets[address] = Bucket(settings.WS_ADDRESS_MESSAGES_PER_SECOND)
        out.append(bucket)
    return out


def take(buckets: list[Bucket]) -> bool:
    """One message from every bucket, or from none when any is empty."""
    now = time.monotonic()
    for bucket in buckets:
        bucket.refill(now)
        if bucket.tokens < 1:
            return False
    for bucket in buckets:
        bucket.tokens -= 1
    return True


def open_counts() -> tuple[int, int]:
    """Accounts and addresses holding sockets here (tests, /metrics)."""
    return len(_per_user), len(_per_address)
