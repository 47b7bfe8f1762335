"""Pages and API answers of a logged-in player speak the account's language."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


class UserLanguageMiddleware:
    """After authentication: a logged-in account with a language (`en`, `de`, `fr`) overrides what
    LocaleMiddleware chose from the cookie or the browser. Without one, the switcher's cookie still rules
    (the switcher saves to the account too, accounts.views.set_language)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)  # LocaleMiddleware, outside us, sets Content-Language from it
