"""ZIGZAG bots notice their partner's sign late now and then by level (easy, normal), hard bots never."""

from __future__ import annotations

import pytest

from games.zigzag.bot import LATE_FACTOR, LEVELS, announce_span

SIGNS = 5000


@pytest.mark.parametrize("name", ["easy", "normal", "hard"])
def test_late_announcements_come_at_the_level_rate(name: str) -> None:
    lv = LEVELS[name]
    spans = [announce_span(lv, seat, seq) for seq in range(SIGNS) for seat in (0, 1)]
    late = sum(span != lv.announce for span in spans) / len(spans)
    if name == "hard":
        assert late == 0.0
    else:
        assert 0.8 * lv.late < late < 1.2 * lv.late
        assert all(span in (lv.announce, (lv.announce[0] * LATE_FACTOR, lv.announce[1] * LATE_FACTOR)) for span in spans)
