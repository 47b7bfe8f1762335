"""Who may read /metrics: it shows the platform's traffic, so it is not public in production.

A reader is any of: a request from an address in METRICS_ALLOWED (IPs or CIDR networks, the client
address as accounts.throttling.client_address sees it behind TRUSTED_PROXY_COUNT proxies), a
request carrying `Authorization: Bearer <METRICS_TOKEN>` (a scraper elsewhere), or a signed-in
staff user (an operator's browser). METRICS_ALLOWED defaults to loopback on the embedded default
and to nobody in the production configuration.
"""

from __future__ import annotations

import hmac
import ipaddress
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest

from accounts.throttling import client_address

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def networks(text: str) -> tuple[Network, ...]:
    """`"10.0.0.0/8, 192.0.2.7"` as networks (a bare address is a network of one)."""
    found = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        try:
            found.append(ipaddress.ip_network(item, strict=False))
        except ValueError as exc:
            raise ImproperlyConfigured(f"METRICS_ALLOWED: {item!r} is not an IP address or network") from exc
    return tuple(found)


def _token_matches(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    given = request.META.get("HTTP_AUTHORIZATION", "")
    if not token or not given.startswith("Bearer "):
        return False
    return hmac.compare_digest(given[len("Bearer ") :].strip().encode(), token.encode())


def _address_allowed(request: HttpRequest) -> bool:
    try:
        address = ipaddress.ip_address(client_address(request).strip("[]"))
    except ValueError:
        return False
    return any(address in network for network in networks(settings.METRICS_ALLOWED))


def may_read_metrics(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return _token_matches(request) or bool(user is not None and user.is_authenticated and user.is_staff) or _address_allowed(request)
