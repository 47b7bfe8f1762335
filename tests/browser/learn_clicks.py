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


def _zwicker(page: Any, action: dict[str, Any]) -> None:
    kind = action["kind"]
    if kind == "snap":
        for slot in action["slots"]:
            page.click(f"[data-testid=slot-0-{slot}]")
        page.click("[data-testid=snap]")
    elif kind in ("take_discard", "use", "replace"):
        page.click("[data-testid={}]".format({"take_discard": "take-discard"}.get(kind, kind)))
        page.click(f"[data-testid=slot-{action.get('target', 0)}-{action['slot']}]")
    else:
        page.click(f"[data-testid={kind}]")


def _zigzag(page: Any, action: dict[str, Any]) -> None:
    kind = action["kind"]
    if kind == "open":
        page.click(f"[data-testid=hand-{action['card']}]")
        page.click("[data-testid=open]")
    elif kind == "exchange":
        page.click(f"[data-testid=hand-{action['give']}]")
        page.click(f"[data-testid=centre-{action['take']}]")
    elif kind == "announce":
        page.click(f"[data-testid=announce-{action['combo']}]")
    else:
        page.click(f"[data-testid={kind}]")


CLICKS = {"zack": _zack, "smackit": _smackit, "zwicker": _zwicker, "zigzag": _zigzag}


def click_for(page: Any, slug: str, action: dict[str, Any]) -> None:
    CLICKS[slug](page, action)
