"""The template filters that say things as people read them (replays/templatetags/plain.py)."""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

from replays.templatetags.plain import duration, game_name, option_words

NBSP = "\u00a0"


def test_a_duration_reads_in_hours_minutes_and_seconds_never_as_a_float() -> None:
    assert duration(88.845) == f"1{NBSP}min{NBSP}29{NBSP}s"
    assert duration(3.2) == f"3{NBSP}s"
    assert duration(7300) == f"2{NBSP}h{NBSP}1{NBSP}min"
    assert duration(None) == "–" and duration("") == "–"


def test_a_game_is_named_by_its_name_and_a_name_stays_as_it_is() -> None:
    assert [game_name(s) for s in ("zack", "zwicker", "zigzag", "smackit")] == ["ZACK!", "Zwicker", "ZIGZAG", "Smack It!"]
    assert game_name("ZIGZAG") == "ZIGZAG"
    assert Template("{% load plain %}{{ slug|game_name }} {{ s|duration }}").render(Context({"slug": "smackit", "s": 61})) == f"Smack It! 1{NBSP}min{NBSP}1{NBSP}s"


def test_option_words_name_a_games_and_the_tables_options_without_their_unit_in_the_language() -> None:
    with translation.override("de"):
        words = option_words("zack")
    assert words["stop_pause_ms"] == "Pause nach einer Stopp-Karte" and "lag_cap_ms" in words
    assert not any("(" in w or "_" in w for w in words.values())
    assert "turn_seconds" not in words  # Zwicker's, not ZACK!'s
