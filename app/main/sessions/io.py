"""The chat service's I/O around the session machine (`machine.py`, which decides every rule):
a request the machine must know about goes out through the agent connection under a token, the machine
sees it and then its answer (or why there was none), and what each transition produced is delivered:
envelopes to the listeners, answers to the agent's permissions and questions waiting for the user, what was
ignored as diagnostics. A prompt's answer waits under Stop's grace (`stop_grace.py`). The agent's
`session/update` notifications come in here too, in arrival order."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from app.contract.envelopes import DiagnosticEnvelope, Envelope
from app.contract.errors import AgentUnavailable, HostError
from app.main.sessions.machine import SessionMachine
from app.main.sessions.permission_desk import PermissionDesk
from app.main.sessions.question_desk import QuestionDesk
from app.main.sessions.steps import Step, Token
from app.main.sessions.stop_grace import StopGrace
from app.main.sessions.terminal_host import ClientTerminalHost, raw_create_problem

if TYPE_CHECKING:
    from app.contract.acp import RpcMessage
    from app.main.rules.book import AgentRules
    from app.main.sessions.extras import ProposalsExtras

log = logging.getLogger(__name__)

# told as info
EXPECTED_IGNORES = frozenset({"permission-auto-cancelled", "question-auto-cancelled", "prompt-late-answer"})

Send = Callable[[str, dict[str, Any]], Awaitable[Any]]


def _error(token: Token, message: str) -> RpcMessage:
    return {"id": token, "error": {"message": message}}


class SessionIO:
    """Requests in and out of one agent's session machine, and the delivery of each step."""

    def __init__(
        self,
        machine: SessionMachine,
        send: Send,
        refuse: Callable[[Any, int, str], None],
        emit: Callable[[Envelope], None],
        terminals: ClientTerminalHost,
        proposals: Callable[[], ProposalsExtras | None],
        failed: Callable[[HostError, str | None], None],
        rules: Callable[[], AgentRules | None] = lambda: None,
    ) -> None:
        self.machine = machine
        self._send = send
        self._refuse = refuse
        self._emit = emit
        self._failed = failed  # a request the agent failed (OpenClaw's bridge recovery hears it)
        self.tokens = itertools.count(1)  # requests and permission requests share them
        self.ignored_updates = 0
        self.permissions = PermissionDesk(machine, self.apply, proposals, self.tokens, rules)
        self.questions = QuestionDesk(machine, self.apply, self.tokens)
        self.stop_grace = StopGrace(machine, self.apply, terminals)  # Stop the agent ignores

    def diagnose(self, level: str, code: str, message: str, key: str | None = None) -> None:
        getattr(log, level)("%s: %s", code, message)
        self._emit(DiagnosticEnvelope(level, code, message, key))  # type: ignore[arg-type]

    def apply(self, step: Step) -> None:
        """Deliver what a transition produced: envelopes, permission answers, diagnostics."""
        self.permissions.settle(step.answers)
        self.questions.settle(step.replies)
        for envelope in step.envelopes:
            self._emit(envelope)
        for ignored in step.ignored:
            if ignored.code.startswith("update-"):
                self.ignored_updates += ignored.times
            level = "info" if ignored.code in EXPECTED_IGNORES else "warning"
            self.diagnose(level, ignored.code, ignored.message)

    def agent_gone(self) -> None:
        """The agent's child is gone or going (parked, restarted): every permission request it asked
        answers cancelled and its sessions are closed in the machine."""
        self.apply(self.machine.cancel_permissions("agent-exited"))
        self.apply(self.machine.agent_exited())

    async def request(self, method: str, params: dict, key: str | None = None) -> tuple[dict[str, Any], Step]:
        """Send a request the machine must know about; it sees the request and then its answer. A
        prompt (`key`) Stop ended after its grace answers `cancelled`."""
        token = next(self.tokens)
        self.apply(self.machine.on_send({"id": token, "method": method, "params": params}, time.monotonic()))
        try:
            request = self._send(method, params)
            result = await (request if key is None else self.stop_grace.answer(key, token, request))
            if result is None:
                return {"stopReason": "cancelled"}, Step()
        except HostError as exc:
            if isinstance(exc, AgentUnavailable):
                self.apply(self.machine.cancel_permissions("agent-exited"))
            self.apply(self.machine.on_recv(_error(token, str(exc)), time.monotonic()))
            self._failed(exc, key or self.machine.last_active_key)
            raise
        except asyncio.CancelledError:
            self.apply(self.machine.on_recv(_error(token, "the request was abandoned"), time.monotonic()))
            raise
        step = self.machine.on_recv({"id": token, "result": result}, time.monotonic())
        self.apply(step)
        return result, step

    def route_update(self, params: Any) -> None:
        """A `session/update`, in arrival order: to its session's view, or counted and said dropped."""
        route = self.machine.route(params)
        if route.envelope is not None:
            envelope = route.envelope
            if envelope.kind == "session_update" and not envelope.historical:
                envelope = dataclasses.replace(envelope, received_at=time.monotonic())
            self._emit(envelope)
        elif route.kind in ("dropped", "malformed"):
            self.ignored_updates += 1
            self.diagnose("warning", f"update-{route.kind}", route.reason)

    def intercept(self, message: dict[str, Any]) -> bool:
        """Route `session/update` in arrival order, before the SDK's per-message tasks; refuse a
        `terminal/create` whose raw params the SDK would quietly trim (it drops list items it cannot
        read: `["-c", 42]` would run `bash -c` with the script missing). True: handled here."""
        method = message.get("method")
        if method == "session/update" and "id" not in message:
            self.route_update(message.get("params"))
            return True
        if method == "terminal/create" and "id" in message:
            problem = raw_create_problem(message.get("params"))
            if problem:
                self.diagnose("warning", "terminal-refused", problem)
                self._refuse(message["id"], -32602, problem)
                return True
        return False
