"""Which games are installed; the one way to find a game's rules, bot and statistics.

Pure (no Django), so the benchmarks and rules tests can use it too.
"""

from __future__ import annotations

import importlib
from typing import Any

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


def all_slugs() -> list[str]:
    return [*INSTALLED, *(s for s in _extra_rules if s not in INSTALLED)]


def public_slugs() -> list[str]:
    """The games players can pick in the lobby."""
    return list(INSTALLED)
