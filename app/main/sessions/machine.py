"""The session state machine: which session every message belongs to, under which generation.

It owns the session key <-> ACP id map, the generations, the load transaction, the live prompts and
the routing of what the agent asks of the user (asking.py), and does no I/O: it is told about each
message as it crosses the pipe (`on_send`: client to agent, `on_recv`: agent to client) and answers
with a `Step`, the envelopes and results that follow. The chat service drives it live (the message ids
are its own tokens); `clawqt replay` drives it from a recorded trace (the JSON-RPC ids). A few
transitions have no message of their own (showing a live session again, the agent dying, the user
answering a permission): they are methods here too, so every rule about sessions is written once.

Rules (acp-chat.md): loads are serialized and issue a new generation each; a failed load commits
nothing; a committed load makes its session active and hands over the updates it buffered, filtered by
ACP id; a prompt is live from its request to its response, and its updates route to it even after a
switch; a permission request or a question belongs to the live prompt of its ACP id and waits for the
user even while another session is shown (switching away cancels nothing a live prompt asked); only
requests that match no live prompt are refused (answered `cancelled`), and so are those of a session
being loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from app.contract.acp_fields import dict_field, dict_items, str_field
from app.contract.envelopes import (
    LoadResult,
    PromptSentEnvelope,
    PromptSettledEnvelope,
    ToolCallsCancelledEnvelope,
)
from app.contract.errors import PromptRefused
from app.main.sessions.asking import AskingRules
from app.main.sessions.permissions import PermissionRoutes
from app.main.sessions.questions import QuestionRoutes
from app.main.sessions.routing import ActiveSession, LivePrompt, LoadTransaction, Route, route_update
from app.main.sessions.steps import Ignored, Step, Token

if TYPE_CHECKING:
    from app.contract.acp import RpcMessage


LOAD_METHODS = frozenset({"session/new", "session/fork", "session/load", "session/resume"})
CREATING = frozenset({"session/new", "session/fork"})  # a new session: its id comes with the answer
END_METHODS = frozenset({"session/close", "session/delete"})


class SessionContext(NamedTuple):
    """The session an agent request (terminal, file) names, as the client knows it right now."""

    key: str
    generation: int
    cwd: str
    turn_id: str | None  # the live prompt's client message id (file writes are recorded under it)


@dataclass
class _Pending:
    method: str
    params: dict[str, Any]
    sent_at: float
    txn: LoadTransaction | None = None
    live: LivePrompt | None = None
    ended_key: str | None = None


class SessionMachine(AskingRules):
    def __init__(self) -> None:
        self.generation = 0  # the newest issued; issued generations only grow
        self.active: ActiveSession | None = None
        self.loading: LoadTransaction | None = None
        self.live: dict[str, LivePrompt] = {}
        self.live_by_acp: dict[str, LivePrompt] = {}
        self.acp_ids: dict[str, str] = {}
        self.last_active_key: str | None = None
        self._pending: dict[Token, _Pending] = {}
        self.permissions = PermissionRoutes()
        self.questions = QuestionRoutes()
        self._unnamed_prompts = 0
        self.abandoned: set[str] = set()  # ACP ids whose turn ClawQt ended after an unanswered Stop

    # --- messages ----------------------------------------------------------------------------------
    def on_send(self, msg: RpcMessage, now: float = 0.0) -> Step:
        """A message the client sends: a request, a notification, or the answer to an agent request."""
        step = Step()
        method = msg.get("method")
        params = dict_field(msg, "params")
        if not isinstance(method, str) and msg.get("id") in self.questions:
            self.questions.answered_on_wire(msg.get("id"), msg, step)
        elif not isinstance(method, str):
            self.permissions.answered_on_wire(msg.get("id"), msg.get("result"), step)
        elif "id" not in msg:
            if method == "session/cancel":
                self._cancel_sent(params, step)
            else:
                step.ignored.append(Ignored("notification-ignored", f"{method} notification"))
        else:
            pending = self._pending[msg["id"]] = _Pending(method, params, now)
            if method in LOAD_METHODS:
                self._load_sent(pending, step)
            elif method == "session/prompt":
                self._prompt_sent(pending, step)
            elif method in END_METHODS:
                pending.ended_key = self.key_of(str_field(params, "sessionId") or "")
        return step

    def on_recv(self, msg: RpcMessage, now: float = 0.0) -> Step:
        """A message from the agent: a notification, a request, or a response to one of ours."""
        step = Step()
        method = msg.get("method")
        if method == "session/update" and "id" not in msg:
            self._update(msg.get("params"), step)
        elif method == "session/request_permission" and "id" in msg:
            params = dict_field(msg, "params")
            self._permission_requested(msg["id"], params, step)  # type: ignore[arg-type]
        elif method == "elicitation/create" and "id" in msg:
            self._question_requested(msg["id"], dict_field(msg, "params"), step)
        elif method == "elicitation/complete" and "id" not in msg:
            self.questions.complete(str_field(dict_field(msg, "params"), "elicitationId") or "", step)
        elif method is not None or "id" not in msg:
            step.ignored.append(Ignored("message-ignored", f"unhandled agent message {method!r}"))
        else:
            pending = self._pending.pop(msg["id"], None)
            if pending is None:
                step.ignored.append(Ignored("response-unknown", f"response to unknown id {msg['id']!r}"))
            else:
                self._answered(pending, msg, now, step)
        return step

    # --- session/update ------------------------------------------------------------------------------
    def route(self, params: Any) -> Route:
        """Where one `session/update` goes (the hot path: the live client calls this directly for each
        notification instead of building a message and a Step; `on_recv` decides through it too)."""
        acp_id = params.get("sessionId") if self.abandoned and isinstance(params, dict) else None
        if acp_id in self.abandoned and acp_id not in self.live_by_acp:  # the rest of a turn Stop ended
            return Route("dropped", reason="update for a turn ended after Stop went unanswered")
        return route_update(params, self.live_by_acp, self.loading, self.active)

    def _update(self, params: Any, step: Step) -> None:
        route = self.route(params)
        if route.envelope is not None:
            step.envelopes.append(route.envelope)
        elif route.kind in ("dropped", "malformed"):
            step.ignored.append(Ignored(f"update-{route.kind}", route.reason))

    # --- loads ---------------------------------------------------------------------------------------
    def _load_sent(self, pending: _Pending, step: Step) -> None:
        params = pending.params
        if pending.method in CREATING:  # a fork proposes no key: it is the id the agent answers
            key, acp_id = str_field(dict_field(params, "_meta"), "sessionKey") or "", None
        elif (acp_id := str_field(params, "sessionId")) is not None:
            key = acp_id
        else:
            step.ignored.append(Ignored("load-invalid", f"{pending.method} without a session id"))
            return
        self.generation += 1
        pending.txn = self.loading = LoadTransaction(key, self.generation, acp_id)
        self._cancel_asks(self._not_live, "session-switch", step)

    def _load_answered(self, pending: _Pending, result: dict[str, Any] | None, step: Step) -> None:
        txn = pending.txn
        assert txn is not None
        if self.loading is txn:
            self.loading = None
        if result is None:
            return  # a failed load commits nothing: the previous session stays active
        if pending.method in CREATING:
            acp_id = str_field(result, "sessionId")
            if acp_id is None:
                step.failure = f"The agent answered {pending.method} without a session id."
                step.ignored.append(Ignored("load-invalid", step.failure))
                return
            txn.acp_id = acp_id
            txn.key = str_field(dict_field(result, "_meta"), "sessionKey") or txn.key or acp_id
        acp_id = txn.acp_id or txn.key
        cwd = str_field(pending.params, "cwd") or ""
        self.acp_ids[txn.key] = acp_id
        self.active = ActiveSession(txn.key, acp_id, txn.generation, cwd, historical=True)
        self.last_active_key = txn.key
        updates = txn.replay_envelopes(p for p in txn.buffer if p.get("sessionId") == acp_id)
        dropped = len(txn.buffer) - len(updates)
        if dropped:
            message = f"{dropped} updates for other sessions during {pending.method}"
            step.ignored.append(Ignored("update-dropped", message, dropped))
        modes = result.get("modes")
        step.committed = LoadResult(
            session_key=txn.key,
            generation=txn.generation,
            cwd=cwd,
            updates=updates,
            modes=modes if isinstance(modes, dict) else None,
            config_options=tuple(dict_items(result, "configOptions")),
            created=pending.method in CREATING,
            replayed=txn.replayed,
        )

    def show_live(self, session_key: str) -> tuple[LoadResult, Step] | None:
        """Show a session whose prompt is still running: the SAME generation again, no load."""
        live = self.live.get(session_key)
        if live is None:
            return None
        step = Step()
        self._cancel_asks(self._not_live, "session-switch", step)
        self.active = ActiveSession(live.key, live.acp_id, live.generation, live.cwd, historical=False)
        return LoadResult(live.key, live.generation, live.cwd, (), resumed_live=True), step

    # --- prompts -------------------------------------------------------------------------------------
    def check_prompt(self, session_key: str, cwd: str | None, *, load_queued: bool, agent_gone: bool) -> None:
        """Raise PromptRefused when a prompt to `session_key` must not be sent (`cwd` normalized)."""
        active = self.active
        if active is None:
            if self.last_active_key and agent_gone:
                raise PromptRefused(
                    "The agent restarted; reload the session to continue.",
                    code="no-session",
                )
            raise PromptRefused("No session is loaded yet.", code="no-session")
        if self.loading is not None or load_queued:
            raise PromptRefused("A session is still loading.", code="load-running")
        if active.key != session_key:
            raise PromptRefused("That session is not the active one.", code="session-not-active")
        if cwd is not None and cwd != active.cwd:
            raise PromptRefused(
                f"The working directory {cwd} differs from the session's {active.cwd}.", code="cwd-mismatch"
            )
        if session_key in self.live:
            raise PromptRefused("A turn is already running in this session.", code="prompt-running")

    def _prompt_sent(self, pending: _Pending, step: Step) -> None:
        active = self.active
        if active is None or active.acp_id != pending.params.get("sessionId"):
            step.ignored.append(Ignored("prompt-unrouted", "a prompt for a session that is not shown"))
            return
        message_id = str_field(dict_field(pending.params, "_meta"), "messageId")
        if message_id is None:
            self._unnamed_prompts += 1
            message_id = f"user:replay-{self._unnamed_prompts}"
        live = LivePrompt(active.key, active.acp_id, active.generation, active.cwd, message_id)
        live.started = pending.sent_at
        pending.live = self.live[live.key] = self.live_by_acp[live.acp_id] = live
        active.historical = False
        blocks = tuple(dict_items(pending.params, "prompt"))
        step.envelopes.append(PromptSentEnvelope(live.key, live.generation, message_id, blocks))

    def _prompt_answered(self, live: LivePrompt, msg: RpcMessage, now: float, step: Step) -> None:
        if live.settled:  # the late answer of a turn ended after Stop: it ended once, for good
            self.abandoned.discard(live.acp_id)
            step.ignored.append(Ignored("prompt-late-answer", "the agent answered a turn Stop had ended"))
            return
        result = result_value if isinstance(result_value := msg.get("result"), dict) else None
        error = None
        if result is None:
            error = str_field(msg.get("error"), "message") or "the agent answered with an error"
        stop = (str_field(result, "stopReason") or "end_turn") if result is not None else None
        self._settle(live, stop, error, now, step, usage=dict_field(result, "usage") or None)

    def settle_unconfirmed(self, session_key: str, now: float = 0.0) -> Step:
        """Stop went unanswered for the grace: ClawQt ends the turn itself (`cancelled`, marked
        unconfirmed) so the chat and its queue go on; the agent's late updates of that turn are dropped
        and its answer, when it comes, is absorbed. Nothing happens unless Stop was sent."""
        step = Step()
        live = self.live.get(session_key)
        if live is not None and live.cancel_requested:
            live.settled = True
            self.abandoned.add(live.acp_id)
            self._settle(live, "cancelled", None, now, step, unconfirmed=True)
        return step

    def _settle(
        self,
        live: LivePrompt,
        stop: str | None,
        error: str | None,
        now: float,
        step: Step,
        unconfirmed: bool = False,
        usage: dict[str, Any] | None = None,
    ) -> None:
        self.live.pop(live.key, None)
        if self.live_by_acp.get(live.acp_id) is live:
            del self.live_by_acp[live.acp_id]
        self._cancel_asks(
            lambda route: route.key == live.key and route.generation == live.generation,
            "prompt-settled",
            step,
        )
        if stop == "cancelled" or live.cancel_requested or error is not None:
            self._mark_tools_cancelled(live, step)
        elapsed = round(now - live.started, 3)
        settled = PromptSettledEnvelope(
            live.key, live.generation, live.client_message_id, stop, error, elapsed, live.cancel_requested,
            unconfirmed=unconfirmed, usage=usage,
        )  # fmt: skip
        step.envelopes.append(settled)

    def _cancel_sent(self, params: dict[str, Any], step: Step) -> None:
        live = self.live_by_acp.get(str_field(params, "sessionId") or "")
        if live is None:
            return
        live.cancel_requested = True
        self._cancel_asks(lambda route: route.key == live.key, "cancelled", step)

    def _mark_tools_cancelled(self, live: LivePrompt, step: Step) -> None:
        if live.open_tool_calls:
            ids = tuple(sorted(live.open_tool_calls))
            live.open_tool_calls.clear()
            step.envelopes.append(ToolCallsCancelledEnvelope(live.key, live.generation, ids))

    # --- responses -----------------------------------------------------------------------------------
    def _answered(self, pending: _Pending, msg: RpcMessage, now: float, step: Step) -> None:
        result = result_value if isinstance(result_value := msg.get("result"), dict) else None
        if pending.txn is not None:
            self._load_answered(pending, result, step)
        elif pending.live is not None:
            self._prompt_answered(pending.live, msg, now, step)
        elif pending.ended_key is not None and result is not None:
            key = pending.ended_key
            self.acp_ids.pop(key, None)
            # shown or not: a request of a closed session could never be answered
            self._cancel_asks(lambda route: route.key == key, "session-closed", step)
            if self.active is not None and self.active.key == key:
                self.active = None

    # --- the agent went away -------------------------------------------------------------------------
    def agent_exited(self) -> Step:
        """The child died: its sessions are gone; live prompts' open tools are marked cancelled (the
        prompts themselves settle when their requests fail)."""
        step = Step()
        self._cancel_asks(lambda route: True, "agent-exited", step)
        if self.active is not None:
            self.last_active_key = self.active.key
        self.active = None
        self.acp_ids.clear()
        for live in list(self.live.values()):
            self._mark_tools_cancelled(live, step)
        return step

    # --- what the main side asks -------------------------------------------------------------------
    def key_of(self, acp_id: str) -> str | None:
        return next((key for key, known in self.acp_ids.items() if known == acp_id), acp_id or None)

    def shown_elsewhere(self, session_key: str) -> bool:
        """Another chat is the one prompts go to, and this one runs no turn: it must be shown again."""
        active = self.active
        return active is not None and active.key != session_key and session_key not in self.live

    def opened_acp_id(self, session_key: str) -> str:
        """The ACP id of a session open in the agent now (live or shown), else PromptRefused."""
        live = self.live.get(session_key)
        if live is not None:
            return live.acp_id
        if self.active is not None and self.active.key == session_key:
            return self.active.acp_id
        raise PromptRefused(
            "That session is not open in the agent; load it first.", code="session-not-loaded"
        )

    def context_of(self, acp_session_id: str) -> SessionContext | None:
        """The session an agent request names: a live prompt's, else the shown session's."""
        live = self.live_by_acp.get(acp_session_id)
        if live is not None:
            return SessionContext(live.key, live.generation, live.cwd, live.client_message_id)
        active = self.active
        if active is not None and active.acp_id == acp_session_id:
            return SessionContext(active.key, active.generation, active.cwd, None)
        return None

    def workspace(self, session_key: str, generation: int) -> str | None:
        """The cwd of `session_key` if it is open at exactly `generation` (shown, or with a live prompt)."""
        live = self.live.get(session_key)
        if live is not None and live.generation == generation:
            return live.cwd
        active = self.active
        if active is not None and active.key == session_key and active.generation == generation:
            return active.cwd
        return None
