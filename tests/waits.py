"""The one wait of the suite: poll a condition on the running event loop until it holds, with a ceiling
only a hang reaches; a failure says what was last seen. The window tests reach it as `ui.until`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any


async def until(
    predicate: Callable[[], Any], timeout: float = 15.0, seen: Callable[[], Any] | None = None
) -> Any:
    """The first true value of `predicate`; on timeout the failure shows what `seen` returns."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            shown = "" if seen is None else f"; seen: {seen()!r}"
            raise AssertionError(f"condition not met within {timeout} s{shown}")
        await asyncio.sleep(0.02)  # the poll's interval
