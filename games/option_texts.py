"""Labels and help of the create-table options, in the player's language.

A game's rules module declares its options with an English developer `help` and may not import
Django, so the words a player reads in the create form live in the game's own `texts.py`
(games/kit/texts.py, found through the registry) and, for the table's own options, here: gettext
msgids translated in locale/<lang>/LC_MESSAGES/django.po. An option without an entry still shows (its
name humanised and the rules' help), and tests/games/test_option_texts.py fails until it has one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.kit.registry import all_slugs, get_texts
from games.table_options import TABLE_OPTIONS

# The platform's own table options (`games/table_options.py`) -> (label, help); a game's come with it
# (`games/<slug>/texts.py`, found through the registry).
TABLE_OPTION_TEXTS: Mapping[str, tuple[Any, Any]] = {
    "zombie_seconds": (
        _("A bot stands in for a player who is away after (s)"),
        _("How long a player may be gone (a reload, a lost connection) before a bot plays for them until they are back."),
    ),
    "lag_cap_ms": (
        _("Allowance for slow connections in races (ms)"),
        _("A player on a slow connection has up to this much of the delay counted back in a race, so the quickest reaction wins, not the quickest line (0: the first to arrive wins)."),
    ),
    "min_reaction_ms": (
        _("Fastest reaction a person can have (ms, 0: off)"),
        _("A race claim judged sooner than this after its card was shown is an anticipation and never wins (0 only at unranked tables)."),
    ),
}


# The technical options: the create forms fold them under "Advanced settings" (static/platform/options.js),
# so a first-time player sees only the options that change the game; their defaults suit a first table.
# A game names its own in its texts (`GameTexts.advanced`).
TABLE_ADVANCED: frozenset[str] = frozenset({"zombie_seconds", "lag_cap_ms", "min_reaction_ms"})


class _OptionTexts(Mapping[tuple[str, str], tuple[Any, Any]]):
    """(game slug, option name) -> (label, help) of every registered game and of the table ("table"), read
    through the registry at each use (so a game registered at run time is in it)."""

    def _all(self) -> dict[tuple[str, str], tuple[Any, Any]]:
        out = {("table", name): words for name, words in TABLE_OPTION_TEXTS.items()}
        for slug in all_slugs():
            out.update({(slug, name): words for name, words in get_texts(slug).options.items()})
        return out

    def __getitem__(self, key: tuple[str, str]) -> tuple[Any, Any]:
        game, name = key
        texts = TABLE_OPTION_TEXTS if game == "table" else get_texts(game).options
        return texts[name]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


OPTION_TEXTS: Mapping[tuple[str, str], tuple[Any, Any]] = _OptionTexts()


def option_advanced(*, game: str, name: str) -> bool:
    """Whether the create form folds this option under "Advanced settings"."""
    return name in (TABLE_ADVANCED if game == "table" else get_texts(game).advanced)


def option_label_help(*, game: str, name: str, help_text: str) -> tuple[str, str]:
    """The (label, help) a player reads for one option, in the active language."""
    texts = OPTION_TEXTS.get((game, name))
    if texts is None:
        return name.replace("_", " ").capitalize(), help_text
    return str(texts[0]), str(texts[1])


def games_with_option_texts(*, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby's game list with each option's `label` and `help` in the active language, and whether it is
    `advanced` (folded in the form), as a copy."""
    out = []
    for g in games:
        options = {}
        for name, spec in g["options"].items():
            label, help_text = option_label_help(game=g["slug"], name=name, help_text=spec.get("help", ""))
            options[name] = {**spec, "label": label, "help": help_text, "advanced": option_advanced(game=g["slug"], name=name)}
        out.append({**g, "options": options})
    return out


def table_options_help() -> dict[str, str]:
    """The help of the platform's own table options (the lobby form's title texts), in the active language."""
    return {name: option_label_help(game="table", name=name, help_text=spec.help)[1] for name, spec in TABLE_OPTIONS.items()}
