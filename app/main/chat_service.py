"""The chat service: the sessions host API the renderer calls, with the I/O around the session state
machine (`session_machine.py`), which decides every rule about sessions.

It builds the requests (cwd, additional directories, session keys, prompt content), sends them through
the agent connection, tells the machine about each message and its answer, and delivers the envelopes
the machine produces. The agent's terminal and file requests are served by host adapters of their own
(`terminal_host.py`, `file_host.py`), registered on the ACP client beside it. Every rule is pinned by a
test named after it (harness/reference/acp-chat.md lists them).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from app.contract.acp_fields import dict_items, str_field
from app.contract.envelopes import (
    AgentInfo,
    AgentStateEnvelope,
    DiagnosticEnvelope,
    Envelope,
    LoadResult,
    PromptResult,
    PromptSettledEnvelope,
    SessionPage,
)
from app.contract.errors import AgentUnavailable, HostError, LoadFailed, PromptRefused, SignInRequired
from app.contract.hidden_context import wrap as wrap_hidden
from app.main import paths
from app.main.acp_client import ClawClient
from app.main.agent_command import AgentCommand
from app.main.agent_connection import AgentConnection
from app.main.background_tasks import BackgroundTasks
from app.main.bridge_recovery import BridgeRecovery
from app.main.file_host import AgentFileHost
from app.main.listeners import Listeners
from app.main.openclaw_agents import new_session_key
from app.main.openclaw_endpoint import is_openclaw_acp
from app.main.prompt_blocks import (
    PromptAttachment,
    PromptCapabilities,
    build_prompt_blocks,
    build_prompt_meta,
)
from app.main.protocol_log import ProtocolLog
from app.main.secret_store import SecretStore
from app.main.session_machine import SessionMachine
from app.main.session_requests import list_params, normalize_cwd, open_params, require, session_page
from app.main.session_steps import Step, Token
from app.main.sign_in import SignInService
from app.main.stop_grace import StopGrace
from app.main.terminal_host import ClientTerminalHost, raw_create_problem
from app.main.trace_recorder import TraceRecorder

if TYPE_CHECKING:
    from app.contract.acp import RpcMessage
    from app.main.openclaw_supplement import OpenClawSupplements


log = logging.getLogger(__name__)

Listener = Callable[[Envelope], None]
EXPECTED_IGNORES = frozenset({"permission-auto-cancelled", "prompt-late-answer"})  # told as info


def _error(token: Token, message: str) -> RpcMessage:
    return {"id": token, "error": {"message": message}}


class SessionExtras(Protocol):
    """What the chat service asks of the terminal access (`terminal_participation.py`)."""

    async def start(self) -> str | None: ...

    def reserve(self) -> str | None: ...

    async def stop(self) -> None: ...

    def wanted_by(self, info: AgentInfo) -> bool: ...

    def mcp_servers(self, info: AgentInfo | None, open_id: str) -> list[dict[str, Any]]: ...

    def bind(self, open_id: str, session_key: str | None) -> None: ...

    def prompt_context(self, info: AgentInfo | None, session_key: str) -> str | None: ...

    def session_ended(self, session_key: str) -> None: ...


class ProposalsExtras(Protocol):
    """What the chat service asks of terminal-action proposals (`proposals.py`)."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def prompt_context(self, session_key: str, generation: int, turn_id: str) -> str | None: ...

    def on_permission(
        self, session_key: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None: ...

    def stopped(self, session_key: str) -> None: ...

    def session_closed(self, session_key: str) -> None: ...

    def agent_gone(self) -> None: ...


class ChatService:
    """Host API. All methods run on the event loop thread; envelopes are delivered synchronously."""

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
    ) -> None:
        self.default_cwd = normalize_cwd(cwd or os.getcwd())
        # extra workspace roots the user granted: sent to agents that support them, and where the
        # agent's fs/* requests may also reach
        self.additional_directories = [normalize_cwd(d) for d in additional_directories or [] if d]
        self._envelopes: Listeners[Envelope] = Listeners(
            log, "envelope listener failed for %s", lambda envelope: envelope.kind
        )
        # False when several agents share the terminal access and proposals (`agent_hub.py` starts
        # and stops them once, not each agent's service)
        self.owns_extras = owns_extras
        self.machine = SessionMachine()
        self.terminals = ClientTerminalHost(
            self.machine, self._emit, lambda code, message: self._diagnose("warning", code, message)
        )
        self.files = AgentFileHost(
            self.machine,
            self._emit,
            lambda code, message, key: self._diagnose("warning", code, message, key),
            self.additional_directories,
        )
        self._client = ClawClient(self, terminals=self.terminals, files=self.files)
        self.connection = AgentConnection(
            command,
            self._client,
            intercept=self._intercept,
            on_state=self._on_agent_state,
            on_exit=self._on_child_exit,
            on_diagnostic=lambda text: self._diagnose("warning", "agent-stdout", text),
            recorder=recorder,
            log_path=log_path if log_path is not None else paths.log_dir() / "agent-stderr.log",
            init_timeout=init_timeout,
        )
        self.protocol_log = ProtocolLog()  # the inspector's: kept whether or not it is open
        self.connection.add_line_observer(self.protocol_log.wire, self.protocol_log.stderr)
        self.sign_in = SignInService(
            self.connection, self._emit, self.restart_agent, SecretStore(paths.data_dir())
        )
        self._load_lock = asyncio.Lock()
        self._tokens = itertools.count(1)
        self._waiters: dict[Token, asyncio.Future[str | None]] = {}
        self.stop_grace = StopGrace(self.machine, self._apply, self.terminals)  # Stop the agent ignores
        self._background = BackgroundTasks("background work")
        self.agent_state: AgentStateEnvelope | None = None
        self.ignored_updates = 0
        # the user's terminals for agents (set by `make_host`): MCP servers in session/new|load|resume
        # and the hidden context of each of the user's messages
        self.participation: SessionExtras | None = None
        # terminal-action proposals (set by `make_host`): a channel per prompt, the silent permission
        # answer for the canonical command, the lifecycle (app/main/proposals.py)
        self.proposals: ProposalsExtras | None = None
        # seed 003's transcript supplements: `openclaw acp` agents only (None for any other agent)
        self.transcripts: OpenClawSupplements | None = None
        self.recovery: BridgeRecovery | None = None  # OpenClaw's bridge restarted when stuck
        if is_openclaw_acp(command.argv):  # the reader, urllib and websockets load only for OpenClaw
            from app.main.openclaw_supplement import OpenClawSupplements

            self.transcripts = OpenClawSupplements.for_command(
                command.argv, os.environ, self._emit, self._spawn_background
            )
        if self.transcripts is not None:
            reachable = self.transcripts.reader.reachable
            spawn = lambda work: self._spawn_background(work, "bridge-recovery")  # noqa: E731
            request, restart = self.connection.request, self.restart_agent
            self.recovery = BridgeRecovery(reachable, request, restart, self._emit, spawn)

    # --- subscription ------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Receive every envelope; returns an unsubscribe function."""
        return self._envelopes.subscribe(listener)

    def observe_raw(self, observer: Callable[[str, dict[str, Any]], None]) -> Callable[[], None]:
        """Raw JSON-RPC traffic ("send"/"recv", message) for recording and a protocol inspector. The
        message objects are the transport's own: observers must copy before keeping or changing them."""
        return self.connection.add_raw_observer(observer)

    def _emit(self, envelope: Envelope) -> None:
        self._envelopes.emit(envelope)  # a broken view must not break routing

    def _diagnose(self, level: str, code: str, message: str, key: str | None = None) -> None:
        getattr(log, level)("%s: %s", code, message)
        self._emit(DiagnosticEnvelope(level, code, message, key))  # type: ignore[arg-type]

    def _apply(self, step: Step) -> None:
        """Deliver what a transition produced: envelopes, permission answers, diagnostics."""
        for token, option_id in step.answers:
            waiter = self._waiters.get(token)
            if waiter is not None and not waiter.done():
                waiter.set_result(option_id)
        for envelope in step.envelopes:
            self._emit(envelope)
        for ignored in step.ignored:
            if ignored.code.startswith("update-"):
                self.ignored_updates += ignored.count
            level = "info" if ignored.code in EXPECTED_IGNORES else "warning"
            self._diagnose(level, ignored.code, ignored.message)

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
        """The cwd of `session_key` if it is open at exactly `generation` (the active session, or one
        with a live prompt), else None: what every attachment action checks against."""
        return self.machine.workspace(session_key, generation)

    def is_live(self, session_key: str) -> bool:
        return session_key in self.machine.live

    @property
    def pending_permissions(self) -> int:
        return len(self.machine.permissions)

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
        self._apply(self.machine.cancel_permissions("app-quit"))
        self.stop_grace.close()
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
        """The extra folders from now on: the next opened sessions get them, and the agent's fs/*
        requests reach exactly these at once (the file host reads the same list)."""
        self.additional_directories[:] = [normalize_cwd(d) for d in folders if d]

    @property
    def idle(self) -> bool:
        """No turn runs, nothing waits for the user, no client terminal is open: stopping the child
        now loses nothing but its open sessions, which load again on the next visit."""
        return (
            not self.machine.live
            and not self.machine.permissions
            and not self.terminals.terminals.running_count
        )

    async def park(self, why: str) -> None:
        """Stop the agent's child while no chat needs it; the next request starts it again."""
        self._apply(self.machine.cancel_permissions("agent-exited"))
        self._apply(self.machine.agent_exited())
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
        self._apply(self.machine.cancel_permissions("agent-exited"))
        self._apply(self.machine.agent_exited())
        await self.connection.restart()

    def _on_child_exit(self, code: int | None, stderr_tail: str) -> None:
        """The child died: drop its sessions, cancel every waiter; live prompts fail on their own."""
        if self.proposals is not None:  # no agent to hear a decision: every card ends unavailable
            self.proposals.agent_gone()
        self._apply(self.machine.agent_exited())
        self._diagnose(
            "error",
            "agent-exited",
            f"The agent exited with code {code}; reload the session to continue."
            + (f"\n{stderr_tail}" if stderr_tail else ""),
            self.machine.last_active_key,
        )

    # --- incoming ----------------------------------------------------------------------------
    def _intercept(self, message: dict[str, Any]) -> bool:
        """Route `session/update` in arrival order, before the SDK's per-message tasks; refuse a
        `terminal/create` whose raw params the SDK would quietly trim (it drops list items it cannot
        read: `["-c", 42]` would run `bash -c` with the script missing)."""
        method = message.get("method")
        if method == "session/update" and "id" not in message:
            self.route_session_update(message.get("params"))
            return True
        if method == "terminal/create" and "id" in message:
            problem = raw_create_problem(message.get("params"))
            if problem:
                self._diagnose("warning", "terminal-refused", problem)
                self.connection.refuse(message["id"], -32602, problem)
                return True
        return False

    def route_session_update(self, params: Any) -> None:
        route = self.machine.route(params)
        if route.envelope is not None:
            envelope = route.envelope
            if envelope.kind == "session_update" and not envelope.historical:
                envelope = dataclasses.replace(envelope, received_at=time.monotonic())
            self._emit(envelope)
        elif route.kind in ("dropped", "malformed"):
            self.ignored_updates += 1
            self._diagnose("warning", f"update-{route.kind}", route.reason)

    async def handle_permission_request(
        self, acp_session_id: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        """Ask the user (through a PermissionRequestEnvelope); the chosen option id, or None."""
        if self.proposals is not None:
            context = self.machine.context_of(acp_session_id)
            if context is not None:
                silent = self.proposals.on_permission(context.key, tool_call, options)
                if silent is not None:  # the proposal CLI: allowed once (armed) or cancelled, unseen
                    return silent or None
        token = next(self._tokens)
        params = {"sessionId": acp_session_id, "toolCall": tool_call, "options": options}
        step = self.machine.on_recv({"id": token, "method": "session/request_permission", "params": params})
        if step.refusal is not None:
            self._apply(step)
            return None
        waiter = self._waiters[token] = asyncio.get_running_loop().create_future()
        self._apply(step)
        try:
            return await waiter
        finally:
            self._waiters.pop(token, None)
            self.machine.permissions.forget(token)

    def answer_permission(self, request_id: str, option_id: str | None) -> bool:
        """The user's choice (None = cancel). False if unknown, already answered, or not an option."""
        step = self.machine.answer_permission(request_id, option_id)
        self._apply(step)
        return bool(step.answers)

    # --- requests ----------------------------------------------------------------------------
    async def _request(
        self, method: str, params: dict, key: str | None = None
    ) -> tuple[dict[str, Any], Step]:
        """Send a request the machine must know about; it sees the request and then its answer."""
        token = next(self._tokens)
        self._apply(self.machine.on_send({"id": token, "method": method, "params": params}, time.monotonic()))
        try:
            request = self.connection.request(method, params)
            result = await (request if key is None else self.stop_grace.answer(key, token, request))
            if result is None:  # a prompt (`key`) Stop ended after its grace: `StopGrace`
                return {"stopReason": "cancelled"}, Step()
        except HostError as exc:
            if isinstance(exc, AgentUnavailable):
                self._apply(self.machine.cancel_permissions("agent-exited"))
            self._apply(self.machine.on_recv(_error(token, str(exc)), time.monotonic()))
            if self.recovery is not None:
                self.recovery.failed(exc, key or self.machine.last_active_key)
            raise
        except asyncio.CancelledError:
            self._apply(self.machine.on_recv(_error(token, "the request was abandoned"), time.monotonic()))
            raise
        step = self.machine.on_recv({"id": token, "result": result}, time.monotonic())
        self._apply(step)
        return result, step

    # --- sessions ----------------------------------------------------------------------------
    async def new_session(self, cwd: str | None = None, target: str = "") -> LoadResult:
        """`session/new` with a proposed session key (naming OpenClaw's agent `target`, its default when
        ""); the key is the identity from then on."""
        key = new_session_key(target)  # a target not of OpenClaw's form is refused before anything
        await self.connection.ensure_ready()
        return await self._open_session("session/new", key, cwd)

    async def load_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """`session/load`: the replay comes back WITH the result, as one batch."""
        await self.connection.ensure_ready()
        require(self.connection.info, "loadSession", what="loading sessions")
        return await self._open_session("session/load", session_key, cwd)

    async def resume_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """`session/resume`: rebind without replay."""
        await self.connection.ensure_ready()
        require(self.connection.info, "sessionCapabilities", "resume", what="resuming sessions")
        return await self._open_session("session/resume", session_key, cwd)

    async def activate_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """Show a session: a live prompt's session comes back with the SAME generation and no
        `session/load`; anything else is a normal load (replay)."""
        async with self._load_lock:
            shown = self.machine.show_live(session_key) if self.connection.is_ready else None
            if shown is not None:
                result, step = shown
                self._apply(step)
                return result
        return await self.load_session(session_key, cwd)

    async def _open_session(self, method: str, key: str, cwd: str | None) -> LoadResult:
        async with self._load_lock:  # loads are serialized; a queued load runs after a failed one
            await self.connection.ensure_ready()
            run_in = normalize_cwd(cwd or self.default_cwd)
            info = self.connection.info
            params = open_params(method, key, run_in, self.additional_directories, info)
            open_id = f"open-{uuid.uuid4().hex[:12]}"  # unique across agents (one participation)
            if (
                self.participation is not None
                and info is not None
                and info.supports("mcpCapabilities", "http")
            ):
                params["mcpServers"] = self.participation.mcp_servers(info, open_id)  # the address is bound
            if params.get("mcpServers") and self.participation is not None:
                # the server's modules load beside the request: an agent that connects to the servers
                # it was given before it answers (fast-agent, with a 10 s budget) is served while it waits
                self._spawn_background(self.participation.start(), "terminal-access")
            try:
                _, step = await self._request(method, dict(params))
            except SignInRequired:
                self._bind_servers(open_id, None)
                raise  # the sign-in panel says it (SignInEnvelope)
            except HostError as exc:
                self._bind_servers(open_id, None)
                self._diagnose("error", "load-failed", f"{method} failed: {exc}", key)
                raise LoadFailed(str(exc), details=exc.details) from exc
            self._bind_servers(open_id, step.committed.session_key if step.committed else None)
            if self.participation is not None and info is not None and self.participation.wanted_by(info):
                # an agent connected on its side wants the server too (start() runs once)
                self._spawn_background(self.participation.start(), "terminal-access")
            if step.committed is None:
                raise LoadFailed(step.failure or f"The agent's answer to {method} opened no session.")
            if self.transcripts is not None and method == "session/load":
                self.transcripts.after_load(step.committed.session_key, step.committed.generation)
            return step.committed

    def _bind_servers(self, open_id: str, session_key: str | None) -> None:
        if self.participation is not None:
            self.participation.bind(open_id, session_key)

    async def list_sessions(self, cursor: str | None = None, cwd: str | None = None) -> SessionPage:
        """One page of `session/list`; pass `next_cursor` back for the next page."""
        await self.connection.ensure_ready()
        require(self.connection.info, "sessionCapabilities", "list", what="listing sessions")
        result = await self.connection.request("session/list", list_params(cursor, cwd))
        page = session_page(result)  # type: ignore[arg-type]
        return await self.transcripts.mark_heartbeats(page) if self.transcripts is not None else page

    async def close_session(self, session_key: str) -> None:
        """`session/close` (capability-gated); closing the active session leaves none active."""
        await self.connection.ensure_ready()
        require(self.connection.info, "sessionCapabilities", "close", what="closing sessions")
        await self._end_session("session/close", session_key)

    async def delete_session(self, session_key: str) -> None:
        """`session/delete` (capability-gated; the SDK has no wrapper, so the raw request)."""
        await self.connection.ensure_ready()
        require(self.connection.info, "sessionCapabilities", "delete", what="deleting sessions")
        await self._end_session("session/delete", session_key)

    async def _end_session(self, method: str, session_key: str) -> None:
        if self.is_live(session_key):
            await self.cancel(session_key)
        self.terminals.close_session(session_key)
        self.files.forget_session(session_key)
        if self.participation is not None:
            self.participation.session_ended(session_key)
        if self.proposals is not None:  # the chat is gone: its waiting cards end session_replaced
            self.proposals.session_closed(session_key)
        await self._request(method, {"sessionId": self.machine.acp_ids.get(session_key, session_key)})

    async def set_mode(self, session_key: str, mode_id: str) -> None:
        acp_id = self.machine.opened_acp_id(session_key)
        await self.connection.request("session/set_mode", {"sessionId": acp_id, "modeId": mode_id})

    async def set_config_option(
        self, session_key: str, config_id: str, value: str | bool
    ) -> tuple[dict[str, Any], ...]:
        """Returns the agent's full new list of config options."""
        params: dict[str, Any] = {
            "sessionId": self.machine.opened_acp_id(session_key),
            "configId": config_id,
            "value": value,
        }
        if isinstance(value, bool):
            params["type"] = "boolean"
        result = await self.connection.request("session/set_config_option", params)
        return tuple(dict_items(result, "configOptions"))

    # --- prompts -----------------------------------------------------------------------------
    async def prompt(
        self,
        session_key: str,
        text: str,
        attachments: tuple[PromptAttachment, ...] = (),
        client_message_id: str | None = None,
        cwd: str | None = None,
    ) -> PromptResult:
        """Send a prompt and wait for the turn to settle. Refusals raise PromptRefused."""
        self.machine.check_prompt(
            session_key,
            normalize_cwd(cwd) if cwd is not None else None,
            load_queued=self._load_lock.locked(),
            agent_gone=self.connection.state in ("exited", "failed"),
        )
        active = self.machine.active
        assert active is not None
        message_id = client_message_id or f"user:{uuid.uuid4()}"
        info = self.agent_info
        try:
            blocks = build_prompt_blocks(
                text, attachments, PromptCapabilities.from_agent(info.capabilities if info else None)
            )
        except PromptRefused as exc:  # nothing was sent: views drop the optimistic message
            self._emit(PromptSettledEnvelope(active.key, active.generation, message_id, None, str(exc), 0.0))
            raise
        if self.participation is not None:  # the user's message: the one moment a capability is minted
            context = self.participation.prompt_context(info, active.key)
            if context:
                blocks.append({"type": "text", "text": context})
        if self.proposals is not None:  # the prompt's proposal channel (the previous one superseded)
            proposal = self.proposals.prompt_context(active.key, active.generation, message_id)
            if proposal:
                blocks.append({"type": "text", "text": wrap_hidden(proposal)})
        params = {
            "sessionId": active.acp_id,
            "prompt": blocks,
            "_meta": build_prompt_meta(session_key, message_id, text),
        }
        result, _ = await self._request("session/prompt", params, key=active.key)
        usage = result.get("usage") if isinstance(result.get("usage"), dict) else None
        stop = str_field(result, "stopReason") or "end_turn"
        if self.transcripts is not None:
            self.transcripts.after_turn(active.key, active.generation, message_id, blocks)
        return PromptResult(active.key, active.generation, message_id, stop, usage)

    async def cancel(self, session_key: str) -> bool:
        """Stop the live turn: pending permissions answer `cancelled`, then `session/cancel`.
        The prompt itself settles with `cancelled` (open tool calls are then marked cancelled)."""
        live = self.machine.live.get(session_key)
        if live is None:
            return False
        params = {"sessionId": live.acp_id}
        self._apply(self.machine.on_send({"method": "session/cancel", "params": params}))
        if self.proposals is not None:  # Stop: the turn's waiting cards end as cancelled
            self.proposals.stopped(session_key)
        await self.connection.notify("session/cancel", params)
        self.stop_grace.stopped(session_key, live.client_message_id)
        return True

    def _spawn_background(self, work: Any, name: str = "transcript-supplement") -> None:
        """Tracked work (cancelled at quit; a failure is logged, never left unretrieved)."""
        self._background.spawn(work, name)


__all__ = ["ChatService", "PromptAttachment", "normalize_cwd"]
