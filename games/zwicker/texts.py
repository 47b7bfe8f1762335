"""What Zwicker says to a player: its options' labels and help, its own refusals (games/kit/texts.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.kit.texts import GameTexts

TEXTS = GameTexts(
    options={
        "turn_seconds": (_("Turn time (s)"), _("Seconds a turn may last before the table plays it.")),
        "snap_window_ms": (_("Snaps at the same moment (ms)"), _("A snap this soon after another player's snap is taken back.")),
        "peek_ms": (_("Look time (ms)"), _("How long a looked-at card stays on screen.")),
    },
    advanced=frozenset({"snap_window_ms"}),
    errors={
        "already_called": _("Zwicker has already been called."),
        "empty_pile": _("No card is left to draw."),
        "empty_slot": _("There is no card in that place."),
        "no_power": _("This card has no power."),
        "snap_pending": _("Your snap is still being judged."),
        "wrong_phase": _("That move does not fit this step of your turn."),
    },
)
