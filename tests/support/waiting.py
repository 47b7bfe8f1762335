"""Waiting in an async test for something another task or process does, without a fixed sleep."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any


async def until(check: Callable[[], Any], seconds: float = 5.0) -> bool:
    """True once `check()` (a value, or an awaitable of one) is truthy; False after `seconds`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        result = check()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return True
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.02)
