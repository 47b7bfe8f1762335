"""Which games are installed; the one way to find a game's rules, bot and statistics.

Pure (no Django), so the benchmarks and rules tests can use it too.
"""

from __future__ import annotations

import importlib

from games.engine import Bot, Rules
from games.figures import NO_STATS, GameStats

INSTALLED: tuple[str, ...] = ("zack", "zwicker", "zigzag", "smackit")

_extra_rules: dict[str, Rules] = {}
_extra_bots: dict[str, Bot] = {}
_extra_stats: dict[str, GameStats] = {}


def register(rules: Rules, bot: Bot | None = None, stats: GameStats | None = None) -> None:
    """Add a game at run time (the test-only game uses this)."""
    _extra_rules[rules.slug] = rules
    if bot is not None:
        _extra_bots[rules.slug] = bot
    if stats is not None:
        _extra_stats[rules.slug] = stats


def unregister(slug: str) -> None:
    _extra_rules.pop(slug, None)
    _extra_bots.pop(slug, None)
    _extra_stats.pop(slug, None)


def get_rules(slug: str) -> Rules:
    """RULES of `games/<slug>/rules.py`; KeyError for an unknown slug."""
    if slug in _extra_rules:
        return _extra_rules[slug]
    if slug not in INSTALLED:
        raise KeyError(slug)
    return importlib.import_module(f"games.{slug}.rules").RULES


def get_bot(slug: str) -> Bot:
    if slug in _extra_bots:
        return _extra_bots[slug]
    if slug not in INSTALLED:
        raise KeyError(slug)
    return importlib.import_module(f"games.{slug}.bot").BOT


def get_stats(slug: str) -> GameStats:
    """STATS of `games/<slug>/stats.py` (the game's statistics extractor and figures).

    A game registered at run time without statistics has only the platform's figures
    (`NO_STATS`); so has any other slug, so figures stored for a game since removed still read.
    """
    if slug in _extra_stats:
        return _extra_stats[slug]
    if slug not in INSTALLED:
        return NO_STATS
    return importlib.import_module(f"games.{slug}.stats").STATS


def all_slugs() -> list[str]:
    return [*INSTALLED, *(s for s in _extra_rules if s not in INSTALLED)]


def public_slugs() -> list[str]:
    """The games players can pick in the lobby."""
    return list(INSTALLED)
