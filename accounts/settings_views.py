"""Pages of a player's own account: settings, password change, deletion, password reset, e-mail check,
and the language switcher that also saves to the account. Thin: the work is in accounts.self_service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts import self_service
from accounts.forms import (
    DeleteAccountForm,
    PasswordChangePageForm,
    PasswordResetAskForm,
    PasswordResetSetForm,
    SettingsForm,
    add_errors,
)
from accounts.throttling import ResetAddressThrottle, throttled_form_status


def _root(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    action = request.POST.get("action") if request.method == "POST" else None
    prefs = SettingsForm(request.POST if action == "settings" else None, initial={
        "email": user.email, "language": user.language, "sounds": user.sounds, "notifications": user.notifications,
    })
    password = PasswordChangePageForm(request.POST if action == "password" else None)
    delete = DeleteAccountForm(request.POST if action == "delete" else None)
    status = 200
    if action == "settings" and prefs.is_valid():
        try:
            self_service.account_update(user=user, base_url=_root(request), **prefs.cleaned_data)
        except ValidationError as e:
            add_errors(prefs, e)
        else:
            if prefs.cleaned_data["language"]:
                translation.activate(prefs.cleaned_data["language"])
            messages.success(request, _("Your settings are saved."))
            response = redirect("settings")
            if prefs.cleaned_data["language"]:
                response.set_cookie("django_language", prefs.cleaned_data["language"], samesite="Lax")
            return response
    elif action == "password" and password.is_valid():
        try:
            self_service.password_change(user=user, request=request, **password.cleaned_data)
        except ValidationError as e:
            add_errors(password, e)
        else:
            messages.success(request, _("Your password is changed. Every other session and API token has ended."))
            return redirect("settings")
    elif action == "delete" and delete.is_valid():
        try:
            self_service.account_delete(user=user, password=delete.cleaned_data["password"])
        except ValidationError as e:
            add_errors(delete, e)
        else:
            logout(request)
            messages.success(request, _("Your account is deleted."))
            return redirect("lobby")
    elif action == "verify":
        self_service.email_verify_request(user=user, base_url=_root(request))
        messages.success(request, _("A mail with a confirmation link is on its way."))
        return redirect("settings")
    if action is not None:
        status = 400
    return render(request, "accounts/settings.html", {"prefs": prefs, "password": password, "delete": delete}, status=status)


def password_reset_page(request: HttpRequest) -> HttpResponse:
    """Ask for a reset link. The page says the same whether or not the address has an account."""
    form = PasswordResetAskForm(request.POST or None)
    too_many = _("Too many requests from your address. Try again in %(minutes)s min.")
    status = throttled_form_status(request=request, form=form, throttle=ResetAddressThrottle, too_many=too_many)
    if status is None:
        self_service.password_reset_request(email=form.cleaned_data["email"], base_url=_root(request))
        return render(request, "accounts/password_reset.html", {"sent": True})
    return render(request, "accounts/password_reset.html", {"form": form}, status=status)


def password_reset_confirm_page(request: HttpRequest, uid: str, token: str) -> HttpResponse:
    """The mail's link lands here: a form for the new password while the link still works."""
    try:
        self_service.password_reset_check(uid=uid, token=token)
    except self_service.BadLinkError:
        return render(request, "accounts/password_reset_confirm.html", {"bad_link": True}, status=400)
    form = PasswordResetSetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            self_service.password_reset_confirm(uid=uid, token=token, new_password=form.cleaned_data["new_password"])
        except self_service.BadLinkError:
            return render(request, "accounts/password_reset_confirm.html", {"bad_link": True}, status=400)
        except ValidationError as e:
            add_errors(form, e)
        else:
            messages.success(request, _("Your new password is set: log in with it."))
            return redirect("login")
    return render(request, "accounts/password_reset_confirm.html", {"form": form}, status=400 if form.errors else 200)


def verify_email_page(request: HttpRequest, uid: str, token: str) -> HttpResponse:
    """A verification mail's link: a GET only shows a button, the POST confirms (mail scanners open links)."""
    if request.method == "POST":
        try:
            self_service.email_verify_confirm(uid=uid, token=token)
        except self_service.BadLinkError:
            return render(request, "accounts/verify_email.html", {"bad_link": True}, status=400)
        return render(request, "accounts/verify_email.html", {"done": True})
    return render(request, "accounts/verify_email.html", {})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switcher, which also saves the choice to a logged-in player's account."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in self_service.LANGUAGES and language != request.user.language:
        self_service.account_update(user=request.user, language=language)
    return response
