"""Which deals are still secret: the one rule every read of seeds, logs and other tables asks.

A match's seed decides every card it deals (`random.Random(seed)` in
`games.services.matches._match_create`), and matches dealt from one seed hold the same
cards: the tables of one size in a duplicate tournament round. So a deal is
secret while ANY match dealt from it is live, not only while the match asked
about is; and while another table still plays it, even this table's public
record (the cards played, the hands shown at the end) is the other table's
hidden cards. Callers: the replay API and pages (replays.selectors), the
tournament payload's round seeds (tournaments.selectors), the table socket's
spectators (games.socket.consumers).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.models import Match


def secret_deals(*, seeds: Iterable[str]) -> set[str]:
    """The seeds among `seeds` that still deal a live match (a blank seed deals nothing shared)."""
    wanted = {s for s in seeds if s}
    if not wanted:
        return set()
    return set(Match.objects.filter(status=Match.Status.LIVE, seed__in=wanted).values_list("seed", flat=True))


def deal_is_secret(*, match: Match) -> bool:
    """Whether anything beyond what its own players saw may still be hidden: live here, or live elsewhere."""
    return match.status == Match.Status.LIVE or bool(secret_deals(seeds=[match.seed]))


def deal_played_elsewhere(*, match: Match) -> bool:
    """Another live match holds these cards: this match shows itself only to its own players, each their seat."""
    if not match.seed:
        return False
    return Match.objects.filter(status=Match.Status.LIVE, seed=match.seed).exclude(pk=match.pk).exists()
