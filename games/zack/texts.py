"""What ZACK! says to a player: its options' labels and help, its own refusals (games/kit/texts.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.kit.texts import GameTexts

TEXTS = GameTexts(
    options={
        "stop_cards": (_("Stop cards"), _("Play with the 6 Stop cards (advanced rules).")),
        "beginner_deck": (_("Beginner deck"), _("Play without the Again and Back cards.")),
        "show_turn": (_("Show whose turn it is"), _("Training: the table shows whose turn it is.")),
        "protect_beginners": (
            _("Protect beginners"),
            _("Beginners cannot be challenged as too slow during their protection window."),
        ),
        "grace_ms": (_("Beginner protection window (ms)"), _("How long a beginner cannot be challenged as too slow.")),
        "settle_ms": (_("Return window after a challenge (ms)"), _("After a challenge, cards thrown within this window are returned.")),
        "stop_pause_ms": (_("Pause after a Stop card (ms)"), _("How long play pauses after a Stop card.")),
        "choose_seconds": (_("Time to choose a colour (s)"), _("Time to choose who throws next after a Choose colour card.")),
        "series": (_("Series"), _("Play a series: first to two wins, the dealer moving left.")),
    },
    advanced=frozenset({"grace_ms", "settle_ms"}),
    errors={
        "already_claimed": _("Your move is already on its way: the race is being judged."),
        "grace": _("A beginner may not be challenged as slow yet."),
        "no_cards": _("Your pile is empty."),
        "no_challenge_card": _("You hold no challenge card for that colour."),
        "no_colour_card": _("Your colour card lies in the box."),
        "not_choosing": _("You have no colour to choose."),
    },
)
