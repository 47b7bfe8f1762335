"""Who is asking and how often: the client address, and the per-address rates of log-ins and sign-ups.

One mechanism for request rates: DRF's `SimpleRateThrottle` (a sliding window in the default
cache: Redis with `REDIS_URL`, else the process's memory), used by the API views and the pages
alike. Failed log-ins per (account, address) are django-axes' business (accounts.services.login_check).

The address is `REMOTE_ADDR` unless `TRUSTED_PROXY_COUNT` says how many proxies of ours stand in
front of the web processes: then it is the address the outermost of them saw, taken from the right
of `X-Forwarded-For` (entries further left are whatever the client wrote, so they are never trusted).
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import User


def client_address(request: Any) -> str:
    """The client's address: REMOTE_ADDR, or X-Forwarded-For's n-th entry from the right behind n trusted proxies."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [h.strip() for h in forwarded.split(",") if h.strip()]
    return hops[-min(proxies, len(hops))] if hops else remote


def login_username(request: Any, credentials: dict[str, Any] | None) -> str:
    """The name django-axes counts failures under: as Django stores names (NFKC) and without case,
    so `Ana` and `ana` are one account's failures, not two allowances."""
    name = (credentials or {}).get("username")
    if name is None:
        name = getattr(request, "POST", {}).get("username", "")
    return User.normalize_username(str(name or "")).casefold()


class AddressRateThrottle(SimpleRateThrottle):
    """DRF's sliding-window throttle keyed by client address; the rate is read from a setting per request
    (DRF reads DEFAULT_THROTTLE_RATES once at import, so a deployment's or a test's value would be missed)."""

    rate_setting = ""

    def get_rate(self) -> str | None:
        return getattr(settings, self.rate_setting)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


class LoginAddressThrottle(AddressRateThrottle):
    """Log-in attempts (page and API) per address, whatever names they try."""

    scope = "login"
    rate_setting = "LOGIN_RATE"


class SignupAddressThrottle(AddressRateThrottle):
    """Sign-up attempts (page and API) per address."""

    scope = "signup"
    rate_setting = "SIGNUP_RATE"


class ResetAddressThrottle(AddressRateThrottle):
    """Password-reset requests per address: each may send mail, to addresses the asker does not own."""

    scope = "password_reset"
    rate_setting = "PASSWORD_RESET_RATE"


def address_wait(*, throttle: type[AddressRateThrottle], request: HttpRequest) -> int | None:
    """Count this request against its address's rate: None when it may go on, else whole seconds to wait."""
    t = throttle()
    if t.allow_request(request, None):
        return None
    return max(1, math.ceil(t.wait() or 1))


def wait_minutes(seconds: int) -> int:
    """Whole minutes to wait (at least one), for messages telling people when to try again."""
    return max(1, math.ceil(seconds / 60))


def throttled_form_status(*, request: HttpRequest, form: Any, throttle: type[AddressRateThrottle], too_many: str) -> int | None:
    """For a page whose form is limited per address (sign-up, password reset): None when a valid POST may go on,
    else the status to draw the page with: 200 (no POST, or one the form refused), 429 (the address is over its
    rate; the form then says so, `too_many` with `%(minutes)s`). The pages share it so that both count only
    valid POSTs against the address and both answer a refusal alike, like the API's (accounts/api.py)."""
    if request.method != "POST" or not form.is_valid():
        return 200
    wait = address_wait(throttle=throttle, request=request)
    if wait is None:
        return None
    form.add_error(None, too_many % {"minutes": wait_minutes(wait)})
    return 429
