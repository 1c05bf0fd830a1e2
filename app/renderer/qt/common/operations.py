"""The one door the window's objects call the host through, with one error path.

A host call either runs now (`call`) or as a task on the window's loop (`run`). Its expected failure is
a `HostError`: it becomes one notice, "<what>: <the error's sentence>" with the error's details behind
the disclosure, in the chat it is about (`session`) and under the situation it names (`topic`), and the
caller's `done` is not called. Anything else a call raises is a defect: the task runner logs it with its
traceback and reports it once. So a view never writes its own try/except around a host call, and no
two views word or route the same failure differently."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from app.contract.errors import HostError
from app.renderer.qt.common.notices import Notices
from app.renderer.qt.common.tasks import TaskRunner

T = TypeVar("T")


class Operations:
    def __init__(self, tasks: TaskRunner, notices: Notices) -> None:
        self.tasks = tasks
        self.notices = notices

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Work of the view's own that handles its host errors itself (a turn settles its rows first)."""
        self.tasks.spawn(coro)

    def run(
        self,
        call: Awaitable[T],
        failed: str,
        *,
        done: Callable[[T], None] | None = None,
        after: Callable[[], None] | None = None,
        topic: str = "",
        session: str = "",
    ) -> None:
        """`call` as a task: `done(result)` when it answers, the notice `failed: <why>` when the host
        refuses; `after()` either way, first (a busy mark cleared)."""
        started = self.tasks.spawn(self._attempt(call, failed, done, after, (topic, session)))
        if started is None and inspect.iscoroutine(call):  # the window shut down: dropped, not unawaited
            call.close()

    async def _attempt(
        self,
        call: Awaitable[T],
        failed: str,
        done: Callable[[T], None] | None,
        after: Callable[[], None] | None,
        where: tuple[str, str],
    ) -> None:
        try:
            result = await call
        except HostError as exc:
            self.notices.failed(failed, exc, topic=where[0], session=where[1])
            return
        finally:
            if after is not None:
                after()
        if done is not None:
            done(result)

    def call(
        self,
        failed: str,
        call: Callable[[], T],
        *,
        refused: Callable[[HostError], None] | None = None,
        topic: str = "",
    ) -> T | None:
        """A host call answered now: its result, or None after `refused(error)` and the notice."""
        try:
            return call()
        except HostError as exc:
            if refused is not None:
                refused(exc)
            self.notices.failed(failed, exc, topic=topic)
            return None
