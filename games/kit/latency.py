"""Round trips measured by the server itself (PROTOCOL.md "Fair races").

A race is judged at arrival minus the sender's round trip, so the round trip
must be the server's own figure: the table socket sends `{"type": "ping",
"n": N}` and times the `{"type": "pong", "n": N}` that comes back. Nothing the
client says about time is believed; the client only echoes a number the server
chose, and only a number it is still waiting for counts, once.

One sample is noisy (a pong may wait behind a message the consumer is
handling, a mobile radio wakes up), so the estimate is the median of the last
few samples after dropping those far above the others. The median of five
already ignores two bad samples; the outlier cut keeps a burst of slow ones
from dragging it up as well.

A client can answer pings late but cannot make its line slower for what it
receives (PROTOCOL.md "Fair play"): the round trip a race uses is at most a
bound the transport measured (the kernel's TCP round trip where the platform
ends the connection, or a trusted proxy's: live/transport_rtt.py), and pongs
only lower it (`bound_ms`). Without a bound nobody vouches for the pongs, so
they count for at most `unbounded_cap_ms` (docs/deployment-round-trips.md).
Pongs running more than the slack above the bound are an inflated round trip
(`inflated`), counted in the player's fair-play record.

Pure: no Django, no clock of its own (times are passed in, in seconds of a
monotonic clock), so it is tested without sockets.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

KEEP = 5  # samples the estimate is made of
MAX_OUTSTANDING = 8  # pings awaiting a pong; older ones are forgotten (their pongs then count for nothing)
MAX_RTT_S = 10.0  # a longer round trip is no sample: the socket was stuck, not slow
OUTLIER_FACTOR = 2.0  # a sample above FACTOR x the median of the others, plus the slack, is dropped
OUTLIER_SLACK_MS = 20.0
CHANGE_MS = 5  # an estimate that moved less than this, or less than CHANGE_RATIO of itself, is not worth a write
CHANGE_RATIO = 0.05
STORE_MIN_GAP_S = 10.0
"""An estimate is written at most this often per socket (the first at once). Each write tells the table
(its payload shows every player's round trip); under load every estimate moves, and 300 sockets
re-storing every ping cost more than their table's moves (docs/performance.md)."""


def robust_median(samples: list[float]) -> float | None:
    """The median of the samples not far above the others (None without samples).

    Each sample is compared with the median of all of them: one above
    OUTLIER_FACTOR x that median + OUTLIER_SLACK_MS is dropped. Only slow
    samples are outliers: a round trip cannot be shorter than the line is.
    """
    if not samples:
        return None
    mid = statistics.median(samples)
    kept = [s for s in samples if s <= OUTLIER_FACTOR * mid + OUTLIER_SLACK_MS]
    return statistics.median(kept or samples)


@dataclass(slots=True)
class RttEstimator:
    """The round trip of one socket: pings sent, pongs matched, the estimate in ms."""

    keep: int = KEEP
    next_n: int = 1
    outstanding: dict[int, float] = field(default_factory=dict)  # n -> when its ping was sent
    samples: list[float] = field(default_factory=list)  # a list: an empty deque is 760 bytes a socket
    stored_ms: int | None = None  # the estimate last written where other processes read it
    stored_at: float | None = None  # when (monotonic s) it was handed over for writing
    bound_ms: float | None = None  # the transport's round trip, refreshed at every pong (None: nobody vouches)
    unbounded_cap_ms: int | None = None  # without a bound, pongs count at most this (None: no cap, for pure tests)
    inflation_counted: bool = False  # this socket's inflated round trip was counted already (once per socket)

    def ping(self, now_s: float) -> dict[str, int | str]:
        """The next ping to send, remembered as sent at `now_s`."""
        n = self.next_n
        self.next_n += 1
        self.outstanding[n] = now_s
        while len(self.outstanding) > MAX_OUTSTANDING:
            self.outstanding.pop(min(self.outstanding))
        return {"type": "ping", "n": n}

    def pong(self, n: object, now_s: float) -> float | None:
        """Match a pong; returns the sample in ms, or None when it counts for nothing.

        Nothing counts but an int this socket's own ping carried and that has
        not been answered yet: a forged, repeated or very late pong changes nothing.
        """
        if isinstance(n, bool) or not isinstance(n, int):
            return None
        sent = self.outstanding.pop(n, None)
        if sent is None:
            return None
        rtt_s = now_s - sent
        if not 0 <= rtt_s <= MAX_RTT_S:
            return None
        sample = rtt_s * 1000
        self.samples.append(sample)
        if len(self.samples) > self.keep:
            del self.samples[: len(self.samples) - self.keep]
        return sample

    @property
    def pong_ms(self) -> int | None:
        """The robust round trip of the pongs in whole ms, or None before the first pong."""
        value = robust_median(list(self.samples))
        return None if value is None else int(round(value))

    @property
    def estimate_ms(self) -> int | None:
        """The round trip races use: the pongs' (`pong_ms`), never above the transport's bound."""
        return fair_rtt_ms(self.pong_ms, self.bound_ms, self.unbounded_cap_ms)

    def newly_inflated(self, slack_ms: int, min_samples: int = 3) -> bool:
        """True once per socket: every one of its last pongs (`min_samples` or more) ran over bound + slack.

        The fastest of them, not their median: an honest pong waits now and then
        behind a busy client or server (a loaded machine put honest medians 40 ms
        over the kernel's figure), while a client that holds its pongs back holds
        back every one.
        """
        if self.inflation_counted or len(self.samples) < min_samples:
            return False
        if not inflated(int(round(min(self.samples))), self.bound_ms, slack_ms):
            return False
        self.inflation_counted = True
        return True

    def worth_storing(self, now_s: float | None = None) -> int | None:
        """The estimate, if it moved enough since the last one stored to be written again (else None).

        Presence rows are read by every web process; a write per ping per socket
        would be a write per player every two seconds for a figure that hardly moves.
        With `now_s`, not again within STORE_MIN_GAP_S of the last write.
        """
        value = self.estimate_ms
        if value is None:
            return None
        if now_s is not None and self.stored_at is not None and now_s - self.stored_at < STORE_MIN_GAP_S:
            return None
        if self.stored_ms is not None:
            moved = abs(value - self.stored_ms)
            if moved < CHANGE_MS or moved < CHANGE_RATIO * self.stored_ms:
                return None
        return value


def compensation_ms(rtt_ms: int | None, lag_cap_ms: int) -> int:
    """What a round trip is worth in a race: all of it up to the table's cap (0 unknown, 0 with the cap off)."""
    if rtt_ms is None or lag_cap_ms <= 0:
        return 0
    return max(0, min(int(rtt_ms), int(lag_cap_ms)))


def fair_rtt_ms(pong_ms: int | None, bound_ms: float | None, unbounded_cap_ms: int | None) -> int | None:
    """The round trip a race may use: the bound when there is one (pongs only lower it), else capped pongs.

    With a bound and no pong yet, the bound itself: it is the line as the
    transport measured it, and a client cannot lengthen it by staying silent.
    """
    if bound_ms is not None:
        bound = max(0, int(round(bound_ms)))
        return bound if pong_ms is None else min(pong_ms, bound)
    if pong_ms is None or unbounded_cap_ms is None:
        return pong_ms
    return min(pong_ms, max(0, unbounded_cap_ms))


def inflated(pong_ms: int | None, bound_ms: float | None, slack_ms: int) -> bool:
    """Whether pongs run more than `slack_ms` above the transport's bound (never without both figures)."""
    return pong_ms is not None and bound_ms is not None and pong_ms > bound_ms + slack_ms
