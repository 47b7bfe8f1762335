"""The Content-Security-Policy of every response (docs/security.md "Content-Security-Policy").

Scripts come from this site's files only (`script-src 'self'`): no inline script, no `on*`
attribute, no `eval`. A page's configuration travels as JSON data (`json_script`,
games/templatetags/page_config.py) read by a static script. Styles keep `'unsafe-inline'`:
templates carry `style` attributes and a few `<style>` blocks, and the pages' scripts set
`style` on the elements they build; CSS cannot run script, so that costs the policy's
purpose (no injected script runs) nothing. Sockets and fetches go to this site only
(`connect-src 'self'`, which covers ws:/wss: of the same host), no page may frame ours.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


class ContentSecurityPolicy:
    """Sets the policy on every response that has none of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", POLICY)
        return response
