"""Which games are installed; the one way to find a game's rules, bot and statistics.

Pure (no Django), so the benchmarks and rules tests can use it too.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from games.engine import Bot, Rules
from games.kit.figures import NO_STATS, GameStats
from games.kit.texts import NO_TEXTS, GameTexts

INSTALLED: tuple[str, ...] = ("zack", "zwicker", "zigzag", "smackit")
GAMES_DIR = Path(__file__).resolve().parent.parent

_extra_rules: dict[str, Rules] = {}
_extra_bots: dict[str, Bot] = {}
_extra_stats: dict[str, GameStats] = {}
_extra_texts: dict[str, GameTexts] = {}
_extra_folders: dict[str, Path] = {}
_extra_public: set[str] = set()


def register(
    rules: Rules,
    bot: Bot | None = None,
    stats: GameStats | None = None,
    *,
    texts: GameTexts | None = None,
    folder: Path | None = None,
    public: bool = False,
) -> None:
    """Add a game at run time (the tests' own games use this).

    `folder` holds the game's files as an installed game's `games/<slug>/` does (templates/, static/);
    a `public` game is offered in the lobby and its tables can be created, as an installed game's.
    """
    _extra_rules[rules.slug] = rules
    if bot is not None:
        _extra_bots[rules.slug] = bot
    if stats is not None:
        _extra_stats[rules.slug] = stats
    if texts is not None:
        _extra_texts[rules.slug] = texts
    if folder is not None:
        _extra_folders[rules.slug] = folder
    if public:
        _extra_public.add(rules.slug)


def unregister(slug: str) -> None:
    for extra in (_extra_rules, _extra_bots, _extra_stats, _extra_texts, _extra_folders):
        extra.pop(slug, None)
    _extra_public.discard(slug)


def _installed(slug: str, extra: dict[str, Any], module: str, name: str) -> Any:
    """`name` of `games/<slug>/<module>.py`, or the one registered at run time; KeyError for an unknown slug."""
    if slug in extra:
        return extra[slug]
    if slug not in INSTALLED:
        raise KeyError(slug)
    return getattr(importlib.import_module(f"games.{slug}.{module}"), name)


def get_rules(slug: str) -> Rules:
    """RULES of `games/<slug>/rules.py`; KeyError for an unknown slug."""
    return _installed(slug, _extra_rules, "rules", "RULES")


def get_bot(slug: str) -> Bot:
    """BOT of `games/<slug>/bot.py`; KeyError for an unknown slug."""
    return _installed(slug, _extra_bots, "bot", "BOT")


def get_stats(slug: str) -> GameStats:
    """STATS of `games/<slug>/stats.py` (the game's statistics extractor and figures).

    A game registered at run time without statistics has only the platform's figures
    (`NO_STATS`); so has any other slug, so figures stored for a game since removed still read.
    """
    if slug not in INSTALLED and slug not in _extra_stats:
        return NO_STATS
    return _installed(slug, _extra_stats, "stats", "STATS")


def get_texts(slug: str) -> GameTexts:
    """TEXTS of `games/<slug>/texts.py` (its options' words, its own refusals); `NO_TEXTS` for a game without."""
    if slug not in INSTALLED and slug not in _extra_texts:
        return NO_TEXTS
    return _installed(slug, _extra_texts, "texts", "TEXTS")


def game_folder(slug: str) -> Path | None:
    """The folder of a game's files (`templates/`, `static/`): `games/<slug>/`, or the one registered with it."""
    if slug in _extra_folders:
        return _extra_folders[slug]
    return GAMES_DIR / slug if slug in INSTALLED else None


def game_folders(kind: str) -> list[Path]:
    """`<folder>/<kind>/` of every game that has one (kind: "templates" or "static"), installed games first."""
    folders = (game_folder(slug) for slug in all_slugs())
    return [f / kind for f in folders if f is not None and (f / kind).is_dir()]


def all_slugs() -> list[str]:
    return [*INSTALLED, *(s for s in _extra_rules if s not in INSTALLED)]


def public_slugs() -> list[str]:
    """The games players can pick in the lobby: the installed ones and those registered as public."""
    return [*INSTALLED, *(s for s in _extra_rules if s in _extra_public and s not in INSTALLED)]
