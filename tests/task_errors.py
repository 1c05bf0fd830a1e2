"""Tasks that ended with an exception nobody retrieved. asyncio reports one only when the task is
collected, and a failed task often sits in a reference cycle (its exception's traceback holds frames
that hold the task), so every test ends with a garbage collection of what it left behind."""

from __future__ import annotations

import gc
import logging


class NeverRetrieved(logging.Handler):
    """asyncio's "Task exception was never retrieved" (and the Future variant), as they are logged."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "never retrieved" in message:
            error = record.exc_info[1] if record.exc_info else None
            self.seen.append(f"{message.splitlines()[0]} {error!r}")


def collect_what_the_test_left() -> None:
    """Collect every cycle, then freeze what is still alive (`gc.freeze`): the next test's collection
    scans only the objects created since. A full scan of a worker's whole heap (Qt, the app, every
    module loaded) after each of the suite's tests cost more than most of those tests. What survives a
    test and becomes garbage later (a module's fixture) is left to the process's end."""
    gc.collect()
    gc.freeze()
