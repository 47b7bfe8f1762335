"""How experienced the people at a match are: finished matches of its game per human seat (a read).

Why: bots go easy on newcomers (games/zack/bot.py: a bot never calls a new
player "too slow" before a generous newcomer margin); the bot gets the figure
in `BotContext.experience`. Counted from the games' own records (finished
matches the user sat at), not from stats: the write side never reads the read
side (ARCHITECTURE.md "Layers"). The figure is that of the match's start and
does not change during it, so it is read once per match and process.
"""

from __future__ import annotations

from functools import lru_cache

from django.db.models import Count

from games.models import Match, MatchPlayer


def human_experience(*, match_id: int) -> dict[int, int]:
    """Seat -> finished matches of this game its human played before the match (bot seats are absent)."""
    return dict(_experience(match_id))


@lru_cache(maxsize=4096)
def _experience(match_id: int) -> dict[int, int]:
    """Two queries, once per match and process (the caller gets a copy)."""
    match = Match.objects.filter(pk=match_id).only("game", "started_at").first()
    if match is None:
        return {}
    humans = dict(
        MatchPlayer.objects.filter(match_id=match_id, bot_level="", user__is_bot=False).values_list("user_id", "seat")
    )
    if not humans:
        return {}
    played = dict(
        MatchPlayer.objects.filter(
            user_id__in=list(humans), match__game=match.game, match__status=Match.Status.FINISHED,
            match__started_at__lt=match.started_at,
        )
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    return {seat: played.get(user_id, 0) for user_id, seat in humans.items()}
