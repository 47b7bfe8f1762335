"""Writes of the replay side: snapshots for seeking, and importing an exported match.

An import is a re-verification: the log is folded with the game's rules and
the match is refused unless the fold reproduces the stored outcome, so a
document that was edited, truncated or made by other rules does not become
history here.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.models import User, is_reserved_username
from accounts.services import bot_free_number, bot_user
from games import errors
from games.engine import BOT_LEVELS, RuleError
from games.kit.registry import get_rules
from games.models import Match, MatchEvent, MatchPlayer, Snapshot
from games.services.actions import SNAPSHOT_EVERY
from replays.selectors import EXPORT_FORMAT

# What a rules module may raise when it folds a log it never produced itself.
_FOLD_ERRORS = (RuleError, KeyError, IndexError, TypeError, ValueError, AttributeError)


def _json_copy(value: Any) -> Any:
    """A detached copy as the database will store it (folds may share or mutate structure)."""
    return json.loads(json.dumps(value))


def fold_with_snapshots(
    rules: Any, events: list[dict[str, Any]], *, every: int = SNAPSHOT_EVERY, wanted: set[int] | None = None
) -> tuple[Any, list[tuple[int, Any]]]:
    """Fold a stored log (seqs from 1) and copy the state after every `every`-th event.

    Pure. `wanted` restricts the copies to those seqs. Returns the final state
    and `[(seq, state)]`.
    """
    state = None
    snaps: list[tuple[int, Any]] = []
    for e in events:
        state = rules.fold(state, {"kind": e["kind"], "seat": e.get("seat"), "data": e.get("data", {})})
        seq = e["seq"]
        if seq % every == 0 and (wanted is None or seq in wanted):
            snaps.append((seq, _json_copy(state)))
    return state, snaps


def snapshots_write(*, match: Match, every: int = SNAPSHOT_EVERY) -> int:
    """Write the missing snapshots of a match: one in each block of `every` events.

    Idempotent and cheap when nothing is missing (one query): live play
    already writes one per block, so at a match's end this only fills in
    matches played or imported without them. Returns how many were written.
    """
    blocks = {seq // every for seq in Snapshot.objects.filter(match=match).values_list("seq", flat=True)}
    wanted = {k * every for k in range(1, match.seq // every + 1) if k not in blocks}
    if not wanted:
        return 0
    rules = get_rules(match.game)
    events = (
        MatchEvent.objects.filter(match=match, seq__lte=max(wanted))
        .order_by("seq")
        .values("seq", "kind", "seat", "data")
        .iterator(chunk_size=2000)
    )
    _, snaps = fold_with_snapshots(rules, events, every=every, wanted=wanted)  # type: ignore[arg-type]
    Snapshot.objects.bulk_create([Snapshot(match=match, seq=s, state=st) for s, st in snaps], ignore_conflicts=True)
    return len(snaps)


def snapshots_on_match_finished(match_id: int) -> None:
    """The `games.hooks.on_match_finished` listener: fill in snapshots of the match that just ended."""
    match = Match.objects.filter(pk=match_id).first()
    if match is not None:
        snapshots_write(match=match)


# --- import ---------------------------------------------------------------------


def _refuse(message: str) -> errors.PlatformError:
    return errors.bad_request(message, "import_refused")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_username(name: Any) -> str:
    if not isinstance(name, str) or not 0 < len(name) <= 150 or not all(c.isalnum() or c in "@.+-_" for c in name):
        raise _refuse(f"username {name!r} is not valid (1 to 150 letters, digits and @.+-_)")
    if is_reserved_username(name):  # a person created under a bot's name would be seated and rated as that bot
        raise _refuse(f"username {name!r} is reserved for the platform's bots, but the match seats a person of that name")
    return name


def _bot_level(seat: dict[str, Any], game: str) -> str:
    level = seat.get("level")
    if level in BOT_LEVELS:
        return level
    name = str(seat.get("username", ""))
    for candidate in BOT_LEVELS:
        if name == f"bot-{game}-{candidate}":
            return candidate
    return "normal"


def _check_seats(document: dict[str, Any], rules: Any) -> list[dict[str, Any]]:
    seats = document.get("seats")
    if not isinstance(seats, list) or not rules.min_seats <= len(seats) <= rules.max_seats:
        raise _refuse(f"seats must list {rules.min_seats} to {rules.max_seats} players of {rules.name}")
    if not all(isinstance(s, dict) and _is_int(s.get("seat")) for s in seats):
        raise _refuse("every seat needs a number `seat`")
    if sorted(s["seat"] for s in seats) != list(range(len(seats))):
        raise _refuse(f"seats must be numbered 0 to {len(seats) - 1}, each once")
    humans = [_check_username(s.get("username")).lower() for s in seats if not s.get("bot")]
    if len(set(humans)) != len(humans):
        raise _refuse("a player sits at two seats")
    return sorted(seats, key=lambda s: s["seat"])


def _check_events(document: dict[str, Any], seats: int) -> list[dict[str, Any]]:
    events = document.get("events")
    if not isinstance(events, list) or not events:
        raise _refuse("events must be a non-empty list")
    last_t = 0
    for i, e in enumerate(events, start=1):
        if not isinstance(e, dict) or e.get("seq") != i:
            raise _refuse(f"event #{i} must have seq {i} (seqs run from 1 without gaps)")
        t = e.get("t_ms")
        if not _is_int(t) or t < last_t:
            raise _refuse(f"event #{i}: t_ms must be a whole number that never runs backwards")
        last_t = t
        if not isinstance(e.get("kind"), str) or not 0 < len(e["kind"]) <= 40:
            raise _refuse(f"event #{i}: kind must be a string of 1 to 40 characters")
        seat = e.get("seat")
        if seat is not None and (not _is_int(seat) or not 0 <= seat < seats):
            raise _refuse(f"event #{i}: seat must be null or from 0 to {seats - 1}")
        if not isinstance(e.get("data", {}), dict):
            raise _refuse(f"event #{i}: data must be an object")
    return events


def _when(value: Any, field: str) -> Any:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise _refuse(f"{field} must be an ISO 8601 date and time")
    return parsed


def _user_for(seat: dict[str, Any], game: str, bots: list[tuple[str, int]] | None = None) -> tuple[User, str]:
    """A seat's account here: bots are this installation's bot users (`bots`: the (level, number) of the
    match's bots so far, so two bots of a level are two accounts); people are matched by username."""
    if seat.get("bot"):
        level = _bot_level(seat, game)
        used = bots if bots is not None else []
        number = bot_free_number(slug=game, level=level, seated=used)
        used.append((level, number))
        return bot_user(slug=game, level=level, number=number), level
    name = seat["username"]
    user = User.objects.filter(username__iexact=name).first()
    if user is None:
        user = User(username=name)
        user.set_unusable_password()
        user.save()
    elif user.is_bot:
        raise _refuse(f"{name} is a bot account here, but the match seats a person of that name")
    return user, ""


def match_import(*, document: Any, keep_ranked: bool = False) -> Match:
    """Recreate an exported match under new ids, after re-verifying its log.

    Refuses (PlatformError `import_refused`, nothing written) a document that
    is malformed, is of an unknown game, is not over, or whose log does not
    fold to its stored outcome. Users are matched by username and created as
    needed (without a usable password); bots become this installation's bot
    users. An imported match is casual unless `keep_ranked`: it must not move
    local ratings by accident. Snapshots are written as live play writes them.
    """
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise _refuse(f"not a match export: format must be {EXPORT_FORMAT!r}")
    game = document.get("game")
    try:
        rules = get_rules(game) if isinstance(game, str) else None
    except KeyError:
        rules = None
    if rules is None:
        raise _refuse(f"unknown game {game!r}")
    status = document.get("status")
    if status not in (Match.Status.FINISHED, Match.Status.ABORTED):
        raise _refuse("only a finished or aborted match can be imported")
    options = document.get("options", {})
    if not isinstance(options, dict):
        raise _refuse("options must be an object")
    seats = _check_seats(document, rules)
    events = _check_events(document, len(seats))
    started_at = _when(document.get("started_at"), "started_at") or timezone.now()
    ended_at = _when(document.get("ended_at"), "ended_at") or timezone.now()

    try:
        state, snaps = fold_with_snapshots(rules, events)
        folded = _json_copy(rules.outcome(state))
        state = _json_copy(state)
    except _FOLD_ERRORS as e:
        raise _refuse(f"the log does not fold with the rules of {rules.name}: {e}") from None
    stored = document.get("outcome")
    if status == Match.Status.ABORTED and folded is not None:
        raise _refuse("the log ends the match, but the document says it was aborted")
    if folded != stored:
        raise _refuse(
            f"folding the log does not reproduce the stored outcome: the log gives {json.dumps(folded)}, "
            f"the document says {json.dumps(stored)}"
        )

    places = {p["seat"]: p["place"] for p in (folded or {}).get("placements", [])}
    with transaction.atomic():
        bots: list[tuple[str, int]] = []
        players = [(s, *_user_for(s, game, bots)) for s in seats]
        match = Match.objects.create(
            table=None,
            game=game,
            seats=len(seats),
            options=options,
            ranked=bool(document.get("ranked")) and keep_ranked,
            state=state,
            seq=len(events),
            last_t_ms=events[-1]["t_ms"],
            status=status,
            outcome=folded,
            started_at=started_at,
            ended_at=ended_at,
            seed=str(document.get("seed") or "")[:64],
        )
        MatchPlayer.objects.bulk_create(
            MatchPlayer(match=match, seat=s["seat"], user=user, bot_level=level, place=places.get(s["seat"]))
            for s, user, level in players
        )
        MatchEvent.objects.bulk_create(
            (
                MatchEvent(match=match, seq=e["seq"], t_ms=e["t_ms"], kind=e["kind"], seat=e.get("seat"), data=e.get("data", {}))
                for e in events
            ),
            batch_size=2000,
        )
        Snapshot.objects.bulk_create([Snapshot(match=match, seq=s, state=st) for s, st in snaps], batch_size=200)
    return match
