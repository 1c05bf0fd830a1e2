"""What a trace holds beyond the sessions' timelines, for `clawqt replay`: the requests the agent made of
the client (`fs/*`, `terminal/*`) paired with the client's answers, and the requests that should have
started the agent or opened a session but did not.

The session state machine keeps neither: live, the host adapters serve the agent's requests
(sessions/terminal_host.py, sessions/file_host.py) and the chat service reports a failed start or load
as it happens. A trace only has the messages, so the replay reads both off the wire here. Plain data,
no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.contract.acp import RpcMessage
from app.contract.acp_fields import dict_field, str_field

if TYPE_CHECKING:
    from app.main.sessions.machine import SessionContext
    from app.main.sessions.steps import Step, Token

SERVED_PREFIXES = ("fs/", "terminal/")  # agent requests the client serves (beside permissions)
OPENERS = frozenset({"initialize", "session/new", "session/load", "session/resume"})
UNANSWERED = "no answer in the trace (the agent exited or the recording stopped first)"


@dataclass
class AgentRequest:
    """One `fs/*` or `terminal/*` request and the client's answer (filled in when the trace has it)."""

    session_key: str | None  # None: it named no session the client had open (counted as ignored)
    method: str
    turn: str | None  # the live prompt's message id, None outside a prompt
    t: float
    params: dict[str, Any]
    answer: dict[str, Any] | None = None  # the client's response message

    def record(self) -> dict[str, Any]:
        """The replay JSON's form: what was asked (params without `sessionId`) and what was answered."""
        answer = self.answer or {}
        error = answer.get("error")
        outcome = "unanswered" if self.answer is None else "error" if error is not None else "ok"
        return {
            "method": self.method,
            "turn": self.turn,
            "t": self.t,
            "params": {k: v for k, v in self.params.items() if k != "sessionId"},
            "outcome": outcome,
            "result": answer.get("result") if error is None else None,
            "error": error,
        }


@dataclass(frozen=True)
class TraceFailure:
    """A request that should have started the agent or opened a session and did not."""

    method: str
    message: str  # the agent's own error message, or why its answer opened nothing
    session: str | None = None  # the session id a load or resume asked for
    code: int | None = None
    data: Any = None
    t: float | None = None  # when the answer came (the request's time when there was none)

    def record(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "session": self.session,
            "code": self.code,
            "message": self.message,
            "data": self.data,
            "t": self.t,
        }


def failure_text(failure: dict[str, Any]) -> str:
    """A failure's record in words: "session/load of s1 failed: Not found (code -32002)"."""
    what = failure["method"] + (f" of {failure['session']}" if failure["session"] else "")
    code = f" (code {failure['code']})" if failure["code"] is not None else ""
    return f"{what} failed: {failure['message']}{code}"


class AgentRequests:
    """The agent's fs/terminal requests by JSON-RPC id until answered; `asked` keeps them in order."""

    def __init__(self) -> None:
        self.asked: list[AgentRequest] = []
        self._pending: dict[Token, AgentRequest] = {}

    @staticmethod
    def is_served(msg: dict[str, Any]) -> bool:
        method = msg.get("method")
        return "id" in msg and isinstance(method, str) and method.startswith(SERVED_PREFIXES)

    def ask(self, msg: dict[str, Any], context: SessionContext | None, now: float) -> AgentRequest:
        params = dict_field(msg, "params")
        key, turn = (context.key, context.turn_id) if context is not None else (None, None)
        request = AgentRequest(key, str(msg["method"]), turn, now, params)
        self._pending[msg["id"]] = request
        self.asked.append(request)
        return request

    def answer(self, msg: dict[str, Any]) -> bool:
        """True when `msg` (sent by the client) answers one of the agent's fs/terminal requests."""
        if "method" in msg or "id" not in msg:
            return False
        request = self._pending.pop(msg["id"], None)
        if request is None:
            return False
        request.answer = msg
        return True


class Openers:
    """The client's `initialize` and session-opening requests, until the agent answers them."""

    def __init__(self) -> None:
        self._pending: dict[Token, tuple[str, dict[str, Any], float]] = {}

    def sent(self, msg: dict[str, Any], now: float) -> None:
        method = msg.get("method")
        if method in OPENERS and "id" in msg:
            params = dict_field(msg, "params")
            self._pending[msg["id"]] = (str(method), params, now)

    def answered(self, msg: RpcMessage, step: Step, now: float) -> TraceFailure | None:
        """The failure `msg` (from the agent) reports: an error answer, or an answer that opened nothing
        (the live chat service raises LoadFailed for exactly these)."""
        if "method" in msg or "id" not in msg:
            return None
        opened = self._pending.pop(msg["id"], None)
        if opened is None:
            return None
        method, params, _ = opened
        session = str_field(params, "sessionId")
        error = msg.get("error")
        if "result" not in msg or error is not None:
            error = error if isinstance(error, dict) else {}
            message = str_field(error, "message") or f"the agent answered {method} with an error"
            code = error.get("code") if type(error.get("code")) is int else None
            return TraceFailure(method, message, session, code, error.get("data"), now)
        if method != "initialize" and step.committed is None:
            message = step.failure or f"The agent's answer to {method} opened no session."
            return TraceFailure(method, message, session, t=now)
        return None

    def unanswered(self) -> list[TraceFailure]:
        """What was still waiting when the trace ended."""
        return [
            TraceFailure(method, UNANSWERED, str_field(params, "sessionId"), t=sent_at)
            for method, params, sent_at in self._pending.values()
        ]
