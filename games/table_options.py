"""Options of the table itself (the platform's, not a game's): declared and checked like a game's options.

A game's options (`Rules.options`) go to its rules at setup; these do not:
they are the platform's promises to the players at the table, stored on
`Table`, accepted by table create beside `ranked` and shown in the table
payload. Declared with the engine's `Option` so bounds, default and help
live in one place for the service, the API schema and the lobby form.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games import errors
from games.engine import Option, RuleError, resolve_options

TABLE_OPTIONS: dict[str, Option] = {
    # At least 10 s: a reload, a phone changing networks or a short drop (the table page retries after
    # 0.3 to 19 s) must not hand a player's seat to a bot. At most 600 s: a vanished player holds up
    # everyone else at the table (for ever in a game without turn timers); ten minutes is also the
    # longest turn timer any game allows, and far below the broker's visibility timeout (the check
    # is a countdown task).
    "zombie_seconds": Option(
        "int",
        settings.ZOMBIE_SECONDS_DEFAULT,
        "Seconds a player may be away before a bot plays their seat until they are back",
        minimum=10,
        maximum=600,
    ),
    # Fair races (PROTOCOL.md): a race claim is judged at arrival minus the sender's measured round trip,
    # counted up to this. 0 judges on arrival (today's first-come). At most 500 ms: every race waits up to
    # the cap for slower lines before its result shows, and past half a second the wait is felt by
    # everyone at the table while a line that slow is no longer one a speed game can be fair on.
    "lag_cap_ms": Option(
        "int",
        getattr(settings, "LAG_CAP_MS_DEFAULT", 200),
        "Milliseconds of a player's measured round trip a race compensates (0: first to arrive wins)",
        minimum=0,
        maximum=500,
    ),
    # A human floor (PROTOCOL.md "Fair play"): a race claim judged sooner than this after its card was shown
    # is an anticipation and never wins (games/kit/races.py; what it costs is each game's rules decision). 100 ms
    # is the usual floor of a person's simple visual reaction; at most 150 ms, since a quick honest player's
    # fastest reactions lie not far above that. 0 (off) only at unranked tables: a rated result must be a
    # person's (`table_options_check_ranked`).
    "min_reaction_ms": Option(
        "int",
        getattr(settings, "MIN_REACTION_MS_DEFAULT", 100),
        "Milliseconds after a card is shown before a race claim can be a person's reaction (0: no floor, unranked only)",
        minimum=0,
        maximum=150,
    ),
}


def table_options_resolve(values: dict[str, Any]) -> dict[str, Any]:
    """Defaults for what is None or missing; a bad value is a 400 `bad_option` that names the option, its bounds and purpose."""
    out: dict[str, Any] = {}
    for name, spec in TABLE_OPTIONS.items():
        given = {} if values.get(name) is None else {name: values[name]}
        try:
            out.update(resolve_options({name: spec}, given, 0))
        except RuleError as e:
            bounds = f"{spec.minimum} to {spec.maximum}: " if spec.type == "int" else ""
            raise errors.bad_request(f"{e.message} ({bounds}{spec.help.lower()})", e.code) from None
    unknown = sorted(set(values) - set(TABLE_OPTIONS))
    if unknown:
        raise errors.bad_request(f"unknown table option(s): {', '.join(unknown)}", "bad_option")
    return out


def table_options_check_ranked(*, options: dict[str, Any], ranked: bool) -> None:
    """A ranked table keeps the human floor: `min_reaction_ms` 0 there is a 400 `bad_option` (PROTOCOL "Fair play")."""
    if ranked and options.get("min_reaction_ms") == 0:
        raise errors.bad_request(
            "min_reaction_ms 0 (no human floor) is allowed only at unranked tables", "bad_option"
        )
