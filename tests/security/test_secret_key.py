"""Hole 2's root: SECRET_KEY fell back to a value written in the source.

Whoever read the repository could sign relay messages, sessions and password-reset
links of every installation that did not set one. Now the production configuration
(DATABASE_URL or REDIS_URL set) refuses to start without a key, the published key is
refused everywhere, and the embedded default generates a private key into VAR_DIR,
shared by the processes of one installation (bin/run's migrate, daphne, the worker).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.core]

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production"
SHOW_KEY = "import django\ndjango.setup()\nfrom django.conf import settings\nprint(settings.SECRET_KEY)\n"


def run_settings(var_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Start Django in a fresh process, as daphne or the worker does, with only `env` configured."""
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CHANNEL_RELAY_URL", "SECRET_KEY")}
    base.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(var_dir), **env)
    return subprocess.run([sys.executable, "-c", SHOW_KEY], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "env",
    [
        {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/cards"},
        {"REDIS_URL": "redis://127.0.0.1:1/0"},
        {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/cards", "REDIS_URL": "redis://127.0.0.1:1/0", "SECRET_KEY": ""},
    ],
)
def test_production_refuses_to_start_without_a_secret_key(tmp_path: Path, env: dict[str, str]) -> None:
    out = run_settings(tmp_path, **env)
    assert out.returncode != 0, f"started with SECRET_KEY={out.stdout.strip()!r}"
    assert "ImproperlyConfigured" in out.stderr and "SECRET_KEY" in out.stderr
    assert not (tmp_path / "secret_key").exists(), "production must not fall back to a key file of one machine"


@pytest.mark.parametrize("env", [{}, {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/cards"}])
def test_the_published_key_is_refused_everywhere(tmp_path: Path, env: dict[str, str]) -> None:
    out = run_settings(tmp_path, SECRET_KEY=PUBLISHED_KEY, **env)
    assert out.returncode != 0 and "ImproperlyConfigured" in out.stderr


def test_production_uses_the_key_it_is_given(tmp_path: Path) -> None:
    key = secrets.token_urlsafe(50)
    out = run_settings(tmp_path, SECRET_KEY=key, DATABASE_URL="postgres://nobody@127.0.0.1:1/cards")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == key


def test_the_embedded_default_generates_a_private_key_shared_through_var_dir(tmp_path: Path) -> None:
    web, worker = run_settings(tmp_path / "a"), run_settings(tmp_path / "a")
    assert web.returncode == 0 and worker.returncode == 0, web.stderr + worker.stderr
    key = web.stdout.strip()
    assert key != PUBLISHED_KEY and len(key) >= 50
    assert worker.stdout.strip() == key, "the web process and the worker must sign with one key"
    stored = tmp_path / "a" / "secret_key"
    assert stored.read_text().strip() == key and stored.stat().st_mode & 0o777 == 0o600
    other = run_settings(tmp_path / "b")
    assert other.returncode == 0 and other.stdout.strip() != key, "every installation has its own key"


def test_processes_starting_at_once_agree_on_one_key(tmp_path: Path) -> None:
    code = "import sys\nfrom pathlib import Path\nfrom config.secret_key import local_secret_key\nprint(local_secret_key(Path(sys.argv[1])))\n"
    target = tmp_path / "secret_key"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(target)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    keys = set()
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        keys.add(out.strip())
    assert keys == {target.read_text().strip()}
    assert [f.name for f in tmp_path.iterdir()] == ["secret_key"], "no temporary files left behind"
