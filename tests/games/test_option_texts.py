"""The create-table form names every option in the player's language, never by its identifier."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.kit.registry import get_rules, public_slugs
from games.option_texts import OPTION_TEXTS, games_with_option_texts, option_label_help
from games.selectors import game_list
from games.table_options import TABLE_OPTIONS


def shown_options() -> list[tuple[str, str]]:
    """Every option a player sets in the lobby: each public game's non-internal ones and the table's."""
    out = [(slug, name) for slug in public_slugs() for name, spec in get_rules(slug).options.items() if not spec.internal]
    return out + [("table", name) for name in TABLE_OPTIONS]


def test_every_shown_option_has_a_label_and_help() -> None:
    assert len(shown_options()) > 10
    assert sorted(set(shown_options()) - set(OPTION_TEXTS)) == []


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_label_and_help_is_translated(lang: str) -> None:
    untranslated = []
    for key, (label, help_text) in OPTION_TEXTS.items():
        with translation.override("en"):
            english = (str(label), str(help_text))
        with translation.override(lang):
            ours = (str(label), str(help_text))
        untranslated += [(key, e) for e, o in zip(english, ours, strict=True) if e == o]
    assert untranslated == []


def test_no_label_is_an_identifier_and_each_names_its_unit() -> None:
    units = {"_ms": "(ms", "_seconds": "(s", "_minutes": "(min"}
    for (_slug, name), (label, _help) in OPTION_TEXTS.items():
        for lang in ("en", "de", "fr"):
            with translation.override(lang):
                text = str(label)
            assert "_" not in text and " ms" not in text.replace("(ms", ""), (name, lang, text)  # not "stop pause ms"
            unit = next((u for suffix, u in units.items() if name.endswith(suffix)), None)
            assert unit is None or unit in text, (name, lang, text)


def test_an_option_without_texts_still_reads_as_words() -> None:
    assert option_label_help(game="zack", name="brand_new_ms", help_text="Rules' own help") == ("Brand new ms", "Rules' own help")


def test_the_lobby_sends_the_german_words_to_a_german_player(django_user_model: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(django_user_model.objects.create_user(username="lobby_de", password="correct horse 42"))
    with translation.override("en"):  # the request activates German; leave this thread's language as it was
        page = client.get("/")
    data = json.loads(re.search(r'id="games-data" type="application/json">(.*?)</script>', page.content.decode(), re.S).group(1))
    zack = next(g for g in data if g["slug"] == "zack")
    assert zack["options"]["stop_pause_ms"]["label"] == "Pause nach einer Stopp-Karte (ms)"
    assert zack["options"]["stop_pause_ms"]["help"] == "Wie lange das Spiel nach einer Stopp-Karte ruht."
    assert zack["options"]["stop_pause_ms"]["default"] == get_rules("zack").options["stop_pause_ms"].default
    # the platform's own table options: their help (the label's title) in German too
    assert 'title="Wie lange jemand weg sein darf (Seite neu geladen, Verbindung verloren), bevor ein Bot' in page.content.decode()
    # the technical options are marked for the form's "Advanced settings", the others are not
    assert zack["options"]["grace_ms"]["advanced"] is True and zack["options"]["stop_pause_ms"]["advanced"] is False
    assert "Erweiterte Einstellungen" in page.content.decode()


def test_the_api_keeps_its_schema_untouched() -> None:
    # The texts are added for the lobby page only; the API's game list stays the rules' own description.
    games = game_list()
    labelled = games_with_option_texts(games=games)
    assert all("label" not in spec for g in games for spec in g["options"].values())
    assert all("label" in spec for g in labelled for spec in g["options"].values())
