"""/health/ready/: 200 only when the database, the channel layer and the broker answer; 503 naming what does not."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db(transaction=True)


def test_ready_when_everything_answers() -> None:
    response = Client().get("/health/ready/")
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "status": "ready",
        "failing": [],
        "checks": {"database": "ok", "channel_layer": "ok", "broker": "ok"},
    }


@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0", READY_TIMEOUT_SECONDS=2.0)
def test_a_broker_that_does_not_answer_is_named_with_503() -> None:
    response = Client().get("/health/ready/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unready"
    assert body["failing"] == ["broker"]
    assert body["checks"]["broker"].startswith("error: ")
    assert body["checks"]["database"] == "ok" and body["checks"]["channel_layer"] == "ok"
    assert "127.0.0.1:1" not in response.content.decode()  # hosts go to the log, not to a public answer


def test_a_broker_folder_that_is_gone_is_named(tmp_path) -> None:
    from django.conf import settings

    options = dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS, data_folder_out=str(tmp_path / "missing"))
    with override_settings(CELERY_BROKER_URL="safefs://", CELERY_BROKER_TRANSPORT_OPTIONS=options):
        response = Client().get("/health/ready/")
    assert response.status_code == 503
    assert response.json()["failing"] == ["broker"]


def test_a_redis_channel_layer_that_does_not_answer_is_named() -> None:
    layers = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:1/0"}]}}}
    with override_settings(CHANNEL_LAYERS=layers, READY_TIMEOUT_SECONDS=2.0):
        response = Client().get("/health/ready/")
    assert response.status_code == 503
    assert response.json()["failing"] == ["channel_layer"]


def test_a_check_that_hangs_is_a_timeout_within_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    from ops import checks

    release = threading.Event()
    monkeypatch.setitem(checks.CHECKS, "database", lambda: "ok" if release.wait(10) else "late")
    with override_settings(READY_TIMEOUT_SECONDS=0.5):
        started = time.monotonic()
        response = Client().get("/health/ready/")
        elapsed = time.monotonic() - started
    release.set()
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "timeout"
    assert elapsed < 3


def test_liveness_is_kept() -> None:
    assert Client().get("/health/").status_code == 200
