"""Template filters that say things the way people read them: a game's name for its slug, a duration in
minutes and seconds instead of a float of seconds ("1 min 29 s", not "88.845")."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.translation import gettext

from games.kit.registry import get_rules
from games.option_texts import OPTION_TEXTS

register = template.Library()


@register.filter
def game_name(slug: Any) -> str:
    """The game's own name ("ZIGZAG") for its slug ("zigzag"); anything else (a name already) unchanged."""
    try:
        return str(get_rules(str(slug)).name)
    except KeyError:
        return str(slug)


@register.filter
def duration(seconds: Any) -> str:
    """Seconds as a person says them: "45 s", "1 min 29 s", "2 h 5 min"; "–" for nothing."""
    if seconds is None or seconds == "":
        return "–"
    try:
        total = round(float(seconds))
    except (TypeError, ValueError):
        return str(seconds)
    hours, rest = divmod(max(total, 0), 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        text = gettext("%(h)d h %(m)d min") % {"h": hours, "m": minutes}
    elif minutes:
        text = gettext("%(m)d min %(s)d s") % {"m": minutes, "s": secs}
    else:
        text = gettext("%(s)d s") % {"s": secs}
    return text.replace(" ", "\u00a0")  # one figure: never "5 min 4" on a line and "s" on the next


@register.simple_tag
def option_words(slug: str) -> dict[str, str]:
    """A game's options and the table's, identifier -> the label a player reads, without its unit ("grace_ms" ->
    "Beginner protection window"): the rules page says these where its text names an option by identifier."""
    words = {}
    for (game, name), (label, _help) in OPTION_TEXTS.items():
        if game in (slug, "table"):
            words[name] = re.sub(r"\s*\([^)]*\)\s*$", "", str(label))
    return words
