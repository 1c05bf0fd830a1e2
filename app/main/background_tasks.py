"""Work a main-side owner starts and does not await (after-stop clean-up, starting a server, stopping
an idle agent): each task is kept until it ends, cancelled at quit, and its failure is logged, so no
task's exception is ever left unretrieved."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class BackgroundTasks:
    def __init__(self, what: str) -> None:
        self._what = what  # named in the log when a task fails
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed", self._what, exc_info=task.exception())
