"""One value fanned out to every subscriber: the envelopes of a chat service and of the agent hub, the
user terminals' changes."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Listeners(Generic[T]):
    """A listener that raises is logged (to the owner's `log`) and skipped: one broken view must not stop
    the others or the code that emitted. Each value goes to the listeners subscribed when its delivery
    began, so a listener may unsubscribe itself or another one while it is called."""

    def __init__(
        self, log: logging.Logger, failure: str, detail: Callable[[T], object] | None = None
    ) -> None:
        """`failure` is the log message; `detail(value)`, when given, fills its one `%s`."""
        self._log = log
        self._failure = failure
        self._detail = detail
        self._listeners: list[Callable[[T], None]] = []

    def subscribe(self, listener: Callable[[T], None]) -> Callable[[], None]:
        """Returns the unsubscribe function, which does nothing once the listener is gone."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def emit(self, value: T) -> None:
        for listener in list(self._listeners):
            try:
                listener(value)
            except Exception:
                args = () if self._detail is None else (self._detail(value),)
                self._log.exception(self._failure, *args)
