"""Tally's words: its option's label and help, its own refusal (games/kit/texts.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.kit.texts import GameTexts

TEXTS = GameTexts(
    options={"hand": (_("Cards per hand"), _("How many cards each player is dealt."))},
    errors={"not_held": _("You do not hold that card.")},
)
