"""Labels and help of the create-table options, in the player's language.

A game's rules module declares its options with an English developer `help` and may not import
Django, so the words a player reads in the create form live here, as gettext msgids translated in
locale/<lang>/LC_MESSAGES/django.po. An option without an entry still shows (its name humanised and
the rules' help), and tests/games/test_option_texts.py fails until it has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.table_options import TABLE_OPTIONS

# (game slug, option name) -> (label, help); slug "table" is the platform's own table options.
OPTION_TEXTS: Mapping[tuple[str, str], tuple[Any, Any]] = {
    ("zack", "stop_cards"): (_("Stop cards"), _("Play with the 6 Stop cards (advanced rules).")),
    ("zack", "beginner_deck"): (_("Beginner deck"), _("Play without the Again and Back cards.")),
    ("zack", "show_turn"): (_("Show whose turn it is"), _("Training: the table shows whose turn it is.")),
    ("zack", "protect_beginners"): (
        _("Protect beginners"),
        _("Beginners cannot be challenged as too slow during their protection window."),
    ),
    ("zack", "grace_ms"): (_("Beginner protection window (ms)"), _("How long a beginner cannot be challenged as too slow.")),
    ("zack", "settle_ms"): (_("Return window after a challenge (ms)"), _("After a challenge, cards thrown within this window are returned.")),
    ("zack", "stop_pause_ms"): (_("Pause after a Stop card (ms)"), _("How long play pauses after a Stop card.")),
    ("zack", "choose_seconds"): (_("Time to choose a colour (s)"), _("Time to choose who throws next after a Choose colour card.")),
    ("zack", "series"): (_("Series"), _("Play a series: first to two wins, the dealer moving left.")),
    ("zwicker", "turn_seconds"): (_("Turn time (s)"), _("Seconds a turn may last before the table plays it.")),
    ("zwicker", "snap_window_ms"): (_("Snaps at the same moment (ms)"), _("A snap this soon after another player's snap is taken back.")),
    ("zwicker", "peek_ms"): (_("Look time (ms)"), _("How long a looked-at card stays on screen.")),
    ("zigzag", "tour_seconds"): (_("Round time (s)"), _("Seconds before a round ends when not everyone has passed.")),
    ("zigzag", "beginner"): (_("Extra joker"), _("Beginner game: one extra joker in the deck.")),
    ("zigzag", "signals_seen"): (_("Signs are seen"), _("Opponents see that a sign was made (not which).")),
    ("zigzag", "hand_hint"): (
        _("Hand hint"),
        _("Beginner help: your screen names the class of your own hand (ZIG, ZAG or none); never in ranked play."),
    ),
    ("smackit", "smack_grace_ms"): (
        _("Smacks forgiven just after the winner (ms)"),
        _("A smack this soon after the winning smack is ignored, not punished."),
    ),
    ("smackit", "auto_flip_seconds"): (_("Auto flip after (s)"), _("The system flips for a player idle this long (0: never).")),
    ("smackit", "max_minutes"): (_("Match length limit (min)"), _("The match ends after this many minutes at the latest (0: no limit).")),
    ("smackit", "shuffle_won"): (_("Shuffle won piles"), _("Shuffle a won pile before putting it under your own.")),
    ("table", "zombie_seconds"): (
        _("A bot stands in for a player who is away after (s)"),
        _("How long a player may be gone (a reload, a lost connection) before a bot plays for them until they are back."),
    ),
    ("table", "lag_cap_ms"): (
        _("Allowance for slow connections in races (ms)"),
        _("A player on a slow connection has up to this much of the delay counted back in a race, so the quickest reaction wins, not the quickest line (0: the first to arrive wins)."),
    ),
    ("table", "min_reaction_ms"): (
        _("Fastest reaction a person can have (ms, 0: off)"),
        _("A race claim judged sooner than this after its card was shown is an anticipation and never wins (0 only at unranked tables)."),
    ),
}


# The technical options: the create forms fold them under "Advanced settings" (static/platform/options.js),
# so a first-time player sees only the options that change the game; their defaults suit a first table.
ADVANCED: frozenset[tuple[str, str]] = frozenset(
    {
        ("table", "zombie_seconds"),
        ("table", "lag_cap_ms"),
        ("table", "min_reaction_ms"),
        ("zack", "grace_ms"),
        ("zack", "settle_ms"),
        ("zwicker", "snap_window_ms"),
        ("smackit", "smack_grace_ms"),
    }
)


def option_label_help(*, game: str, name: str, help_text: str) -> tuple[str, str]:
    """The (label, help) a player reads for one option, in the active language."""
    texts = OPTION_TEXTS.get((game, name))
    if texts is None:
        return name.replace("_", " ").capitalize(), help_text
    return str(texts[0]), str(texts[1])


def games_with_option_texts(*, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby's game list with each option's `label` and `help` in the active language, and whether it is
    `advanced` (folded in the form), as a copy."""
    out = []
    for g in games:
        options = {}
        for name, spec in g["options"].items():
            label, help_text = option_label_help(game=g["slug"], name=name, help_text=spec.get("help", ""))
            options[name] = {**spec, "label": label, "help": help_text, "advanced": (g["slug"], name) in ADVANCED}
        out.append({**g, "options": options})
    return out


def table_options_help() -> dict[str, str]:
    """The help of the platform's own table options (the lobby form's title texts), in the active language."""
    return {name: option_label_help(game="table", name=name, help_text=spec.help)[1] for name, spec in TABLE_OPTIONS.items()}
