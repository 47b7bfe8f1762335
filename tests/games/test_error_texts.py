"""Every refusal has a translated, player-facing sentence: the codes are read from the source itself.

The enumeration walks the syntax trees of the rules, services, selectors, APIs and consumers, so a
code added anywhere without a catalogue entry (or without its German and French translation in
locale/*/LC_MESSAGES/django.po, compiled to django.mo) fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games import error_texts
from games.errors import PlatformError

ROOT = Path(settings.BASE_DIR)
RULE_FILES = sorted([ROOT / "games" / "engine.py", *ROOT.glob("games/*/rules.py")])
PLATFORM_FILES = sorted(
    p
    for app in ("games", "accounts", "replays", "tournaments", "config", "web", "live", "moderation", "matchmaking")
    for p in (ROOT / app).rglob("*.py")
    if "migrations" not in p.parts and "tests" not in p.parts
)
HELPER_DEFAULTS = {"conflict": "conflict", "forbidden": "forbidden", "bad_request": "bad_request", "not_found": "not_found"}


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _call_name(call: ast.Call) -> str | None:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def _code_arg(call: ast.Call, position: int) -> ast.AST | None:
    for kw in call.keywords:
        if kw.arg == "code":
            return kw.value
    return call.args[position] if len(call.args) > position else None


def rule_codes() -> set[str]:
    """Every literal code of a `RuleError(...)` in the engine and the games' rules."""
    codes: set[str] = set()
    for path in RULE_FILES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and _call_name(node) == "RuleError":
                code = _literal(_code_arg(node, 0))
                if code is not None:
                    codes.add(code)
    return codes


def platform_codes() -> tuple[set[str], int]:
    """Literal codes of PlatformError / errors.<helper>(...) / a socket's Refusal(...) or self.error(...), the
    (message, code) tuples of `*_problem` helpers, and the count of codes built with an f-string."""
    codes: set[str] = set()
    dynamic = 0
    for path in PLATFORM_FILES:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_problem"):
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple) and len(ret.value.elts) == 2:
                        code = _literal(ret.value.elts[1])
                        if code is not None:
                            codes.add(code)
            if not isinstance(node, ast.Call):
                continue
            name = _call_name(node)
            if name in ("PlatformError", "Refusal") or (name == "error" and path.name == "consumers.py"):
                arg = _code_arg(node, 0)
            elif name in HELPER_DEFAULTS and isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", "") == "errors":
                if any(isinstance(a, ast.Starred) for a in node.args):
                    continue  # raise errors.conflict(*problem): the *_problem tuples above
                arg = _code_arg(node, 1)
                if arg is None:
                    codes.add(HELPER_DEFAULTS[name])
                    continue
            else:
                continue
            code = _literal(arg)
            if code is not None:
                codes.add(code)
            elif isinstance(arg, ast.JoinedStr):
                dynamic += 1
    return codes, dynamic


def test_the_enumeration_finds_the_codes_it_must() -> None:
    # Guards the walker itself: codes known to be raised must be found, or the checks below prove nothing.
    assert {"not_your_turn", "smack_pending", "grace", "no_power", "stop_limit", "bad_option"} <= rule_codes()
    codes, dynamic = platform_codes()
    assert {"rule", "seat_taken", "not_host", "rate_limited", "bad_message", "too_few_players", "not_found"} <= codes
    assert dynamic >= 1  # tournaments' bad_{name}


def test_every_rule_code_has_a_catalogue_sentence() -> None:
    assert sorted(rule_codes() - set(error_texts.RULE_MESSAGES)) == []


def test_every_platform_code_has_a_catalogue_sentence() -> None:
    codes, _ = platform_codes()
    missing = sorted(c for c in codes - set(error_texts.PLATFORM_MESSAGES) if not c.startswith("bad_"))
    assert missing == []


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_sentence_is_translated(lang: str) -> None:
    sentences = {
        **{f"rule:{k}": v for k, v in error_texts.RULE_MESSAGES.items()},
        **{f"platform:{k}": v for k, v in error_texts.PLATFORM_MESSAGES.items()},
        "bad_field": error_texts.BAD_FIELD_MESSAGE,
    }
    untranslated = []
    for key, lazy in sentences.items():
        with translation.override("en"):
            english = str(lazy)
        with translation.override(lang):
            if str(lazy) == english:
                untranslated.append((key, english))
    assert untranslated == []


@pytest.mark.parametrize(("lang", "words"), [("de", "nicht dran"), ("fr", "pas votre tour")])
def test_a_refusal_reaches_a_player_in_their_language(lang: str, words: str) -> None:
    refusal = PlatformError("rule", "it is not your turn to flip", 400, rule_code="not_your_turn")
    with translation.override(lang):
        assert words in refusal.as_json()["detail"]
    assert error_texts.player_message(code="rule", rule_code="not_your_turn", fallback="x", language=lang).find(words) >= 0
    with translation.override("en"):  # English keeps the rule's own, more specific sentence
        assert refusal.as_json() == {"detail": "it is not your turn to flip", "code": "rule", "rule_code": "not_your_turn"}


def test_every_rule_and_platform_code_answers_in_german_and_french() -> None:
    codes, _ = platform_codes()
    for code in sorted(codes):
        de = error_texts.player_message(code=code, fallback="ENGLISH", language="de")
        fr = error_texts.player_message(code=code, fallback="ENGLISH", language="fr")
        assert de != "ENGLISH" and fr != "ENGLISH" and de != fr, code
    for rule_code in sorted(rule_codes()):
        de = error_texts.player_message(code="rule", rule_code=rule_code, fallback="ENGLISH", language="de")
        with translation.override("de"):
            assert de == str(error_texts.RULE_MESSAGES[rule_code]) != "ENGLISH", rule_code


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([(b"cookie", b"sessionid=x; django_language=fr")], "fr"),
        ([(b"cookie", b"django_language=de"), (b"accept-language", b"fr-FR,fr;q=0.9")], "de"),
        ([(b"accept-language", b"de-DE,de;q=0.9,en;q=0.5")], "de"),
        ([(b"cookie", b"django_language=xx"), (b"accept-language", b"it,fr;q=0.5")], "fr"),
        ([(b"cookie", b"\x00broken;;=")], "en"),
        ([], "en"),
    ],
)
def test_socket_language_follows_the_page(headers: list[tuple[bytes, bytes]], expected: str) -> None:
    assert error_texts.socket_language({"headers": headers}) == expected
