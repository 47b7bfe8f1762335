"""Forms of the sign-up and log-in pages (the same checks as the API)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts import services


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
    """Django's log-in form, counting failures through accounts.services."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        password = self.cleaned_data.get("password") or ""
        address = self.request.META.get("REMOTE_ADDR", "") if self.request else ""
        try:
            user = services.login_check(username=username, password=password, address=address)
        except services.LoginThrottledError as e:
            raise ValidationError(_("Too many failed log-ins. Try again in a few minutes."), code="throttled") from e
        if user is None:
            raise self.get_invalid_login_error()
        self.confirm_login_allowed(user)
        self.user_cache = user
        return self.cleaned_data
