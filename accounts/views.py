"""Pages: sign-up, log-in, log-out. Thin: the work is in services. (The profile page is the stats app's.)"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from accounts import services
from accounts.forms import SignUpForm, ThrottledLoginForm
from accounts.throttling import SignupAddressThrottle, throttled_form_status


def _safe_next(request: HttpRequest) -> str:
    """Where to go after signing up: `next` when it is a page of this site (never another site)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return ""


def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    too_many = _("Too many sign-ups from your address. Try again in %(minutes)s min.")
    status = throttled_form_status(request=request, form=form, throttle=SignupAddressThrottle, too_many=too_many)
    if status is None:
        user = form.save()
        if user is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_safe_next(request) or settings.LOGIN_REDIRECT_URL)
        status = 200
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)}, status=status)


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = ThrottledLoginForm

    def form_invalid(self, form: Any) -> HttpResponse:
        """A log-in refused for its rate or lock-out is answered 429, like the API's."""
        response = super().form_invalid(form)
        if form.refused_for_rate():
            response.status_code = 429
        return response


class LogoutView(auth_views.LogoutView):
    """Log-out ends the session and deletes the user's API token: nothing of the log-in outlives it."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            services.token_revoke(user=request.user)
        return super().post(request, *args, **kwargs)
