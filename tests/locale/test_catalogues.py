"""The compiled catalogues a fresh clone runs on (locale/*/LC_MESSAGES/*.mo, committed) say exactly what
their .po files say: a translator's edit that was not compiled fails here instead of silently showing English."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

LOCALE = Path(settings.BASE_DIR) / "locale"
CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def po_entries(path: Path) -> dict[str, str | tuple[str, ...]]:
    """Translated, non-fuzzy entries of a .po file, keyed as the .mo keys them (context\\x04msgid)."""
    entries: dict[str, str | tuple[str, ...]] = {}
    current: dict[str, str] = {}
    field = None
    fuzzy = False

    def flush() -> None:
        nonlocal current, fuzzy
        if "msgid" in current and current["msgid"] and not fuzzy:
            key = current["msgid"] if "msgctxt" not in current else f"{current['msgctxt']}\x04{current['msgid']}"
            plural = sorted(k for k in current if k.startswith("msgstr["))
            value: str | tuple[str, ...] = tuple(current[k] for k in plural) if plural else current.get("msgstr", "")
            if value and all(value if isinstance(value, tuple) else (value,)):
                entries[key] = value
        current, fuzzy = {}, False

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            flush()
            field = None
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            current[field] += ast.literal_eval(line)
        else:
            name, _, rest = line.partition(" ")
            if name == "msgctxt" and "msgid" in current:
                flush()
            field = name
            current[field] = ast.literal_eval(rest)
    return entries


def test_there_are_catalogues_for_german_and_french_pages_and_scripts() -> None:
    names = {str(p.relative_to(LOCALE)) for p in CATALOGUES}
    assert {f"{lang}/LC_MESSAGES/{domain}.po" for lang in ("de", "fr") for domain in ("django", "djangojs")} <= names


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_the_compiled_catalogue_matches_its_source(po: Path) -> None:
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run `manage.py compilemessages`"
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)._catalog  # noqa: SLF001 - the whole table, to compare entry by entry
    source = po_entries(po)
    assert len(source) > 20
    flat: dict[str, str | tuple[str, ...]] = {k: v for k, v in compiled.items() if isinstance(k, str) and k}
    forms: dict[str, dict[int, str]] = {}
    for key, value in compiled.items():
        if isinstance(key, tuple):  # plural forms: (msgid, n)
            forms.setdefault(key[0], {})[key[1]] = value
    flat.update({k: tuple(v[n] for n in sorted(v)) for k, v in forms.items()})
    stale = sorted(k for k, v in source.items() if flat.get(k) != v)
    assert stale == [], f"{po} changed after {mo.name} was compiled (run `manage.py compilemessages`): {stale[:5]}"


FRENCH_TU = re.compile(r"(?<![\w-])(tu|toi|ton|ta|tes|te)(?![\w-])|(?<![\w-])t'(?=\w)|\w-toi\b", re.IGNORECASE)
GERMAN_SIE = re.compile(r"(?<!^)(?<![.!?:] )\b(Sie|Ihnen|Ihre?[mnrs]?)\b")  # formal address mid-sentence


def _french_texts() -> list[tuple[str, str]]:
    out = []
    for po in LOCALE.glob("fr/LC_MESSAGES/*.po"):
        for key, value in po_entries(po).items():
            out += [(f"{po.name}: {key}", v) for v in (value if isinstance(value, tuple) else (value,))]
    for page in Path(settings.BASE_DIR, "games").glob("*/templates/games/*/help.html"):
        with translation.override("fr"):
            text = render_to_string(f"games/{page.parent.name}/help.html")
        out += [(f"{page.parent.name}/help.html (fr):{n}", line) for n, line in enumerate(text.splitlines(), 1)]
    return out


def test_french_says_vous_everywhere() -> None:
    texts = _french_texts()
    assert len(texts) > 500
    assert [(where, text) for where, text in texts if FRENCH_TU.search(text)] == []


def test_german_says_du_everywhere() -> None:
    found = []
    for po in LOCALE.glob("de/LC_MESSAGES/*.po"):
        for key, value in po_entries(po).items():
            found += [(key, v) for v in (value if isinstance(value, tuple) else (value,)) if GERMAN_SIE.search(v)]
    assert found == []


def test_help_pages_are_one_template_per_game_translated_in_the_catalogue() -> None:
    games = Path(settings.BASE_DIR, "games")  # each game's help page lives in its folder
    assert sorted(p.name for p in games.glob("*/templates/games/*/help_*.html")) == []  # no per-language copies
    for page in sorted(games.glob("*/templates/games/*/help.html")):
        with translation.override("en"):
            english = render_to_string(f"games/{page.parent.name}/help.html")
        for lang in ("de", "fr"):
            with translation.override(lang):
                text = render_to_string(f"games/{page.parent.name}/help.html")
            assert "[D]" in text, (page, lang)
            same = set(re.findall(r"<p>(.*?)</p>", text, re.S)) & set(re.findall(r"<p>(.*?)</p>", english, re.S))
            assert same == set(), (page, lang, sorted(same)[:3])  # every paragraph translated
