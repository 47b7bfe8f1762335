"""Fill German and French translations into locale/*/django.po, then compile.

Usage: python tools/translate.py  (after `manage.py makemessages -l de -l fr --ignore=var
--ignore=tools --ignore=tests`). A msgid missing from the table gets no translation, not msgmerge's
fuzzy guess at one.
The tables in tools/translations/*.tsv are the one place platform strings are translated (data,
one line per msgid); a msgid missing there is reported so nobody ships an untranslated page
unknowingly.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

T: dict[str, tuple[str, str]] = {}  # msgid -> (German, French), filled from tools/translations/*.tsv


def _load_extra() -> None:
    """Read the tables: one line per msgid, `msgid<TAB>German<TAB>French`; `#` lines are comments."""
    for f in sorted((ROOT / "tools" / "translations").glob("*.tsv")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            msgid, de, fr = line.split("\t")  # a line without exactly three columns stops the run here
            T[msgid] = (de, fr)


# One entry: its msgid and its msgstr, each a quoted line and any quoted continuation lines
# (makemessages wraps long strings, so either may span lines; the whole msgstr block is replaced:
# replacing its first line only left the old continuation lines appended to the new text).
_QUOTED = r'"(?:[^"\\\n]|\\.)*"'
ENTRY = re.compile(rf"^msgid ({_QUOTED}(?:\n{_QUOTED})*)\nmsgstr ({_QUOTED}(?:\n{_QUOTED})*)$", re.M)


def _unquote(block: str) -> str:
    inner = "".join(line[1:-1] for line in block.split("\n"))
    return inner.encode().decode("unicode_escape").encode("latin-1").decode("utf-8")


def fill(path: Path, index: int) -> list[str]:
    text = path.read_text(encoding="utf-8")
    missing: list[str] = []

    def repl(m: re.Match[str]) -> str:
        msgid = _unquote(m.group(1))
        if msgid == "":
            return m.group(0)
        if msgid not in T:  # untranslated, not a guess: msgmerge's fuzzy guesses lose their flag below
            missing.append(msgid)
            return f'msgid {m.group(1)}\nmsgstr ""'
        value = T[msgid][index].replace("\\", "\\\\").replace('"', '\\"')
        return f'msgid {m.group(1)}\nmsgstr "{value}"'

    text = ENTRY.sub(repl, text)
    text = text.replace("#, fuzzy\n", "").replace("#, fuzzy, ", "#, ")  # msgfmt skips fuzzy entries
    path.write_text(text, encoding="utf-8")
    return missing


def main() -> int:
    _load_extra()
    missing: set[str] = set()
    for lang, index in (("de", 0), ("fr", 1)):
        po = ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"
        missing |= set(fill(po, index))
        subprocess.run(["msgfmt", "-o", str(po.with_suffix(".mo")), str(po)], check=True)
    for m in sorted(missing):
        print(f"untranslated: {m!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
