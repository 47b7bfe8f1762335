"""What ZIGZAG says to a player: its options' labels and help, its own refusals (games/kit/texts.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.kit.texts import GameTexts

TEXTS = GameTexts(
    options={
        "tour_seconds": (_("Round time (s)"), _("Seconds before a round ends when not everyone has passed.")),
        "beginner": (_("Extra joker"), _("Beginner game: one extra joker in the deck.")),
        "signals_seen": (_("Signs are seen"), _("Opponents see that a sign was made (not which).")),
        "hand_hint": (
            _("Hand hint"),
            _("Beginner help: your screen names the class of your own hand (ZIG, ZAG or none); never in ranked play."),
        ),
    },
    errors={
        "already_opened": _("You have already opened this round."),
        "already_passed": _("You have already passed."),
        "bad_target": _("You cannot choose that player for this card."),
        "claim_pending": _("Your take from the centre is being judged: wait a moment."),
        "empty_centre": _("There is no card in the centre to take."),
        "gone": _("That card is no longer in the centre."),
        "no_counters": _("Your team has used its three failed counters."),
        "not_in_hand": _("You do not hold that card."),
        "not_opened": _("Open first: discard a card and take your starting card."),
        "stop_limit": _("Two STOPs already lie before that player."),
        "not_a_stop": _("That card is not a STOP."),
        "not_a_z": _("That card is not a Z."),
        "anticipated": _("You reached for this card before anyone could see it: it is not yours to take."),
        "signs_ride": _("Signs are secret at this table: give your sign with your next move."),
    },
)
