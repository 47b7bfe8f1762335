"""Fair-play records from real matches: race claims played through the action path, read back from the event log."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from accounts.models import User
from games.kit import registry
from games.models import Match
from games.services.actions import action_submit
from games.services.tables import table_create, table_join, table_start
from moderation import fair_play
from moderation.models import FairPlayRecord
from moderation.services import fair_play_rtt_inflated_record
from tests.conftest import Clock, run_jobs
from tests.games.factories import user
from tests.moderation.factories import client as _client
from tests.moderation.factories import staff
from tests.moderation.players import person
from tests.support import racegame

pytestmark = pytest.mark.django_db(transaction=True)

# (reaction after the card was shown, round trip the claim is credited with, its real line) in ms
Player = Callable[[random.Random], tuple[int, int, int]]


@pytest.fixture()
def racey() -> Iterator[Any]:
    registry.register(racegame.RULES)
    yield racegame.RULES
    registry.unregister("racey")


def honest(rng: random.Random) -> tuple[int, int, int]:
    line = 60
    return person(rng).reaction(rng), line, line


def scripted(rng: random.Random) -> tuple[int, int, int]:
    return rng.randint(8, 30), 30, 30


def fake_lag(rng: random.Random) -> tuple[int, int, int]:
    """Reacts like a person (250-280 ms) on a 40 ms line but says 190 ms: judged 100-130 ms."""
    return rng.randint(250, 280), 190, 40


def play_match(clock: Clock, a: User, b: User, races: int, players: tuple[Player, Player], rng: random.Random) -> Match:
    """One ranked match of `races` races between a (seat 0) and b (seat 1), who claim every other race.

    One claim a race: with no other socket open a race is settled at its first claim (a second one
    would be a late grab, not a claim), so each player's every claim is its own `race_claimed`.
    """
    table = table_create(host=a, game="racey", seats=2, options={"rounds": races}, ranked=True)
    table_join(table_id=table.pk, user=b)
    match = table_start(table_id=table.pk, by=a)
    for r in range(races):
        seat = r % 2
        action_submit(match_id=match.pk, seat=0, action={"kind": "show"}, action_id=f"s{r}")
        reaction, credited, line = players[seat](rng)
        clock.advance((reaction + line) / 1000)  # the card reaches the player half a line later, the claim comes back in the other half
        action_submit(match_id=match.pk, seat=seat, action={"kind": "grab"}, action_id=f"g{r}", rtt_ms=credited)
        clock.advance(1)
    run_jobs(clock)  # the match's end: ratings, statistics, and the fair-play review
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match






@pytest.mark.parametrize(("cheat", "reasons"), [(scripted, {"median_below_human", "fast_share"}), (fake_lag, {"median_below_human"})])
def test_a_cheater_is_flagged_from_the_matches_it_played_and_a_person_is_not(
    racey: Any, clock: Clock, cheat: Player, reasons: set[str]
) -> None:
    rng = random.Random(11)
    ada, bot = user("ada"), user("cheater")
    for _ in range(2):
        play_match(clock, ada, bot, 30, (honest, cheat), rng)
    mod = staff()
    r = _client(mod).get("/api/stats/players/cheater/")
    assert r.status_code == 200
    record = r.json()["fair_play"]
    assert record["races"] == 30 and record["flagged"] is True and reasons <= set(record["reasons"])
    if cheat is fake_lag:
        assert 100 <= record["judged_median_ms"] <= 130
    person_record = _client(mod).get("/api/stats/players/ada/").json()["fair_play"]
    assert person_record["races"] == 30 and person_record["flagged"] is False and person_record["reasons"] == []
    # the review after each match stored the flag: the moderators' queue lists the cheater, with evidence
    assert FairPlayRecord.objects.get(user=bot).flagged and not FairPlayRecord.objects.get(user=ada).flagged
    queue = _client(mod).get("/api/moderation/queue/").json()
    assert [e["username"] for e in queue] == ["cheater"]
    evidence = queue[0]["evidence"]["fair_play"]
    assert sum(b["count"] for b in evidence["histogram"]) == 30 and len(evidence["matches"]) == 2
    assert evidence["round_trips"]["median_ms"] == (30 if cheat is scripted else 190)


def test_nobody_but_staff_sees_a_fair_play_record(racey: Any, clock: Clock) -> None:
    rng = random.Random(12)
    ada, cy = user("ada"), user("cy")
    play_match(clock, ada, cy, 6, (honest, scripted), rng)
    for who in (None, ada, cy):
        r = _client(who).get("/api/stats/players/cy/")
        assert r.status_code == 200 and "fair_play" not in r.json()
        assert r.json()["username"] == "cy"
    assert "fair_play" in _client(staff()).get("/api/stats/players/cy/").json()


def test_rtt_inflated_is_counted_for_the_live_side_and_flags_at_the_threshold(racey: Any, clock: Clock) -> None:
    ada = user("ada")
    for _ in range(fair_play.RTT_INFLATED_FLAG - 1):
        fair_play_rtt_inflated_record(user_id=ada.pk)
    mod = staff()
    record = _client(mod).get("/api/stats/players/ada/").json()["fair_play"]
    assert record == {"races": 0, "judged_median_ms": None, "anticipations": 0, "rtt_inflated": 4, "flagged": False, "reasons": []}
    fair_play_rtt_inflated_record(user_id=ada.pk)
    assert _client(mod).get("/api/stats/players/ada/").json()["fair_play"]["reasons"] == ["rtt_inflated"]


def test_soak_people_through_real_matches_flag_nobody(racey: Any, clock: Clock) -> None:
    """Simulated people play real matches (every claim through action_submit and the event log): no flag.

    The size is FAIR_PLAY_SOAK_MATCH_RACES (default 1,000 races: 10 pairs x 2 matches x 50 races, 25 claims a seat).
    """
    import os

    total = int(os.environ.get("FAIR_PLAY_SOAK_MATCH_RACES", "1000"))
    per_match = 50
    pairs = max(1, total // (per_match * 2))
    rng = random.Random(13)
    people = []
    for p in range(pairs):
        a, b = user(f"pa{p}"), user(f"pb{p}")
        pa, pb = person(rng), person(rng)
        people += [a, b]
        for _ in range(2):
            play_match(clock, a, b, per_match, (lambda r, x=pa: (x.reaction(r), 60, 60), lambda r, x=pb: (x.reaction(r), 110, 110)), rng)
    rows = FairPlayRecord.objects.filter(user__in=people)
    assert rows.count() == len(people) and sum(r.races for r in rows) == pairs * 2 * per_match
    assert [r.user.username for r in rows if r.flagged] == []
    assert _client(staff()).get("/api/moderation/queue/").json() == []
