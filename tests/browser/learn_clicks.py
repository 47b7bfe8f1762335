"""How a learner's expected action of a guided match is done on each game's real table (its own controls)."""

from __future__ import annotations

from typing import Any


def _zack(page: Any, action: dict[str, Any]) -> None:
    kind = action["kind"]
    if kind == "challenge":
        page.click(f"[data-testid=challenge-{action['target']}]")
    else:
        page.click(f"[data-testid={kind}]")


def _smackit(page: Any, action: dict[str, Any]) -> None:
    page.click(f"[data-testid={action['kind']}]")


CLICKS = {"zack": _zack, "smackit": _smackit}


def click_for(page: Any, slug: str, action: dict[str, Any]) -> None:
    CLICKS[slug](page, action)
