"""/metrics is not public in production: loopback on the embedded default, else METRICS_ALLOWED, a token, or staff."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

from ops.conf import default_allowed

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def production_default() -> str:
    """METRICS_ALLOWED as the settings module computes it with DATABASE_URL set and nothing said about metrics."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("METRICS_")}
    env.update(DATABASE_URL="postgres://nobody@127.0.0.1:1/none", SECRET_KEY="k" * 50)
    out = subprocess.run(
        [sys.executable, "-c", "import config.settings as s; print(repr(s.METRICS_ALLOWED), repr(s.METRICS_TOKEN))"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=60,
    ).stdout.strip()
    return out


def test_production_configuration_names_no_reader_by_default() -> None:
    assert production_default() == "'' ''"
    assert default_allowed(production=True) == ""


@override_settings(METRICS_ALLOWED="", METRICS_TOKEN="")
def test_anonymous_is_refused_in_production_mode() -> None:
    response = Client(REMOTE_ADDR="127.0.0.1").get("/metrics")
    assert response.status_code == 403
    assert b"cardtables_" not in response.content


@override_settings(METRICS_ALLOWED="", METRICS_TOKEN="")
def test_a_signed_in_player_who_is_not_staff_is_refused() -> None:
    from accounts.models import User

    client = Client()
    client.force_login(User.objects.create_user("ana", password="correct horse 42"))
    assert client.get("/metrics").status_code == 403


@override_settings(METRICS_ALLOWED="", METRICS_TOKEN="")
def test_staff_may_read() -> None:
    from accounts.models import User

    client = Client()
    client.force_login(User.objects.create_user("op", password="correct horse 42", is_staff=True))
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert b"# TYPE cardtables_action_ack_seconds histogram" in response.content


@override_settings(METRICS_ALLOWED="", METRICS_TOKEN="scrape-me-0123456789")
def test_the_bearer_token_and_only_it() -> None:
    assert Client(HTTP_AUTHORIZATION="Bearer scrape-me-0123456789").get("/metrics").status_code == 200
    assert Client(HTTP_AUTHORIZATION="Bearer scrape-me-012345678").get("/metrics").status_code == 403
    assert Client(HTTP_AUTHORIZATION="scrape-me-0123456789").get("/metrics").status_code == 403


@override_settings(METRICS_ALLOWED="10.0.0.0/8, 192.0.2.7", METRICS_TOKEN="", TRUSTED_PROXY_COUNT=0)
def test_allowed_networks() -> None:
    assert Client(REMOTE_ADDR="10.20.30.40").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="192.0.2.7").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="192.0.2.8").get("/metrics").status_code == 403
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 403
    # A client cannot claim an allowed address through a header no proxy of ours set.
    assert Client(REMOTE_ADDR="192.0.2.8", HTTP_X_FORWARDED_FOR="10.0.0.1").get("/metrics").status_code == 403


@override_settings(METRICS_ALLOWED=default_allowed(production=False), METRICS_TOKEN="")
def test_embedded_default_is_open_to_loopback_only() -> None:
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="::1").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="192.0.2.1").get("/metrics").status_code == 403
