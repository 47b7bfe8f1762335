"""What bots learn of the people at a match: finished matches of the same game before it, per human seat."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from accounts.models import User
from games.first_hour.experience import human_experience
from games.models import Match, MatchPlayer
from tests.games.factories import user


def _match(game: str, status: str, players: list[tuple[User, str]], when: dt.datetime) -> Match:
    match = Match.objects.create(game=game, seats=len(players), seed="s", status=status, started_at=when)
    for seat, (u, level) in enumerate(players):
        MatchPlayer.objects.create(match=match, seat=seat, user=u, bot_level=level)
    return match


def test_experience_counts_finished_matches_of_the_game_before_this_one(db: None) -> None:
    anna, ben = user("anna"), user("ben")
    bot = User.objects.create_user("zack-bot", password="x", is_bot=True)
    t0 = timezone.now() - dt.timedelta(days=1)
    for k in range(3):
        _match("zack", Match.Status.FINISHED, [(anna, ""), (bot, "normal")], t0 + dt.timedelta(minutes=k))
    _match("smackit", Match.Status.FINISHED, [(ben, ""), (anna, "")], t0)  # another game: not counted
    _match("zack", Match.Status.LIVE, [(ben, ""), (bot, "hard")], t0)  # not finished: not counted
    now = _match("zack", Match.Status.LIVE, [(anna, ""), (ben, ""), (bot, "easy")], t0 + dt.timedelta(hours=1))
    _match("zack", Match.Status.FINISHED, [(ben, "")], t0 + dt.timedelta(hours=2))  # after this match: not counted
    assert human_experience(match_id=now.pk) == {0: 3, 1: 0}  # the bot seat is absent
    assert human_experience(match_id=now.pk) is not human_experience(match_id=now.pk)  # callers get their own copy
    assert human_experience(match_id=10**9) == {}
