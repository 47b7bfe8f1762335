"""autobahn's debug-line arguments are made only when a line is formatted, and then read as before."""

from __future__ import annotations

import pytest
from autobahn import util

from live import lazy_log_args

pytestmark = [pytest.mark.core]


def test_asgi_installs_it_on_the_frame_path() -> None:
    import config.asgi  # noqa: F401 - installs it, as in every web process

    assert lazy_log_args.installed()
    from autobahn.twisted import websocket
    from autobahn.websocket import protocol

    assert protocol.hltype is not util.hltype and websocket.hlval is not util.hlval


def test_a_deferred_argument_formats_to_the_same_text_only_when_formatted() -> None:
    calls: list[object] = []

    def counting(obj: object) -> str:
        calls.append(obj)
        return util.hltype(obj)

    later = lazy_log_args.deferred(counting)
    arg = later(test_a_deferred_argument_formats_to_the_same_text_only_when_formatted)
    assert calls == []  # a debug line nobody writes costs no text
    assert f"{arg} sent" == f"{util.hltype(test_a_deferred_argument_formats_to_the_same_text_only_when_formatted)} sent"
    assert str(lazy_log_args.deferred(util.hlval)(42)) == util.hlval(42)
    assert len(calls) == 1
