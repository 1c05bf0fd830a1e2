"""The chat service: the sessions host API the renderer calls, for one agent and its child process.

It builds the requests (cwd, additional directories, session keys, prompt content) from the rules of
the session state machine (`machine.py`), which decides every rule about sessions; the I/O
around the machine is `io.py`, the opens `opening.py`. The agent's terminal and file
requests are served by host adapters of their own (`terminal_host.py`, `file_host.py`), registered on
the ACP client beside it. Every rule is pinned by a test named after it (acp-chat.md lists them).
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Unpack

from app.contract.acp_fields import dict_items, str_field
from app.contract.elicitation import QuestionAction
from app.contract.envelopes import (
    AgentInfo,
    AgentStateEnvelope,
    Envelope,
    LoadResult,
    PromptResult,
    PromptSettledEnvelope,
    SessionPage,
)
from app.contract.errors import HostError, PromptRefused
from app.contract.host_api import EnvelopeListener, PromptOptions
from app.main.acp.client import ClawClient
from app.main.acp.protocol_log import ProtocolLog
from app.main.acp.recorder import TraceRecorder
from app.main.agents.command import AgentCommand
from app.main.agents.connection import AgentConnection
from app.main.agents.process import AgentProcess, Launcher
from app.main.agents.secret_store import SecretStore
from app.main.agents.sign_in import SignInService
from app.main.core import paths
from app.main.core.background_tasks import BackgroundTasks
from app.main.core.listeners import Listeners
from app.main.files.prompt_blocks import (
    PromptCapabilities,
    build_prompt_blocks,
    build_prompt_meta,
)
from app.main.mcp_servers.agent import AgentMcpServers
from app.main.review.turn_changes import TurnChanges
from app.main.rules.book import AgentRules
from app.main.sessions.ending import end_session
from app.main.sessions.extras import ProposalsExtras, SessionExtras, hidden_blocks
from app.main.sessions.file_host import AgentFileHost
from app.main.sessions.io import SessionIO
from app.main.sessions.machine import SessionMachine
from app.main.sessions.openclaw_extras import openclaw_extras
from app.main.sessions.opening import SessionOpening
from app.main.sessions.requests import config_option_params, list_params, normalize_cwd, require, session_page
from app.main.sessions.terminal_host import ClientTerminalHost
from app.main.sessions.tracked_prompt import send_tracked

log = logging.getLogger(__name__)


class ChatService:
    """Host API. All methods run on the event loop thread; envelopes are delivered synchronously."""

    io: SessionIO  # made after the connection its requests go through

    def __init__(
        self,
        command: AgentCommand,
        *,
        cwd: str | None = None,
        recorder: TraceRecorder | None = None,
        log_path: Path | None = None,
        init_timeout: float = 60.0,
        additional_directories: list[str] | None = None,
        owns_extras: bool = True,
        launch: Launcher = AgentProcess.spawn,
        turn_changes: TurnChanges | None = None,
    ) -> None:
        self.default_cwd = normalize_cwd(cwd or os.getcwd())
        # extra workspace roots the user granted: sent to agents that support them, and where the
        # agent's fs/* requests may also reach
        self.additional_directories = [normalize_cwd(d) for d in additional_directories or [] if d]
        self._envelopes: Listeners[Envelope] = Listeners(
            log, "envelope listener failed for %s", lambda envelope: envelope.kind
        )
        # False when several agents share the terminal access and proposals (`hub.py` starts
        # and stops them once, not each agent's service)
        self.owns_extras = owns_extras
        self.machine = SessionMachine()
        self.terminals = ClientTerminalHost(
            self.machine, self._emit, lambda code, message: self.io.diagnose("warning", code, message)
        )
        self.files = AgentFileHost(
            self.machine,
            self._emit,
            lambda code, message, key: self.io.diagnose("warning", code, message, key),
            self.additional_directories,
            turn_changes,
        )
        questions = lambda: self.io.questions  # noqa: E731
        self._client = ClawClient(self, terminals=self.terminals, files=self.files, questions=questions)
        stderr_log = log_path if log_path is not None else paths.log_dir() / "agent-stderr.log"
        self.files.own_files(stderr_log, recorder.path if recorder else None)
        self.connection = AgentConnection(
            command,
            self._client,
            intercept=lambda message: self.io.intercept(message),
            on_state=self._on_agent_state,
            on_exit=self._on_child_exit,
            on_diagnostic=lambda text: self.io.diagnose("warning", "agent-stdout", text),
            recorder=recorder,
            log_path=stderr_log,
            init_timeout=init_timeout,
            launch=launch,
        )
        self.protocol_log = ProtocolLog()  # the inspector's: kept whether or not it is open
        self.connection.observers.add_lines(self.protocol_log.wire, self.protocol_log.stderr)
        self.sign_in = SignInService(
            self.connection, self._emit, self.restart_agent, SecretStore(paths.data_dir())
        )
        self.io = SessionIO(
            self.machine,
            self.connection.request,
            self.connection.refuse,
            self._emit,
            self.terminals,
            lambda: self.proposals,
            self._failed,
            lambda: self.rules,
        )
        self._background = BackgroundTasks("background work")
        self.agent_state: AgentStateEnvelope | None = None
        # set by the hub: the user's terminals for agents (MCP servers, each message's hidden context),
        # the terminal-action proposals (app/main/proposals), the user's permission rules (app/main/rules)
        self.participation: SessionExtras | None = None
        self.proposals: ProposalsExtras | None = None
        self.rules: AgentRules | None = None
        self.mcp_servers: AgentMcpServers | None = None  # the user's own (app/main/mcp_servers)
        # `openclaw acp` only (else None): seed 003's transcript supplements, its stuck bridge restarted
        self.transcripts, self.recovery = openclaw_extras(
            command.argv, self._emit, self._spawn_background, self.connection.request, self.restart_agent
        )
        self.opening = SessionOpening(
            self.io,
            self.connection,
            self.default_cwd,
            self.additional_directories,
            lambda: (self.participation, self.mcp_servers),
            self.transcripts,
            self._spawn_background,
        )

    # --- subscription ------------------------------------------------------------------------
    def subscribe(self, listener: EnvelopeListener) -> Callable[[], None]:
        """Receive every envelope; returns an unsubscribe function."""
        return self._envelopes.subscribe(listener)

    def observe_raw(self, observer: Callable[[str, dict[str, Any]], None]) -> Callable[[], None]:
        """Raw JSON-RPC traffic ("send"/"recv", message): the transport's own objects, copied to keep."""
        return self.connection.observers.add_raw(observer)

    def _emit(self, envelope: Envelope) -> None:
        self._envelopes.emit(envelope)  # a broken view must not break routing

    def _failed(self, error: HostError, key: str | None) -> None:
        if self.recovery is not None:  # OpenClaw's bridge, stuck after its gateway came back
            self.recovery.failed(error, key)

    # --- read-only state ---------------------------------------------------------------------
    @property
    def agent_info(self) -> AgentInfo | None:
        return self.connection.info

    @property
    def agent_label(self) -> str:
        return self.connection.label

    @property
    def active_session_key(self) -> str | None:
        return self.machine.active.key if self.machine.active else None

    @property
    def active_generation(self) -> int | None:
        return self.machine.active.generation if self.machine.active else None

    @property
    def last_active_key(self) -> str | None:
        return self.machine.last_active_key

    def session_workspace(self, session_key: str, generation: int) -> str | None:
        """The cwd of `session_key` if open at exactly `generation` (shown, or live), else None."""
        return self.machine.workspace(session_key, generation)

    def is_live(self, session_key: str) -> bool:
        return session_key in self.machine.live

    def label_of(self, session_key: str) -> str:
        return self.agent_label

    def shown_elsewhere(self, session_key: str) -> bool:
        return self.connection.state == "ready" and self.machine.shown_elsewhere(session_key)

    @property
    def pending_permissions(self) -> int:
        return len(self.machine.permissions) + len(self.machine.questions)  # both wait for the user

    # --- agent lifecycle ---------------------------------------------------------------------
    async def start(self) -> AgentInfo:
        """Start the agent (shows `starting` while initialize runs); returns what it announced."""
        if self.proposals is not None and self.owns_extras:  # a private socket; cheap, no agent needed
            self._spawn_background(self.proposals.start(), "proposals")
        await self.connection.ensure_ready()
        assert self.connection.info is not None
        return self.connection.info

    async def shutdown(self) -> None:
        """Quit: cancel every waiter, end every client terminal, kill the agent's whole process group."""
        self.io.apply(self.machine.cancel_permissions("app-quit"))
        self.io.stop_grace.close()
        await self._background.close()
        self.sign_in.shutdown()
        self.terminals.shutdown()
        if self.transcripts is not None:
            await self.transcripts.close()
        if self.participation is not None and self.owns_extras:
            await self.participation.stop()
        if self.proposals is not None and self.owns_extras:
            await self.proposals.stop()
        await self.connection.stop()

    def set_additional_directories(self, folders: list[str]) -> None:
        """The extra folders from now on: for the next sessions, and at once for fs/* (the same list)."""
        self.additional_directories[:] = [normalize_cwd(d) for d in folders if d]

    @property
    def idle(self) -> bool:
        """Nothing runs or waits: stopping the child loses only its open sessions (they load again)."""
        asked = self.pending_permissions
        return not (self.machine.live or asked or self.terminals.terminals.running_count)

    async def park(self, why: str) -> None:
        """Stop the agent's child while no chat needs it; the next request starts it again."""
        self.io.agent_gone()
        self.sign_in.shutdown()
        self.terminals.shutdown()
        await self.connection.park(why)

    def _on_agent_state(self, envelope: AgentStateEnvelope) -> None:
        self.agent_state = envelope
        self._emit(envelope)
        sign_in = getattr(self, "sign_in", None)  # None only while the constructor runs
        if sign_in is not None:
            sign_in.on_agent_state(envelope)

    async def restart_agent(self) -> None:
        """Start a new agent child (after a sign-in changed its credentials): the old child's sessions
        are gone like after an exit, then the new one initializes."""
        self.io.agent_gone()
        await self.connection.restart()

    def _on_child_exit(self, code: int | None, stderr_tail: str) -> None:
        """The child died: drop its sessions, cancel every waiter; live prompts fail on their own."""
        if self.proposals is not None:  # no agent to hear a decision: every card ends unavailable
            self.proposals.agent_gone()
        self.io.apply(self.machine.agent_exited())
        said = f"The agent exited with code {code}; reload the session to continue."
        said += f"\n{stderr_tail}" if stderr_tail else ""
        self.io.diagnose("error", "agent-exited", said, self.machine.last_active_key)

    # --- incoming ----------------------------------------------------------------------------
    def route_session_update(self, params: Any) -> None:
        self.io.route_update(params)

    async def handle_permission_request(
        self, acp_session_id: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        """Ask the user (through a PermissionRequestEnvelope); the chosen option id, or None."""
        return await self.io.permissions.ask(acp_session_id, tool_call, options)

    def answer_permission(self, request_id: str, option_id: str | None) -> bool:
        """The user's choice (None = cancel). False if unknown, already answered, or not an option."""
        return self.io.permissions.answer(request_id, option_id)

    def answer_question(
        self, request_id: str, action: QuestionAction, values: dict[str, Any]
    ) -> dict[str, str]:
        return self.io.questions.answer(request_id, action, values)  # the problems; {} once it went

    # --- sessions ----------------------------------------------------------------------------
    async def new_session(self, cwd: str | None = None, target: str = "") -> LoadResult:
        """`session/new` with a proposed session key (naming OpenClaw's agent `target`, its default when
        ""); the key is the identity from then on."""
        return await self.opening.new(cwd, target)

    async def load_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """`session/load`: the replay comes back WITH the result, as one batch."""
        return await self.opening.load(session_key, cwd)

    async def resume_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """`session/resume`: rebind without replay."""
        return await self.opening.resume(session_key, cwd)

    async def activate_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """Show a session: a live one again at the SAME generation, no load; else a load (replay)."""
        return await self.opening.activate(session_key, cwd)

    async def list_sessions(self, cursor: str | None = None, cwd: str | None = None) -> SessionPage:
        """One page of `session/list`; pass `next_cursor` back for the next page."""
        await self.connection.ensure_ready()
        require(self.connection.info, "sessionCapabilities", "list", what="listing sessions")
        result = await self.connection.request("session/list", list_params(cursor, cwd))
        page = session_page(result)  # type: ignore[arg-type]
        return await self.transcripts.mark_heartbeats(page) if self.transcripts is not None else page

    async def close_session(self, session_key: str) -> None:
        """`session/close` (capability-gated); closing the active session leaves none active."""
        await end_session(self, "session/close", session_key, "closing sessions")

    async def delete_session(self, session_key: str) -> None:
        """`session/delete` (capability-gated; the SDK has no wrapper, so the raw request)."""
        await end_session(self, "session/delete", session_key, "deleting sessions")

    async def set_mode(self, session_key: str, mode_id: str) -> None:
        acp_id = self.machine.opened_acp_id(session_key)
        await self.connection.request("session/set_mode", {"sessionId": acp_id, "modeId": mode_id})

    async def set_config_option(
        self, session_key: str, config_id: str, value: str | bool
    ) -> tuple[dict[str, Any], ...]:
        """Returns the agent's full new list of config options."""
        params = config_option_params(self.machine.opened_acp_id(session_key), config_id, value)
        result = await self.connection.request("session/set_config_option", params)
        return tuple(dict_items(result, "configOptions"))

    # --- prompts -----------------------------------------------------------------------------
    async def prompt(self, session_key: str, text: str, **options: Unpack[PromptOptions]) -> PromptResult:
        """Send a prompt and wait for the turn to settle. Refusals raise PromptRefused."""
        cwd, attachments = options.get("cwd"), options.get("attachments", ())
        self.machine.check_prompt(
            session_key,
            normalize_cwd(cwd) if cwd is not None else None,
            load_queued=self.opening.lock.locked(),
            agent_gone=self.connection.state in ("exited", "failed"),
        )
        active = self.machine.active
        assert active is not None
        message_id = options.get("client_message_id") or f"user:{uuid.uuid4()}"
        info = self.agent_info
        try:
            blocks = build_prompt_blocks(
                text, attachments, PromptCapabilities.from_agent(info.capabilities if info else None)
            )
        except PromptRefused as exc:  # nothing was sent: views drop the optimistic message
            self._emit(PromptSettledEnvelope(active.key, active.generation, message_id, None, str(exc), 0.0))
            raise
        key, context = (active.key, active.generation), options.get("context")
        blocks += hidden_blocks(self.participation, self.proposals, info, key, message_id, context)
        params = {
            "sessionId": active.acp_id,
            "prompt": blocks,
            "_meta": build_prompt_meta(session_key, message_id, text),
        }
        roots = [active.cwd, *self.additional_directories]
        turn = (active.key, active.generation, message_id)
        result = await send_tracked(
            self.opening, self.io, self.files, self._spawn_background, turn, roots, params
        )
        usage = result.get("usage") if isinstance(result.get("usage"), dict) else None
        stop = str_field(result, "stopReason") or "end_turn"
        if self.transcripts is not None:
            self.transcripts.after_turn(active.key, active.generation, message_id, blocks)
        return PromptResult(active.key, active.generation, message_id, stop, usage)

    async def cancel(self, session_key: str) -> bool:
        """Stop the live turn: pending permissions and questions answer `cancelled`, then `session/cancel`.
        The prompt itself settles with `cancelled` (open tool calls are then marked cancelled)."""
        live = self.machine.live.get(session_key)
        if live is None:
            return False
        params = {"sessionId": live.acp_id}
        self.io.apply(self.machine.on_send({"method": "session/cancel", "params": params}))
        if self.proposals is not None:  # Stop: the turn's waiting cards end as cancelled
            self.proposals.stopped(session_key)
        await self.connection.notify("session/cancel", params)
        self.io.stop_grace.stopped(session_key, live.client_message_id)
        return True

    def _spawn_background(self, work: Any, name: str = "transcript-supplement") -> None:
        """Tracked work (cancelled at quit; a failure is logged, never left unretrieved)."""
        self._background.spawn(work, name)
