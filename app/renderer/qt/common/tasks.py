"""Host calls run as asyncio tasks on the qasync loop. Every task is kept until it ends and its
exception is always retrieved: a failure is logged with its traceback and reported once (`failed`), so
no task's error goes unseen. Once the window shut down (`close`), work asked for by a timer that outlived
it is dropped: its coroutine is closed, never left unrun, and no loop is looked for."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)


class TaskRunner(QObject):
    failed = Signal(str)  # "Something went wrong: ..." for the notice bar

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any] | None:
        if self._closed:
            coro.close()
            return None
        try:
            task = asyncio.ensure_future(coro)  # the window's loop, also before it runs
        except RuntimeError:  # no event loop at all (a callback after the window's loop ended)
            coro.close()
            log.warning("a UI action was asked for with no event loop; not started")
            return None
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("UI action failed: %s", exc, exc_info=exc)
            self.failed.emit(f"Something went wrong: {exc}")

    def close(self) -> None:
        """The window shuts down: running tasks are cancelled, later ones never start."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()

    def __len__(self) -> int:
        return len(self._tasks)
