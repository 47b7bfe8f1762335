"""The layers of docs/architecture.md, held against the code's own imports (every import, at any depth).

config is wiring that nothing imports; live imports nothing of the domain, the pages or
the web edge; the game kit imports no Django; the domain never imports a consumer; no
production module imports tests or tools; and no two modules import each other round a
circle. Read with `ast` from the files, so a module is never run here.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("accounts", "games", "live", "web", "ops", "moderation", "matchmaking", "people", "replays", "stats", "tournaments")
DOMAIN = ("accounts", "games", "moderation", "matchmaking", "people", "replays", "stats", "tournaments")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _production() -> dict[str, Path]:
    found = {}
    for top in (*APPS, "config"):
        for path in (ROOT / top).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module(path)] = path
    return found


MODULES = _production()


def _imports(name: str, path: Path) -> set[str]:
    """Every module `name` imports, at the top or inside a function, resolved to the project's modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return out


IMPORTS = {name: _imports(name, path) for name, path in MODULES.items()}


def _project(imported: set[str]) -> set[str]:
    return {m for m in imported if m in MODULES}


def _offenders(where: tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{name} imports {target}"
        for name, imported in IMPORTS.items()
        if name.split(".")[0] in where or name.startswith(tuple(w + "." for w in where if "." in w)) or name in where
        for target in imported
        if any(target == f or target.startswith(f + ".") for f in forbidden)
    )


def test_nothing_imports_config() -> None:
    assert _offenders(APPS, ("config",)) == []


def test_live_imports_nothing_of_the_domain_the_pages_or_the_web_edge() -> None:
    assert _offenders(("live",), (*DOMAIN, "web")) == []


def test_the_game_kit_imports_no_django_and_no_platform_code() -> None:
    kit = {n: i for n, i in IMPORTS.items() if n == "games.kit" or n.startswith("games.kit.") or n == "games.engine"}
    assert kit, "the kit is where docs/architecture.md says"
    bad = sorted(
        f"{n} imports {t}"
        for n, imported in kit.items()
        for t in imported
        if t == "django"
        or t.startswith("django.")
        or (t.startswith("games.") and not t.startswith(("games.kit", "games.engine")))
    )
    assert bad == []


def test_the_domain_never_imports_a_consumer() -> None:
    """Consumers (the pages' side of a socket) may build on games/socket; nothing below them may."""
    pages = ("games.socket", "games.routing", "config")
    bad = sorted(
        f"{n} imports {t}"
        for n, imported in IMPORTS.items()
        for t in imported
        if t.startswith("games.socket") and not (n.startswith(pages) or n.endswith(".consumers"))
    )
    assert bad == []


def test_no_production_module_imports_tests_or_tools() -> None:
    bad = sorted(f"{n} imports {t}" for n, imported in IMPORTS.items() for t in imported if t.split(".")[0] in ("tests", "tools"))
    assert bad == []


def test_no_import_circle() -> None:
    graph = {n: _project(i) - {n} for n, i in IMPORTS.items()}
    # a package's __init__ importing its own submodules is not a circle of meaning: count module to module only
    for n in graph:
        graph[n] = {t for t in graph[n] if not (n.startswith(t + ".") and MODULES[t].name == "__init__.py")}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert circles == []
