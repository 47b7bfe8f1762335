"""Player-facing words for every refusal, in the player's language.

Rules and services refuse with a stable `code` (PlatformError) or `rule_code` (a game's RuleError)
and an English developer sentence that may name internals ("an action needs a string kind"). The
protocol keeps both fields; what a *player* reads is decided here, once for the API (`detail`) and the
sockets (`message`): an English player keeps the specific English sentence, a German or French player
gets this catalogue's sentence for the code, translated in locale/<lang>/LC_MESSAGES/django.po. Every
code raised anywhere has an entry here (tests/games/test_error_texts.py enumerates them from the source).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.kit.registry import all_slugs, get_texts

# RuleError codes of games/engine.py and those more than one game raises (the platform sends them as
# `rule_code`); a code only one game raises has its sentence in that game's texts (games/kit/texts.py).
PLATFORM_RULE_MESSAGES: Mapping[str, Any] = {
    "bad_action": _("This move is not possible."),
    "bad_option": _("This table option is not valid."),
    "unknown_action": _("This game has no such move."),
    "match_over": _("The match is over."),
    "not_your_turn": _("It is not your turn."),
    "not_seated": _("Only a seated player can do this."),
    "resigned": _("You have left this match already."),
}


class _RuleMessages(Mapping[str, Any]):
    """rule_code -> sentence: the platform's, then every registered game's own (read through the registry at
    each use, so a game registered at run time is in it)."""

    def _all(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for slug in all_slugs():
            out.update(get_texts(slug).errors)
        return {**out, **PLATFORM_RULE_MESSAGES}

    def __getitem__(self, code: str) -> Any:
        if code in PLATFORM_RULE_MESSAGES:
            return PLATFORM_RULE_MESSAGES[code]
        for slug in all_slugs():
            errors = get_texts(slug).errors
            if code in errors:
                return errors[code]
        raise KeyError(code)

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


RULE_MESSAGES: Mapping[str, Any] = _RuleMessages()

# PlatformError codes of the services, selectors, APIs and sockets.
PLATFORM_MESSAGES: Mapping[str, Any] = {
    "rule": _("The rules do not allow this move."),
    "bad_request": _("This request is not valid."),
    "bad_message": _("The message could not be understood; nothing was done."),
    "server_error": _("The server could not handle this; nothing was done. Please try again."),
    "rate_limited": _("You are sending too fast; please slow down."),
    "not_authenticated": _("Please log in first."),
    "not_found": _("This could not be found."),
    "forbidden": _("You may not do this."),
    "conflict": _("This is not possible right now."),
    "unknown_game": _("There is no such game."),
    "unknown_player": _("There is no such player."),
    "bad_seats": _("This game cannot be played with that many players."),
    "bad_option": _("This table option is not valid."),
    "bad_seat": _("There is no such seat at this table."),
    "bad_level": _("There is no such bot level."),
    "too_many_tables": _("You already host the most open tables allowed: start or leave one first."),
    "too_many_bot_matches": _("You already watch the most matches of bots only allowed: let one finish first."),
    "too_many_sockets": _("Too many open connections: close a few tabs and try again."),
    "full": _("The table is full."),
    "seat_taken": _("This seat is taken."),
    "seat_empty": _("This seat is empty."),
    "started": _("The table has already started."),
    "already_seated": _("You are already seated at this table."),
    "not_seated": _("You are not seated at this table."),
    "not_host": _("Only the host of the table can do this."),
    "host_seat": _("The host cannot remove themselves: leave the table instead."),
    "not_full": _("Every seat must be filled first."),
    "not_finished": _("The match is not over yet."),
    "no_match": _("This table has no match yet."),
    "match_over": _("The match is over."),
    "withdrawn": _("You were withdrawn from this table: a bot plays your seat to the end."),
    "too_long": _("This message is too long."),
    "import_refused": _("This match file could not be imported."),
    "bad_perspective": _("There is no such point of view for this replay."),
    "forbidden_perspective": _("This point of view is not open to you."),
    "deal_secret": _("This deal is still being played at another table: its cards stay secret until it ends."),
    "match_live": _("A live match can be exported once it is over."),
    "not_organiser": _("Only the organiser of the tournament can do this."),
    "bad_name": _("A tournament needs a name of at most 100 characters."),
    "bad_format": _("There is no such tournament format."),
    "bad_table_size": _("This table size does not fit the game."),
    "bad_duration_minutes": _("An arena needs a duration in minutes."),
    "bad_starts_at": _("The start time must be in the future."),
    "already_open": _("Registration is already open."),
    "not_open": _("Registration is not open yet."),
    "registration_closed": _("Registration is closed."),
    "bot_account": _("Bots are added by the organiser."),
    "already_registered": _("You are already registered."),
    "not_registered": _("You are not registered."),
    "already_withdrawn": _("This player is already withdrawn."),
    "over": _("The tournament is over."),
    "already_started": _("The tournament has already started."),
    "not_running": _("Only a running tournament can be paused."),
    "not_paused": _("Only a paused tournament can be resumed."),
    "too_few_players": _("More players are needed to start."),
    "too_many_players": _("Too many players for a round robin: try Swiss."),
    # people (people/services.py) and the block rule at tables (people.selectors.blocked_between)
    "no_player": _("There is no such player."),
    "self": _("You cannot do this to yourself."),
    "blocked": _("One of you blocks the other: you cannot play at each other's tables, challenge or follow each other."),
    "not_following": _("You do not follow this player."),
    "not_blocking": _("You do not block this player."),
    "no_challenge": _("There is no such challenge."),
    "not_challenged": _("Only the challenged player answers a challenge."),
    "answered": _("This challenge is already answered."),
    "challenge_gone": _("The table of this challenge has started or is gone."),
    # fair play and matchmaking (moderation/, matchmaking/)
    "muted": _("A moderator muted you: you cannot chat for now."),
    "report_open": _("You already have an open report about this player."),
    "unknown_match": _("There is no such match."),
    "not_staff": _("Only moderators can do this."),
    "queued": _("You are already waiting for a table: leave the queue first."),
    "not_queued": _("You are not waiting for a table."),
    # leaving a match (games/services/tables.table_resign)
    "not_live": _("There is no live match to resign."),
    "resigned": _("You have left this match already."),
    "organised": _("The organiser seated you here: the match starts soon."),
}

# Codes built as f"bad_{field}" (a query or form field the player got wrong) share one sentence.
BAD_FIELD_MESSAGE = _("A value you entered is not valid.")


def catalogue_message(*, code: str, rule_code: str | None = None) -> Any:
    """The catalogue's (lazy) sentence for a refusal: the rule's own code wins over the platform's `rule`."""
    if rule_code and rule_code in RULE_MESSAGES:
        return RULE_MESSAGES[rule_code]
    if code in PLATFORM_MESSAGES:
        return PLATFORM_MESSAGES[code]
    if code.startswith("bad_"):
        return BAD_FIELD_MESSAGE
    return PLATFORM_MESSAGES["rule" if rule_code else "conflict"]


def player_message(*, code: str, fallback: str, rule_code: str | None = None, language: str | None = None) -> str:
    """What a player reads for a refusal, in `language` (default: the active one).

    English keeps `fallback`, the refusing code's own sentence, which says exactly why; other
    languages get the translated catalogue sentence for the code."""
    lang = (language or translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    if lang == "en":
        return fallback
    with translation.override(lang):
        return str(catalogue_message(code=code, rule_code=rule_code))


def socket_language(scope: Mapping[str, Any]) -> str:
    """The language of the page that opened a socket: Django's language cookie, else Accept-Language.

    The same order LocaleMiddleware uses for the page itself (no language prefix in our URLs)."""
    supported = {code for code, _name in settings.LANGUAGES}
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 - a malformed cookie header is no language choice
        cookie = SimpleCookie()
    chosen = cookie.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen is not None and chosen.value.split("-")[0] in supported:
        return chosen.value.split("-")[0]
    from django.utils.translation.trans_real import parse_accept_lang_header

    for lang, _q in parse_accept_lang_header(headers.get("accept-language", "")[:500]):
        base = lang.split("-")[0].lower()
        if base in supported:
            return base
    return settings.LANGUAGE_CODE
