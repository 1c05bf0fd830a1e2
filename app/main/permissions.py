"""Pending permission requests: one future per request, answered by the renderer exactly once or
cancelled by a main-side rule (no live prompt, load running, not the active session, switch, settle,
cancel, child exit)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class PermissionWaiter:
    request_id: str
    session_key: str
    generation: int
    option_ids: frozenset[str]
    future: asyncio.Future[str | None]


class PermissionBroker:
    """Holds the waiters; `on_resolved(waiter, option_id | None, reason)` reports each ending once."""

    def __init__(self, on_resolved: Callable[[PermissionWaiter, str | None, str], None]) -> None:
        self._waiters: dict[str, PermissionWaiter] = {}
        self._on_resolved = on_resolved

    def __len__(self) -> int:
        return len(self._waiters)

    def open(self, session_key: str, generation: int, options: list[dict[str, Any]]) -> PermissionWaiter:
        option_ids = frozenset(str(o.get("optionId")) for o in options if o.get("optionId"))
        waiter = PermissionWaiter(
            request_id=uuid.uuid4().hex,
            session_key=session_key,
            generation=generation,
            option_ids=option_ids,
            future=asyncio.get_running_loop().create_future(),
        )
        self._waiters[waiter.request_id] = waiter
        return waiter

    def answer(self, request_id: str, option_id: str | None) -> bool:
        """The user's answer; False when unknown, already answered, or not one of the options."""
        waiter = self._waiters.get(request_id)
        if waiter is None or waiter.future.done():
            return False
        if option_id is not None and option_id not in waiter.option_ids:
            return False
        self._finish(waiter, option_id, "answered" if option_id is not None else "declined")
        return True

    def cancel_where(self, predicate: Callable[[PermissionWaiter], bool], reason: str) -> int:
        """Answer every matching pending request `cancelled`; returns how many."""
        matched = [w for w in self._waiters.values() if predicate(w) and not w.future.done()]
        for waiter in matched:
            self._finish(waiter, None, reason)
        return len(matched)

    def discard(self, request_id: str) -> None:
        self._waiters.pop(request_id, None)

    def _finish(self, waiter: PermissionWaiter, option_id: str | None, reason: str) -> None:
        self._waiters.pop(waiter.request_id, None)
        waiter.future.set_result(option_id)
        self._on_resolved(waiter, option_id, reason)
