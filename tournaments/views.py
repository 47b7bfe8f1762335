"""Tournament pages: list, create, detail (live), standings as CSV. Thin."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from games import errors
from games.option_texts import games_with_option_texts
from games.selectors import game_list
from tournaments import selectors
from tournaments.formats import FORMATS
from tournaments.models import Tournament


def _get(tournament_id: int) -> Tournament:
    try:
        return selectors.tournament_get(tournament_id=tournament_id)
    except errors.PlatformError:
        raise Http404("no such tournament") from None


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = [selectors.tournament_summary(t) for t in selectors.tournament_list()[:200]]
    names = {g["slug"]: g["name"] for g in game_list()}
    for t in tournaments:
        t["game_name"] = names.get(t["game"], t["game"])
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/new.html", {"games": games_with_option_texts(games=game_list()), "formats": FORMATS})


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _get(tournament_id)
    return render(
        request,
        "tournaments/detail.html",
        {
            "t": t,
            "payload": selectors.tournament_payload(t),
            "is_organiser": request.user.is_authenticated and (request.user.pk == t.organiser_id or request.user.is_staff),
            "me": request.user.username if request.user.is_authenticated else "",
        },
    )


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell a spreadsheet will not run: one starting like a formula gets a leading `'` (OWASP).

    Usernames and other text people choose reach the organiser's Excel or
    LibreOffice; `=HYPERLINK(...)` or `+cmd|...` there is a formula, run when
    the file is opened. Numbers stay numbers (a negative score is no formula).
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _get(tournament_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(t.name) or "tournament"}-{t.pk}-standings.csv"'
    writer = csv.writer(response)
    for line in selectors.standings_csv_rows(t):
        writer.writerow([spreadsheet_safe(cell) for cell in line])
    return response
