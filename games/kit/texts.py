"""The words a game brings with it: its options' labels and help, and its refusals, in the player's language.

Why a game carries them: a fifth game must not need an entry in the platform's catalogues
(games/option_texts.py, games/error_texts.py); those keep only the platform's own words and find a
game's through the registry (`registry.get_texts(slug)`). The sentences are gettext msgids (lazy), so
`games/<slug>/texts.py` imports Django's translation; this module does not (rules and the registry stay
pure). The msgids are translated in the project's locale/<lang>/LC_MESSAGES/django.po, the translators'
one place (`makemessages` run at the project's root reads the games' folders too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameTexts:
    """`options`: option name -> (label, help); `advanced`: the options the create form folds away;
    `errors`: a RuleError code only this game raises -> the sentence a player reads for it."""

    options: Mapping[str, tuple[Any, Any]] = field(default_factory=dict)
    advanced: frozenset[str] = frozenset()
    errors: Mapping[str, Any] = field(default_factory=dict)


NO_TEXTS = GameTexts()
"""A game without texts: its options read as their names and its rules' own help, its refusals as the platform's."""
