"""Work a main-side owner starts and does not await (after-stop clean-up, starting a server, stopping
an idle agent): each task is kept until it ends, cancelled and waited for at quit, and its failure is
logged, so no task's exception is ever left unretrieved and no coroutine is left never run."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)

CLOSE_WAIT_S = 5.0  # a cancelled task gets this long to finish its clean-up at quit


class BackgroundTasks:
    def __init__(self, what: str) -> None:
        self._what = what  # named in the log when a task fails
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        if self._closed:  # quitting: nothing new starts, and the coroutine is closed, not left unrun
            work.close()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # asked for outside the event loop (a callback at teardown): not started
            work.close()
            log.warning("%s: %s asked for with no event loop running; not started", self._what, name)
            return
        task = loop.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    async def close(self) -> None:
        """Quit: cancel every task and wait for them to end (each runs its clean-up)."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=CLOSE_WAIT_S)
            for task in pending:
                log.error("%s: %s did not end at quit", self._what, task.get_name())

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed", self._what, exc_info=task.exception())
