"""What Smack It! says to a player: its options' labels and help, its own refusals (games/kit/texts.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.kit.texts import GameTexts

TEXTS = GameTexts(
    options={
        "smack_grace_ms": (
            _("Smacks forgiven just after the winner (ms)"),
            _("A smack this soon after the winning smack is ignored, not punished."),
        ),
        "auto_flip_seconds": (_("Auto flip after (s)"), _("The system flips for a player idle this long (0: never).")),
        "max_minutes": (_("Match length limit (min)"), _("The match ends after this many minutes at the latest (0: no limit).")),
        "shuffle_won": (_("Shuffle won piles"), _("Shuffle a won pile before putting it under your own.")),
    },
    advanced=frozenset({"smack_grace_ms"}),
    errors={
        "already_smacked": _("Your hand already lies on this card: the race is being judged."),
        "out_for_good": _("You are out for good and can no longer smack."),
        "smack_pending": _("A Smack it! card lies on top: smack it, nobody flips now."),
    },
)
