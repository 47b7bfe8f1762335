"""Writes for ratings: applied once per match, in one order, rebuilt on demand.

`stats.services.match_finished_process` (the Celery task `stats.match_finished`,
scheduled by the match-end hook) calls `match_rating_apply`; the command
`recompute_ratings` calls `ratings_recompute`.

Ratings depend on order, so they are applied in one order everywhere: by the
match's end (`ended_at`, then the match id). Every rating write of a game
holds that game's `RatingLedger` row. A match that ends after the last one
applied is simply applied; one that arrives late (a commit overtaken by a
later match, an imported old match) makes its game re-rate every match from
it onwards. So the live figures always equal a recompute from the records.

Rated results mean play (PROTOCOL.md "Fair play", docs/fair-play.md): a match of bots
only is never rated, nor one with an account the moderators marked as a cheater (the
apps that know of such accounts register `unrated_accounts_from`), and each account's
change is damped by how often it already met the same accounts in rated matches of the
last `ratings.REPEAT_WINDOW_DAYS` days (`PairHistory`, `ratings.account_weight`).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import User
from games.kit.registry import get_rules
from games.models import Match, MatchPlayer
from stats import ratings
from stats.models import Rating, RatingChange, RatingLedger

BATCH = 500


@dataclass(frozen=True)
class RatedMatch:
    """What rating a match needs from its records."""

    id: int
    game: str
    ended_at: dt.datetime
    outcome: dict[str, Any] | None
    accounts: list[int]  # user id per seat

    @property
    def key(self) -> tuple[dt.datetime, int]:
        return (self.ended_at, self.id)


@dataclass
class Entry:
    rating: ratings.Rating
    rated_matches: int


_unrated_sources: list[Callable[[], set[int]]] = []


def unrated_accounts_from(fn: Callable[[], set[int]]) -> Callable[[], set[int]]:
    """Register a source of accounts whose matches are not rated (moderation's marked cheaters)."""
    _unrated_sources.append(fn)
    return fn


def _unrated_accounts() -> set[int]:
    out: set[int] = set()
    for fn in _unrated_sources:
        out |= fn()
    return out


class PairHistory:
    """When each pair of accounts met in rated matches of one game: the repeats that damp a result."""

    def __init__(self) -> None:
        self._met: dict[tuple[int, int], list[dt.datetime]] = defaultdict(list)

    @staticmethod
    def _pair(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    def add(self, accounts: Iterable[int], at: dt.datetime) -> None:
        people = sorted(set(accounts))
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                self._met[(a, b)].append(at)

    def repeats(self, account: int, others: Iterable[int], at: dt.datetime) -> dict[int, int]:
        since = at - dt.timedelta(days=ratings.REPEAT_WINDOW_DAYS)
        return {b: sum(since <= t < at for t in self._met.get(self._pair(account, b), ())) for b in set(others) - {account}}

    @classmethod
    def load(cls, game: str, users: Iterable[int], before: tuple[dt.datetime, int]) -> PairHistory:
        """The rated matches of `users` in the window before `before` (a match's rating key), from the history rows."""
        history = cls()
        users = set(users)
        since = before[0] - dt.timedelta(days=ratings.REPEAT_WINDOW_DAYS)
        rows = (
            RatingChange.objects.filter(game=game, user_id__in=users, ended_at__gte=since)
            .exclude(_after(before))
            .values_list("match_id", "user_id", "ended_at")
        )
        by_match: dict[int, tuple[dt.datetime, list[int]]] = {}
        for mid, uid, at in rows:
            by_match.setdefault(mid, (at, []))[1].append(uid)
        for at, accounts in by_match.values():
            history.add(accounts, at)
        return history


def _teams(game: str) -> bool:
    try:
        return bool(getattr(get_rules(game), "teams", False))
    except KeyError:
        return False


def _ledger_lock(game: str) -> RatingLedger:
    """Take the game's rating lock (an UPDATE first: the row lock on PostgreSQL, the write lock on SQLite)."""
    if not RatingLedger.objects.filter(game=game).update(updates=F("updates") + 1):
        RatingLedger.objects.get_or_create(game=game)
        RatingLedger.objects.filter(game=game).update(updates=F("updates") + 1)
    return RatingLedger.objects.select_for_update().get(game=game)


def players_by_seat(match_ids: list[int]) -> dict[int, dict[int, int]]:
    """Per match id: the user id at each seat (one query for a batch of matches)."""
    out: dict[int, dict[int, int]] = defaultdict(dict)
    for mid, seat, uid in MatchPlayer.objects.filter(match_id__in=match_ids).values_list("match_id", "seat", "user_id"):
        out[mid][seat] = uid
    return out


def _rated_matches(qs: Iterable[Match]) -> list[RatedMatch]:
    matches = list(qs)
    seats = players_by_seat([m.pk for m in matches])
    everyone = {u for by_seat in seats.values() for u in by_seat.values()}
    people = set(User.objects.filter(pk__in=everyone, is_bot=False).values_list("pk", flat=True))
    unrated = _unrated_accounts() if everyone else set()
    out = []
    for m in matches:
        by_seat = seats[m.pk]
        if len(by_seat) != m.seats:
            continue  # a seat without a player: nothing to rate
        if not people & set(by_seat.values()) or unrated & set(by_seat.values()):
            continue  # bots only, or a marked cheater at the table: not rated
        out.append(RatedMatch(m.pk, m.game, m.ended_at, m.outcome, [by_seat[s] for s in range(m.seats)]))
    return out


def _rateable() -> Q:
    return Q(ranked=True, status=Match.Status.FINISHED, ended_at__isnull=False, outcome__isnull=False)


def _rate_into(book: dict[int, Entry], match: RatedMatch, teams: bool, history: PairHistory) -> list[RatingChange]:
    """Rate one match against the ratings in `book`, update the book and the pair history, return the history rows."""
    places = ratings.places_of(match.outcome, len(match.accounts))
    before = {u: book[u].rating for u in set(match.accounts) if u in book}
    after = ratings.rate_match(accounts=match.accounts, ratings=before, places=places, teams=teams)
    changes = []
    for user_id, rated in after.items():
        old = book.get(user_id) or Entry(ratings.initial(), 0)
        weight = ratings.account_weight(history.repeats(user_id, match.accounts, match.ended_at))
        new = ratings.damped(old.rating, rated, weight)
        book[user_id] = Entry(new, old.rated_matches + 1)
        place = min(places[s] for s, u in enumerate(match.accounts) if u == user_id)
        changes.append(
            RatingChange(
                match_id=match.id,
                user_id=user_id,
                game=match.game,
                ended_at=match.ended_at,
                place=place,
                mu_before=old.rating.mu,
                sigma_before=old.rating.sigma,
                mu=new.mu,
                sigma=new.sigma,
                display=new.display,
            )
        )
    if after:
        history.add(match.accounts, match.ended_at)
    return changes


def _book_save(game: str, book: dict[int, Entry], users: Iterable[int]) -> None:
    now = timezone.now()
    rows = []
    for u in users:
        e = book.get(u)
        if e is None:
            continue
        rows.append(
            Rating(
                user_id=u,
                game=game,
                mu=e.rating.mu,
                sigma=e.rating.sigma,
                display=e.rating.display,
                rated_matches=e.rated_matches,
                provisional=ratings.is_provisional(rated_matches=e.rated_matches, sigma=e.rating.sigma),
                updated_at=now,
            )
        )
    for i in range(0, len(rows), BATCH):
        Rating.objects.bulk_create(
            rows[i : i + BATCH],
            update_conflicts=True,
            unique_fields=["user", "game"],
            update_fields=["mu", "sigma", "display", "rated_matches", "provisional", "updated_at"],
        )


def _book_of(game: str, users: Iterable[int]) -> dict[int, Entry]:
    return {
        u: Entry(ratings.Rating(mu, sigma), n)
        for u, mu, sigma, n in Rating.objects.filter(game=game, user_id__in=list(users)).values_list(
            "user_id", "mu", "sigma", "rated_matches"
        )
    }


def _after(key: tuple[dt.datetime, int]) -> Q:
    """Rating changes of matches at or after `key` in rating order."""
    return Q(ended_at__gt=key[0]) | Q(ended_at=key[0], match_id__gte=key[1])


def _replay_from(game: str, late: RatedMatch) -> int:
    """Re-rate `late` and every match already rated after it, in order (a late arrival)."""
    key = late.key
    later_ids = set(RatingChange.objects.filter(game=game).filter(_after(key)).values_list("match_id", flat=True))
    matches = sorted([late, *_rated_matches(Match.objects.filter(pk__in=later_ids - {late.id}))], key=lambda m: m.key)
    users = {u for m in matches for u in m.accounts}
    book: dict[int, Entry] = {}
    for u in users:
        earlier = RatingChange.objects.filter(game=game, user_id=u).exclude(_after(key))
        last = earlier.order_by("-ended_at", "-match_id").values_list("mu", "sigma").first()
        if last is not None:
            book[u] = Entry(ratings.Rating(*last), earlier.count())
    RatingChange.objects.filter(match_id__in=later_ids).delete()
    teams = _teams(game)
    history = PairHistory.load(game, users, key)
    changes = [c for m in matches for c in _rate_into(book, m, teams, history)]
    RatingChange.objects.bulk_create(changes, batch_size=BATCH)
    _book_save(game, book, users)
    return len(matches)


def match_rating_apply(*, match_id: int) -> bool:
    """Apply one ranked match's rating changes, once. False when there was nothing to do."""
    match = Match.objects.filter(_rateable(), pk=match_id).first()
    if match is None:
        return False
    found = _rated_matches([match])
    if not found or len(set(found[0].accounts)) < 2:
        return False
    rated = found[0]
    with transaction.atomic():
        ledger = _ledger_lock(match.game)
        if RatingChange.objects.filter(match_id=match_id).exists():
            return False
        last = None if ledger.last_ended_at is None else (ledger.last_ended_at, ledger.last_match_id)
        if last is None or rated.key > last:
            book = _book_of(match.game, rated.accounts)
            history = PairHistory.load(match.game, rated.accounts, rated.key)
            RatingChange.objects.bulk_create(_rate_into(book, rated, _teams(match.game), history))
            _book_save(match.game, book, set(rated.accounts))
            ledger.last_ended_at, ledger.last_match_id = rated.key
        else:
            _replay_from(match.game, rated)
        ledger.save(update_fields=["last_ended_at", "last_match_id"])
    return True


def _in_rating_order(qs: Any) -> Iterator[list[RatedMatch]]:
    """Matches in rating order, in batches (their players fetched per batch)."""
    ids = list(qs.order_by("ended_at", "id").values_list("id", flat=True))
    for i in range(0, len(ids), BATCH):
        chunk = ids[i : i + BATCH]
        yield sorted(_rated_matches(Match.objects.filter(pk__in=chunk)), key=lambda m: m.key)


def recompute_per_game(*, game: str | None, found: Iterable[str], one: Callable[[str], int]) -> dict[str, int]:
    """`one(game)` for `game`, or for every game `found`, each in its own transaction: count per game."""
    done: dict[str, int] = {}
    for g in [game] if game else sorted(set(found)):
        with transaction.atomic():
            done[g] = one(g)
    return done


def ratings_recompute(*, game: str | None = None) -> dict[str, int]:
    """Every rating again from the match records, in order: returns rated matches per game."""
    found = [*Match.objects.filter(_rateable()).values_list("game", flat=True).distinct(), *Rating.objects.values_list("game", flat=True).distinct()]
    return recompute_per_game(game=game, found=found, one=_ratings_recompute_game)


def _ratings_recompute_game(g: str) -> int:
    ledger = _ledger_lock(g)
    RatingChange.objects.filter(game=g).delete()
    Rating.objects.filter(game=g).delete()
    book: dict[int, Entry] = {}
    teams = _teams(g)
    history = PairHistory()
    count = 0
    last = None
    for batch in _in_rating_order(Match.objects.filter(_rateable(), game=g)):
        changes = []
        for m in batch:
            rows = _rate_into(book, m, teams, history)
            if rows:
                count += 1
                last = m.key
            changes.extend(rows)
        RatingChange.objects.bulk_create(changes, batch_size=BATCH)
    _book_save(g, book, book.keys())
    ledger.last_ended_at, ledger.last_match_id = last if last else (None, None)
    ledger.save(update_fields=["last_ended_at", "last_match_id"])
    return count
