"""The rating people read: 1500 at the start, 40 per point of the conservative figure, ± 40 sigma."""

from __future__ import annotations

import pytest

from stats import ratings
from stats.models import Rating
from stats.selectors import rating_payload
from tests.games.factories import user


def test_a_newcomer_reads_1500() -> None:
    start = ratings.initial()
    assert ratings.friendly_of(start.display) == 1500
    assert ratings.friendly_spread(start.sigma) == 333


def test_the_friendly_figure_keeps_the_order_of_display() -> None:
    displays = [-4.2, -0.3, 0.0, 0.01, 3.5, 17.25]
    friendly = [ratings.friendly_of(d) for d in displays]
    assert friendly == sorted(friendly) and friendly[1] == 1488 and friendly[-1] == 2190


@pytest.mark.django_db
def test_the_payload_keeps_protocol_fields_and_adds_the_friendly_ones() -> None:
    row = Rating.objects.create(user=user("ann"), game="tiny", mu=26.0, sigma=5.0, display=11.0, rated_matches=3, provisional=True)
    out = rating_payload(row)
    assert {"mu", "sigma", "display"} <= set(out)
    assert out["display"] == 11.0 and out["friendly"] == 1940 and out["friendly_spread"] == 200
