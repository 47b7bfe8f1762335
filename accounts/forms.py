"""Forms of the sign-up and log-in pages (the same checks and limits as the API)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _

from accounts import services
from accounts.models import LANGUAGE_CHOICES
from accounts.throttling import LoginAddressThrottle, address_wait, wait_minutes

RATE_LIMITED = "rate_limited"  # error code of a form refused for its address's rate (answered 429)
THROTTLED = "throttled"  # error code of a log-in refused while its (account, address) pair cools off


class SignUpForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(label=_("Email (optional)"), required=False)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput)

    def save(self) -> Any:
        try:
            return services.user_register(**self.cleaned_data)
        except ValidationError as e:
            for field, messages in e.message_dict.items():
                for m in messages:
                    self.add_error(field if field in self.fields else None, m)
            return None


class ThrottledLoginForm(AuthenticationForm):
    """Django's log-in form: the address's attempt rate first, then the (account, address) lock-out."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        password = self.cleaned_data.get("password") or ""
        if self.request is not None:
            wait = address_wait(throttle=LoginAddressThrottle, request=self.request)
            if wait is not None:
                raise ValidationError(
                    _("Too many log-in attempts from your address. Try again in %(minutes)s min.") % {"minutes": wait_minutes(wait)},
                    code=RATE_LIMITED,
                )
        try:
            user = services.login_check(request=self.request, username=username, password=password)
        except services.LoginThrottledError as e:
            raise ValidationError(_("Too many failed log-ins. Try again in a few minutes."), code=THROTTLED) from e
        if user is None:
            raise self.get_invalid_login_error()
        self.confirm_login_allowed(user)
        self.user_cache = user
        return self.cleaned_data

    def refused_for_rate(self) -> bool:
        return self.has_error(NON_FIELD_ERRORS, RATE_LIMITED) or self.has_error(NON_FIELD_ERRORS, THROTTLED)


class SettingsForm(forms.Form):
    """The settings page's preferences (the same as `PATCH /api/me/`)."""

    email = forms.EmailField(label=_("Email"), required=False)
    language = forms.ChoiceField(label=_("Language"), required=False, choices=[("", _("The browser's"))] + list(LANGUAGE_CHOICES))
    sounds = forms.BooleanField(label=_("Sounds at the table"), required=False)
    notifications = forms.BooleanField(label=_("Mail me when someone challenges me"), required=False)


class PasswordChangePageForm(forms.Form):
    old_password = forms.CharField(label=_("Current password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))
    new_password = forms.CharField(label=_("New password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))


class DeleteAccountForm(forms.Form):
    password = forms.CharField(label=_("Your password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


class PasswordResetAskForm(forms.Form):
    email = forms.EmailField(label=_("Email"), max_length=254)


class PasswordResetSetForm(forms.Form):
    new_password = forms.CharField(label=_("New password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))


def add_errors(form: forms.Form, error: ValidationError) -> None:
    """A service's field errors shown on the form (fields it lacks: at the top)."""
    for field, messages in error.message_dict.items():
        for m in messages:
            form.add_error(field if field in form.fields else None, m)
