"""The moderators' desk (`/moderation/`, staff only): the queue with its evidence and a form per player.

Thin: selectors read, `services.moderation_action_take` acts (the same call as the API). A plain form
posted here, so the desk works without scripts.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games.errors import PlatformError
from moderation import fair_play, selectors, services


def _reason_labels() -> dict[str, str]:
    return {
        "median_below_human": _("median reaction faster than a person's"),
        "fast_share": _("too many reactions under 100 ms"),
        "anticipations": _("too many anticipations"),
        "low_variance": _("reactions too even for a person"),
        "rtt_inflated": _("round trips inflated"),
    }


def action_labels() -> dict[str, str]:
    return {"warn": _("Warn"), "mute": _("Mute"), "mark": _("Mark as a cheater"), "ban": _("Ban"), "clear": _("Clear")}


def _bars(histogram: list[dict]) -> list[dict]:
    top = max((b["count"] for b in histogram), default=0) or 1
    return [{**b, "width": round(85 * b["count"] / top)} for b in histogram]  # 85 %: room for the count beside the bar


def desk(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise PermissionDenied
    if request.method == "POST":
        try:
            taken = services.moderation_action_take(
                by=request.user, username=request.POST.get("username", ""), action=request.POST.get("action", ""),
                note=request.POST.get("note", ""),
            )
            messages.success(request, _("Done: %(action)s for %(username)s.") % {"action": action_labels()[taken.action], "username": taken.user.username})
        except PlatformError as e:
            messages.error(request, e.message)
        return redirect("moderation-desk")
    labels = _reason_labels()
    queue = selectors.moderation_queue()
    for entry in queue:
        entry["reason_labels"] = [labels.get(r, r) for r in entry["reasons"]]
        record = entry["evidence"]["fair_play"]
        entry["bars"] = _bars(record["histogram"]) if record and record.get("histogram") else []
    return render(request, "moderation/desk.html", {
        "queue": queue,
        "log": selectors.actions_log(limit=30),
        "actions": services.ACTIONS,
        "min_races": fair_play.MIN_RACES,
    })
