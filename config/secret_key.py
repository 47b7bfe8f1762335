"""The embedded default's SECRET_KEY: generated once into VAR_DIR, never written in the source.

A key in the source is a key everybody has: it signed the channel relay, sessions and
password-reset links of every installation that did not set SECRET_KEY. Without one
set, the first process of an installation (bin/run's `migrate`, the web process, the
worker) writes a random key to `VAR_DIR/secret_key` (mode 0600) and every later process
that shares the VAR_DIR reads it back, so the web process and the worker agree on it.
Settings.py calls this while it is being read: nothing here needs configured settings.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

KEY_BYTES = 50


def local_secret_key(path: Path) -> str:
    """The key stored at `path`, made first if there is none.

    Atomic under a race (two processes starting at once): the key is written and
    flushed under a private temporary name, then hard-linked to `path`, which fails if
    another process got there first; the loser reads the winner's key. A reader never
    sees a half-written file.
    """
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(KEY_BYTES) + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
    finally:
        tmp.unlink(missing_ok=True)
    return _read(path)


def _read(path: Path) -> str:
    key = path.read_text(encoding="ascii").strip()
    if len(key) < 32:
        raise ImproperlyConfigured(f"{path} holds no usable secret key: delete it to have a new one made, or set SECRET_KEY")
    return key
