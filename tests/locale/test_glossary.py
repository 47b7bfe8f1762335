"""One word for one thing in every language (locale/glossary.json), and no English where a German or French
player reads: every msgid the templates and scripts use has a translation, none is English left as it was,
and none says a word the glossary rules out ("Schachtel" beside "Box", "dealer" for "Geber", "manche" in
English)."""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation.template import templatize

from tests.locale.test_catalogues import LOCALE, po_entries

ROOT = Path(settings.BASE_DIR)
GLOSSARY = json.loads((LOCALE / "glossary.json").read_text(encoding="utf-8"))
LANGS = ("de", "fr")
# One string literal of JavaScript or of templatize's Python: "…", '…' or `…` (no ${} inside)
LITERAL = r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'|`((?:[^`\\$]|\\.)*)`'
CALL = re.compile(r"(?<![\w.$])(?:window\.)?(_|gettext|ngettext|pgettext)\(\s*u?(?:" + LITERAL + r")(?:\s*,\s*u?(?:" + LITERAL + r"))?")


def _unquote(text: str) -> str:
    return ast.literal_eval('"' + text.replace('"', '\\"').replace("\\'", "'").replace("\\`", "`") + '"')


def _msgids(code: str, alias: bool) -> set[str]:
    """The msgids of the gettext calls in `code` (pgettext as context\\x04msgid, as the .mo keys them)."""
    code = re.sub(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", "", code, flags=re.S)  # comments ask for nothing
    out = set()
    for m in CALL.finditer(code):
        if m.group(1) == "_" and not alias:
            continue
        first = _unquote(next(g for g in m.group(2, 3, 4) if g is not None))
        second = next((g for g in m.group(5, 6, 7) if g is not None), None)
        out.add(f"{first}\x04{_unquote(second)}" if m.group(1) == "pgettext" and second is not None else first)
    return out


@cache
def used_msgids() -> dict[str, set[str]]:
    """Every msgid the pages (templates, by Django's own templatize) and the scripts (static JS) ask for."""
    scripts = [*ROOT.glob("static/platform/*.js"), *ROOT.glob("games/*/static/**/*.js")]
    templates = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("*/templates/**/*.html")]
    js: set[str] = set()
    for p in scripts:
        js |= _msgids(p.read_text(encoding="utf-8"), alias=True)
    pages: set[str] = set()
    for p in templates:
        pages |= _msgids(templatize(p.read_text(encoding="utf-8"), origin=str(p)), alias=False)
    return {"djangojs": js, "django": pages}


def _texts(lang: str) -> list[tuple[str, str, str]]:
    """(catalogue, msgid, msgstr) of every translated entry of `lang`, plural forms one by one."""
    out = []
    for po in sorted(LOCALE.glob(f"{lang}/LC_MESSAGES/*.po")):
        for key, value in po_entries(po).items():
            out += [(po.name, key.split("\x04")[-1], v) for v in (value if isinstance(value, tuple) else (value,))]
    return out


def _english() -> set[str]:
    ids = set()
    for po in LOCALE.glob("de/LC_MESSAGES/*.po"):
        ids |= {k.split("\x04")[-1] for k in po_entries(po)}
    return ids


def _word(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.IGNORECASE)


def _visible(text: str) -> str:
    """What a reader sees of a msgstr: no markup, no placeholders, no option identifiers."""
    return re.sub(r"<[^>]+>|\{\w*\}|%\(\w+\)[sd]|%[sd]|&\w+;|\b\w+_\w+\b", " ", text)


def test_the_glossary_names_one_word_per_language_for_every_term() -> None:
    assert len(GLOSSARY["terms"]) >= 10
    for term in GLOSSARY["terms"]:
        assert {"en", *LANGS} <= set(term), term
        for lang, words in term.get("avoid", {}).items():
            assert lang in ("en", *LANGS) and term[lang] not in words, term


@pytest.mark.parametrize("lang", LANGS)
def test_every_accepted_word_is_the_one_the_catalogue_uses(lang: str) -> None:
    texts = " ".join(_visible(v) for _, _, v in _texts(lang))
    missing = [t[lang] for t in GLOSSARY["terms"] if not _word(t[lang]).search(texts)]
    assert missing == [], f"{lang}: the glossary's words are not used anywhere (is the glossary up to date?)"


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_no_text_says_a_word_the_glossary_rules_out(lang: str) -> None:
    texts = [("msgid", m, m) for m in _english()] if lang == "en" else _texts(lang)
    found = []
    for term in GLOSSARY["terms"]:
        for bad in term.get("avoid", {}).get(lang, []):
            pattern = _word(bad)
            found += [(f"{where}: {msgid[:60]}", bad, term[lang]) for where, msgid, text in texts if pattern.search(_visible(text))]
    assert found == [], f"{lang}: (where, word to avoid, the glossary's word) {found[:12]}"


def _option_names() -> set[str]:
    from games.kit.registry import all_slugs, get_rules
    from games.table_options import TABLE_OPTIONS

    return {name for slug in all_slugs() for name in get_rules(slug).options} | set(TABLE_OPTIONS)


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_is_left_untranslated(lang: str) -> None:
    names = sorted({*GLOSSARY["names"], *GLOSSARY["same"][lang], *_option_names()}, key=len, reverse=True)
    left = []
    for where, msgid, text in _texts(lang):
        if text != msgid:
            continue
        rest = _visible(text)
        for name in names:
            rest = _word(name).sub(" ", rest)
        if re.search(r"[A-Za-z]{2,}", rest):
            left.append((where, msgid[:80]))
    assert left == [], f"{lang}: English left as the translation: {left[:12]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_msgid_the_pages_and_scripts_use_is_translated(lang: str, domain: str) -> None:
    used = used_msgids()[domain]
    assert len(used) > 200
    # po_entries keeps only translated, non-fuzzy entries: an empty or fuzzy msgstr counts as missing
    translated = po_entries(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po")
    missing = sorted(m for m in used if m not in translated)
    assert missing == [], f"{lang}/{domain}.po lacks {len(missing)}: {missing[:8]}"
