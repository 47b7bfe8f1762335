"""The statistics contract (games/kit/figures.py): every game brings its own extractor and figures through
the registry, so the platform names no game's event kinds and a fifth game needs no platform change."""

from __future__ import annotations

import ast
import pathlib
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.kit import registry
from games.kit.figures import NO_STATS, Event, GameStats, SeatFigures, count, median
from stats.figures import figures, match_figures, tally_add_match, tally_empty
from tests.support.tinygame import RULES as TINY

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _tiny_extract(events: Sequence[Event], per_seat: list[SeatFigures], outcome: Mapping[str, Any]) -> None:
    for e in events:
        if e["kind"] == "played":
            per_seat[e["seat"]].count("plays")
            per_seat[e["seat"]].sample("think_ms", int(e.get("t_ms") or 0))


TINY_STATS = GameStats(
    extract=_tiny_extract,
    figures=(count("plays", "Plays"), median("think_median_ms", "think_ms", "Median think time")),
)


@pytest.fixture
def tiny_with_stats() -> Any:
    registry.register(TINY, stats=TINY_STATS)
    yield
    registry.unregister(TINY.slug)


def test_a_registered_game_brings_its_own_figures(tiny_with_stats: Any) -> None:
    log = [
        {"seq": 1, "t_ms": 0, "kind": "dealt", "seat": None, "data": {}},
        {"seq": 2, "t_ms": 300, "kind": "played", "seat": 0, "data": {}},
        {"seq": 3, "t_ms": 700, "kind": "played", "seat": 1, "data": {}},
        {"seq": 4, "t_ms": 900, "kind": "played", "seat": 0, "data": {}},
    ]
    m = match_figures(TINY.slug, log, 2, {"placements": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}], "winners": [0]})
    assert [f.counts for f in m.per_seat] == [{"plays": 2}, {"plays": 1}]
    out = figures(tally_add_match(tally_empty(), m), TINY.slug)
    assert out["plays"] == 3
    assert out["think_median_ms"] == 700  # samples 300, 900 and 700


def test_a_game_without_statistics_has_only_the_platform_figures() -> None:
    registry.register(TINY)
    try:
        assert registry.get_stats(TINY.slug) is NO_STATS
        out = figures(tally_empty(), TINY.slug)
        assert set(out) == {"played", "won", "win_rate", "average_place", "average_events", "average_seconds", "positions"}
    finally:
        registry.unregister(TINY.slug)
    assert registry.get_stats("no-such-game") is NO_STATS


@pytest.mark.parametrize("slug", registry.INSTALLED)
def test_every_installed_game_has_a_pure_stats_module_with_labelled_figures(slug: str) -> None:
    spec = registry.get_stats(slug)
    assert spec is not NO_STATS and spec.figures
    assert len({f.key for f in spec.figures}) == len(spec.figures)
    assert all(f.kind in ("count", "median", "mean") and f.label for f in spec.figures)
    tree = ast.parse((ROOT / "games" / slug / "stats.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    assert not any(str(m).startswith(("django", "stats", "replays")) for m in imported), imported


def test_the_platform_names_no_game_event_kind() -> None:
    """stats/ reads events only through the games' extractors (the deal's `dealt` aside: the playing order)."""
    kinds = {"thrown", "challenged", "smacked", "snapped", "announced", "countered", "revealed", "pile_won"}
    for path in (ROOT / "stats").rglob("*.py"):
        text = path.read_text()
        assert not [k for k in kinds if f'"{k}"' in text], path
