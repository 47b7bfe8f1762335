"""Server-rendered pages: lobby, table, rules help, invite links, health. Thin."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_http_methods

from games import errors, selectors
from games.first_hour.views import lesson_offered
from games.kit.registry import get_rules, public_slugs
from games.option_texts import games_with_option_texts, table_options_help
from games.services.tables import table_join_by_invite
from games.table_options import TABLE_OPTIONS


def lobby(request: HttpRequest) -> HttpResponse:
    tables = [selectors.table_payload(t) for t in selectors.table_list(status="open")[:100]]
    playing = [selectors.table_payload(t) for t in selectors.table_list(status="playing")[:50]]
    return render(
        request,
        "games/lobby.html",
        {"games": games_with_option_texts(games=selectors.game_list()), "tables": tables, "playing": playing, "zombie": TABLE_OPTIONS["zombie_seconds"],
         "lag_cap": TABLE_OPTIONS["lag_cap_ms"], "table_help": table_options_help(), "learn_banner": lesson_offered(user=request.user),
         "in_progress": _in_progress(request), "queue_seats": {g: get_rules(g).min_seats for g in public_slugs()}},
    )


def _in_progress(request: HttpRequest) -> list[dict[str, object]]:
    """The player's live tables for the lobby: game, who else sits there, and the tournament when it is one's."""
    rows = []
    for t in selectors.tables_in_progress(user=request.user):
        tt = getattr(t, "tournament_table", None)
        rows.append({
            "id": t.pk, "game": get_rules(t.game).name, "ranked": t.ranked,
            "others": [s.user.username for s in t.seat_set.all() if s.user_id != request.user.pk],
            "tournament": tt.round.tournament.name if tt else None,
        })
    return rows


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        table = selectors.table_get(table_id=table_id)
    except errors.PlatformError:
        raise Http404("no such table") from None
    rules = get_rules(table.game)
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "game_name": rules.name,
            "payload": selectors.table_payload(table),
            "seat": selectors.seat_of(table=table, user=request.user),
            "invite_url": request.build_absolute_uri(f"/invite/{table.invite_code}/"),
            "grace_seconds": settings.TOURNAMENT_SEAT_GRACE_SECONDS,
        },
    )


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, code: str) -> HttpResponse:
    """GET shows the invitation (whose table, which game, ranked or not, seats free) with a Join button;
    only its POST, CSRF-checked, seats the visitor. A link opened from another site changes nothing.
    A visitor not logged in sees the same invitation with sign-up and log-in, both coming back here
    (`next`): a friend's first visit must not lose the table on the way through registration."""
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        table = selectors.table_by_invite(code=code)
        if request.method == "POST":
            table_join_by_invite(code=code, user=request.user)
            return redirect("table", table_id=table.pk)
    except errors.PlatformError:
        raise Http404("this invitation is not valid") from None
    context = selectors.invitation(table=table, user=request.user)
    if context["seated"]:
        return redirect("table", table_id=table.pk)
    return render(request, "games/invite.html", context)


def rules_help(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in public_slugs():
        raise Http404("no such game")
    # One template per game, its words in locale/<lang>/LC_MESSAGES/django.po like every other page's.
    try:
        body = render_to_string(f"games/{slug}/help.html", request=request)
    except TemplateDoesNotExist:
        body = ""
    return render(request, "games/rules_help.html", {"slug": slug, "game_name": get_rules(slug).name, "body": body})


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """For deployments: the process answers and the database does too."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        db = "ok"
    except Exception as e:  # noqa: BLE001 - reported, not raised
        db = f"error: {e.__class__.__name__}"
    return JsonResponse({"status": "ok" if db == "ok" else "degraded", "database": db}, status=200 if db == "ok" else 503)
