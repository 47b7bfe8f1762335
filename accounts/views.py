"""Pages: sign-up, log-in, log-out, profile. Thin: the work is in services."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts.forms import SignUpForm, ThrottledLoginForm
from accounts.selectors import user_by_name
from replays.selectors import match_list


def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if user is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("lobby")
    return render(request, "accounts/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = ThrottledLoginForm


def profile(request: HttpRequest, username: str) -> HttpResponse:
    from games.models import MatchPlayer
    from replays.stats_views import profile_games

    player = user_by_name(username=username)
    # The player's last 50 matches by id first: match_list(player=...) joins and DISTINCTs every match
    # of the player (seconds for ten thousand matches).
    ids = list(MatchPlayer.objects.filter(user=player).order_by("-match_id").values_list("match_id", flat=True)[:50])
    matches = match_list().filter(pk__in=ids)
    return render(
        request, "accounts/profile.html", {"player": player, "matches": matches, "game_stats": profile_games(user=player)}
    )
