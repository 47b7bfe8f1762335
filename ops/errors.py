"""Optional error reporting to Sentry (or any service speaking its protocol), only when SENTRY_DSN is set.

Why optional: the platform runs without any outside service; an operator who has one names it
and gets every unhandled error of the web processes and the Celery workers with its stack. No
personal data is sent (send_default_pii off): a report carries the stack and the request's path,
never the session, the cookies or who the user was.
"""

from __future__ import annotations


def sentry_init(*, dsn: str, environment: str, release: str | None, traces_sample_rate: float) -> bool:
    """Initialise the Sentry SDK with the Django and Celery integrations; False (nothing done) without a DSN."""
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=traces_sample_rate,
        send_default_pii=False,
    )
    return True
