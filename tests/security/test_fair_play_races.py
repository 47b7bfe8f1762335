"""Attacks on fair races through real sockets (PROTOCOL.md "Fair play"; figures in docs/fair-races.md, "Attacks on fair races: figures").

1. Fake lag: a client on a real 80 ms line (tests/support/delayline.py: the
   kernel's TCP sees the delay) answers the server's pings 185 ms late and
   smacks 250 ms after a Smack It! card, against an honest player smacking
   180 ms after it. It used to get 200 ms of compensation (the cap) and win
   every race with judged reactions of 144-170 ms; now its round trip is the
   kernel's (~80 ms), it loses, and its fair-play record counts `rtt_inflated`.
   An honest player on the same line still gets its ~80 ms.
2. A script smacking 8 ms after the card arrives used to win every race with
   judged reactions of 10-29 ms; now each smack is an anticipation (under the
   table's `min_reaction_ms` 100), a false smack, and never wins.

The drivers are tools/loadtest/fair_play.py (which prints the figures, also
against an older checkout with `--root`). On PostgreSQL + Redis when the
environment names them, else on the embedded default.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

from tests.integration.stack import stack
from tests.support.delayline import unavailable
from tools.loadtest import fair_play

pytestmark = [pytest.mark.processes, pytest.mark.timeout(900)]

SERVICES = os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(os.environ.get("REDIS_URL"))
RACES = 8


@pytest.fixture(scope="module")
def platform() -> Iterator[fair_play.Platform]:
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    with fair_play.platform(SERVICES) as p:
        yield p


def test_answering_pings_late_buys_no_more_than_the_real_line(platform: fair_play.Platform) -> None:
    tag = f"a{os.getpid()}"
    out = asyncio.run(fair_play.fake_lag(platform, tag, RACES))
    assert out.races >= RACES, out
    assert out.far_won <= 1 and out.near_won >= RACES - 1, out  # before: the faker won 12 of 12
    # the round trip the table shows and races use is the line's (80 ms), not the pongs' (265 ms)
    assert out.far_rtt_ms is not None and 60 <= out.far_rtt_ms <= 130, out
    judged = [far for far, _near in out.reactions if far >= 0]
    assert all(ms >= 180 for ms in judged), out  # before: 144-170 ms for a 250 ms reaction
    assert platform.rtt_inflated(f"lagger{tag}") >= 1, "its pongs ran 185 ms over the kernel's round trip"


def test_an_honest_player_on_the_same_line_keeps_its_round_trip(platform: fair_play.Platform) -> None:
    tag = f"b{os.getpid()}"
    out = asyncio.run(fair_play.honest_line(platform, tag, RACES))
    assert out.races >= RACES, out
    assert out.far_rtt_ms is not None and 60 <= out.far_rtt_ms <= 130, out
    # 100 ms faster than the direct player, 80 ms of it lost on the line and given back: it wins
    assert out.far_won >= 0.75 * out.races, out
    assert platform.rtt_inflated(f"far{tag}") == 0, "an honest client is never counted"


def test_a_script_smacking_8_ms_after_the_card_never_wins() -> None:
    tag = f"c{os.getpid()}"
    with stack(services=SERVICES) as s:
        try:
            p = fair_play.Platform(s=s, line=None, line_port=0)  # type: ignore[arg-type] - direct sockets only
            out = asyncio.run(fair_play.script(p, tag, 2 * RACES))
        except BaseException:
            print(s.log_text())
            raise
    assert out.races >= 2 * RACES, out
    assert out.far_won == 0, out  # before: the script won 12 of 12 with judged reactions of 10-29 ms
    assert out.far_anticipated >= RACES // 2 and out.near_won >= RACES // 2, out  # each card: anticipation, then the person
