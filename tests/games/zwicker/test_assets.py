"""The live table module and the rules help: present, valid, complete in three languages."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.zwicker.rules import RULES

ROOT = Path(__file__).resolve().parents[3]
JS = ROOT / "games" / "zwicker" / "static" / "games" / "zwicker" / "table.js"
LANGS = ("de", "en", "fr")


def help_page(lang: str) -> str:
    """The rules help as a reader of `lang` gets it: one template, its words from locale/<lang>/…/django.po."""
    with translation.override(lang):
        return render_to_string("games/zwicker/help.html")


@pytest.mark.parametrize("lang", LANGS)
def test_help_names_every_option_and_decision(lang: str) -> None:
    text = help_page(lang)
    assert "<html" not in text and "{%" not in text and "{{" not in text
    for name, option in RULES.options.items():
        if not option.internal:
            assert name in text, f"{lang}: option {name} missing"
            assert str(option.default) in text
    assert text.count("[D]") >= 11  # the rules page's five and this module's player-facing ones
    assert "zwicker-card" in text  # small pictures of the cards


def test_renderer_is_valid_and_translated() -> None:
    """Every word of the renderer comes from the JavaScript catalogue (the .po files are the one source)."""
    source = JS.read_text(encoding="utf-8")
    assert "export function createRenderer(root, ctx)" in source
    assert "innerHTML" not in source
    block = re.search(r"^const STR = \{\n(.*?)^\};", source, flags=re.S | re.M)
    assert block is not None
    entries = [line.strip() for line in block.group(1).splitlines() if line.strip() and not line.strip().startswith("//")]
    assert len(entries) > 60
    bad = [e for e in entries if not re.match(r"^\w+: (gettext|pgettext|ngettext)\(\"", e)]
    assert not bad, bad
    for key in ("judging", "ev_looks_ended"):  # this module's race and look words
        assert re.search(rf"^  {key}: gettext\(", block.group(1), flags=re.M), key
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    subprocess.run([node, "--check", str(JS)], check=True)
