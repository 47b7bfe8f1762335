"""Tally: the test suite's own game, built on the game kit alone and registered only here.

Everything it needs lives in this folder: rules (rules.py), a bot (bot.py), statistics (stats.py), its
words (texts.py), its lobby card (templates/games/tally/card.html) and its table renderer and styles
(static/games/tally/). `register()` adds it to the registry as a public game; nothing in settings or
outside this folder names it. tests/games/test_fifth_game.py plays it through the platform.
"""

from __future__ import annotations

from pathlib import Path

from games.kit import registry

FOLDER = Path(__file__).resolve().parent
SLUG = "tally"


def register() -> None:
    """Offer Tally in the lobby as an installed game is, from this folder."""
    from tests.support.testgame import bot, rules, stats, texts

    registry.register(rules.RULES, bot.BOT, stats.STATS, texts=texts.TEXTS, folder=FOLDER, public=True)


def unregister() -> None:
    registry.unregister(SLUG)
