"""Statistics in the database: counted once per match from its log, recompute equals live."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from accounts.services import bot_user
from games.kit.registry import get_bot, get_rules
from stats import services as stats_services
from stats.figures import figures, match_figures, tally_add_seat, tally_empty
from stats.models import GameStats, MatchStats, PlayerGameStats
from tests.games.factories import user
from tests.replays.factories import finished_match
from tests.support.simulate import play_bots

pytestmark = pytest.mark.django_db(transaction=True)


def stored() -> tuple[dict, dict, dict]:
    return (
        {(r.user_id, r.game): r.tally for r in PlayerGameStats.objects.all()},
        {r.game: r.tally for r in GameStats.objects.all()},
        {r.match_id: r.figures for r in MatchStats.objects.all()},
    )


def bot_logged_match(game: str, players: list, seed: int, minute: float, levels: list[str]):
    report = play_bots(get_rules(game), get_bot(game), levels, seed=seed)
    places = {p["seat"]: p["place"] for p in report.outcome["placements"]}
    m = finished_match(game, players, [places[s] for s in range(len(players))], minute=minute, events=report.log)
    m.outcome = report.outcome
    m.save(update_fields=["outcome"])
    return m, report


def test_counted_once_and_recompute_equals_live() -> None:
    ada, bea = user("ada"), user("bea")
    easy = bot_user(slug="zack", level="easy")
    matches = [
        bot_logged_match("zack", [ada, bea, easy], 1, 1, ["normal", "hard", "easy"])[0],
        bot_logged_match("zack", [easy, ada, easy, bea], 2, 2, ["easy", "normal", "easy", "hard"])[0],
        bot_logged_match("smackit", [bea, ada], 3, 3, ["hard", "normal"])[0],
        bot_logged_match("zwicker", [ada, bea, easy], 4, 4, ["normal", "hard", "easy"])[0],
    ]
    for m in matches:
        assert stats_services.match_stats_record(match_id=m.pk) is True
    live = stored()
    for m in matches:
        assert stats_services.match_stats_record(match_id=m.pk) is False  # once
    assert stored() == live
    MatchStats.objects.all().delete()  # the recompute starts from the event logs alone
    PlayerGameStats.objects.update(tally=tally_empty())
    GameStats.objects.update(tally=tally_empty())
    out = io.StringIO()
    call_command("recompute_stats", stdout=out)
    assert "zack: 2 finished matches counted" in out.getvalue() and "smackit: 1 finished" in out.getvalue()
    assert stored() == live
    tally = PlayerGameStats.objects.get(user=easy, game="zack").tally
    assert tally["played"] == 3  # one seat in the first match, two in the second
    assert GameStats.objects.get(game="zack").tally["played"] == 2


def test_a_players_figures_are_the_sum_of_its_matches() -> None:
    ada, bea, cy = user("ada"), user("bea"), user("cy")
    expected = tally_empty()
    for i in range(3):
        seats = [ada, bea, cy] if i % 2 == 0 else [cy, ada, bea]
        m, report = bot_logged_match("zack", seats, 10 + i, i, ["hard", "normal", "easy"])
        stats_services.match_stats_record(match_id=m.pk)
        mf = match_figures("zack", report.log, 3, report.outcome)
        tally_add_seat(expected, mf, mf.per_seat[seats.index(ada)])
    got = figures(PlayerGameStats.objects.get(user=ada, game="zack").tally, "zack")
    assert got == figures(expected, "zack")
    assert got["played"] == 3 and got["reaction_median_ms"] is not None
