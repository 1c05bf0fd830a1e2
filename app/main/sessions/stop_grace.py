"""Stop must end a turn even when the agent ignores `session/cancel`.

Ownership: the chat service holds one `StopGrace`. Stop arms it for the turn's session; a prompt's answer
is awaited through `answer`. When the agent has not answered `STOP_CONFIRM_S` after Stop, `settle` runs
(the session machine ends the turn itself, marked unconfirmed: the chat is free and its queue goes on)
and `answer` returns None at once. The request is still open on the wire: its late answer, or error, is
handed to `late` when it comes (the machine absorbs it), so no task is left whose result nobody reads.

Authority: only a Stop the user gave arms the grace; a turn the agent answers in time ends as the agent
said. Pure asyncio: no Qt, no I/O of its own; the grace is a parameter so tests need not wait."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app.main.sessions.steps import Step

STOP_CONFIRM_S = 5.0  # how long the agent has to confirm Stop before ClawQt ends the turn itself
STOP_GRACE_S = 2.0  # how long a stopped turn's agent has to end its own terminals


def late_answer(token: Any, task: asyncio.Task[Any]) -> dict[str, Any]:
    """The JSON-RPC answer a request's task ended with, as the session machine reads it."""
    if task.cancelled():
        return {"id": token, "error": {"message": "the request was abandoned"}}
    error = task.exception()
    if error is not None:
        return {"id": token, "error": {"message": str(error)}}
    return {"id": token, "result": task.result()}


class _Machine(Protocol):
    def settle_unconfirmed(self, session_key: str, now: float = 0.0) -> Step: ...
    def on_recv(self, msg: Any, now: float = 0.0) -> Step: ...


class _Terminals(Protocol):
    def end_turn_terminals(self, turn_id: str, note: str) -> Any: ...


class StopGrace:
    def __init__(
        self,
        machine: _Machine,
        apply: Callable[[Step], None],
        terminals: _Terminals,
        grace_s: float | None = None,
    ) -> None:
        self._machine = machine
        self._apply = apply  # the chat service's: a step's envelopes go out
        self._terminals = terminals
        self.grace_s = STOP_CONFIRM_S if grace_s is None else grace_s
        self._waiting: dict[str, asyncio.Future[None]] = {}  # session key -> done when the grace ran out
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._cleanups: dict[str, asyncio.TimerHandle] = {}  # turn id -> its terminal clean-up, not yet run

    def stopped(self, session_key: str, turn_id: str) -> None:
        """The user pressed Stop for this session's running turn `turn_id`: the grace starts (once),
        and the turn's terminals the agent left running end `STOP_GRACE_S` later."""
        loop = asyncio.get_running_loop()
        if turn_id not in self._cleanups:
            self._cleanups[turn_id] = loop.call_later(STOP_GRACE_S, self._end_terminals, turn_id)
        if session_key in self._waiting and session_key not in self._timers:
            self._timers[session_key] = loop.call_later(self.grace_s, self._ran_out, session_key)

    def _end_terminals(self, turn_id: str) -> None:
        self._cleanups.pop(turn_id, None)
        self._terminals.end_turn_terminals(turn_id, "killed after Stop")

    def close(self) -> None:
        """At quit: no timer fires into a service that is shutting down (its terminals are killed anyway)."""
        for handle in [*self._cleanups.values(), *self._timers.values()]:
            handle.cancel()
        self._cleanups.clear()
        self._timers.clear()

    def _ran_out(self, session_key: str) -> None:
        self._timers.pop(session_key, None)
        waiting = self._waiting.get(session_key)
        if waiting is not None and not waiting.done():
            self._apply(self._machine.settle_unconfirmed(session_key, time.monotonic()))
            waiting.set_result(None)

    async def answer(
        self, session_key: str, token: Any, request: Awaitable[dict[str, Any]]
    ) -> dict[str, Any] | None:
        """The prompt's answer (its error raised), or None when the grace after Stop ran out first."""
        task: asyncio.Task[dict[str, Any]] = asyncio.ensure_future(request)
        ran_out = self._waiting[session_key] = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait({task, ran_out}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            raise
        finally:
            self._waiting.pop(session_key, None)
            timer = self._timers.pop(session_key, None)
            if timer is not None:
                timer.cancel()
        if task.done():
            return task.result()
        task.add_done_callback(
            lambda done: self._apply(self._machine.on_recv(late_answer(token, done), time.monotonic()))
        )
        return None


__all__ = ["STOP_CONFIRM_S", "STOP_GRACE_S", "StopGrace", "late_answer"]
