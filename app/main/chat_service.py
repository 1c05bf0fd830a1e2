"""The chat service: the host API the renderer calls, and the routing envelopes it emits.

It owns the session key <-> ACP id map, generations, the serialized load queue, live-prompt contexts,
permission waiters and the prompt refusal rules. The agent process itself lives in AgentConnection.
Every rule here is pinned by a test named after it (harness/reference/acp-chat.md lists them).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.contract.envelopes import (
    AgentInfo,
    AgentStateEnvelope,
    DiagnosticEnvelope,
    Envelope,
    LoadResult,
    PermissionRequestEnvelope,
    PermissionResolvedEnvelope,
    PromptResult,
    PromptSettledEnvelope,
    SessionPage,
    SessionSummary,
    SessionUpdateEnvelope,
    TerminalOutputEnvelope,
    ToolCallsCancelledEnvelope,
)
from app.contract.errors import (
    AgentUnavailable,
    CapabilityMissing,
    HostError,
    LoadFailed,
    PromptRefused,
)
from app.main import paths
from app.main.acp_client import ClawClient
from app.main.agent_command import AgentCommand
from app.main.agent_connection import AgentConnection
from app.main.agent_files import AgentFileError, AgentFiles, FileChange
from app.main.client_terminals import ClientTerminals, ExitStatus, TerminalError
from app.main.permissions import PermissionBroker, PermissionWaiter
from app.main.prompt_blocks import (
    PromptAttachment,
    PromptCapabilities,
    build_prompt_blocks,
    build_prompt_meta,
)
from app.main.session_routing import (
    ActiveSession,
    LivePrompt,
    LoadTransaction,
    rewrite,
    route_update,
)
from app.main.trace_recorder import TraceRecorder

log = logging.getLogger(__name__)

Listener = Callable[[Envelope], None]


def _norm_cwd(cwd: str) -> str:
    return os.path.realpath(os.path.expanduser(cwd))


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
    ) -> None:
        self.default_cwd = _norm_cwd(cwd or os.getcwd())
        # extra workspace roots the user granted: sent to agents that support them, and where the
        # agent's fs/* requests may also reach
        self.additional_directories = [_norm_cwd(d) for d in additional_directories or [] if d]
        self._listeners: list[Listener] = []
        self._client = ClawClient(self)
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
        self._load_lock = asyncio.Lock()
        self._issued_generation = 0
        self._active: ActiveSession | None = None
        self._loading: LoadTransaction | None = None
        self._live: dict[str, LivePrompt] = {}
        self._live_by_acp: dict[str, LivePrompt] = {}
        self._acp_ids: dict[str, str] = {}
        self._permissions = PermissionBroker(self._on_permission_resolved)
        self.terminals = ClientTerminals(on_output=self._on_terminal_output)
        self._terminal_decoders: dict[str, Any] = {}
        self._terminal_generation: dict[str, int] = {}
        self.files = AgentFiles()
        self.agent_state: AgentStateEnvelope | None = None
        self.ignored_updates = 0
        self.last_active_key: str | None = None

    # --- subscription ------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Receive every envelope; returns an unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def observe_raw(self, observer: Callable[[str, dict[str, Any]], None]) -> Callable[[], None]:
        """Raw JSON-RPC traffic ("send"/"recv", message) for recording and a protocol inspector. The
        message objects are the transport's own: observers must copy before keeping or changing them."""
        return self.connection.add_raw_observer(observer)

    def _emit(self, envelope: Envelope) -> None:
        for listener in list(self._listeners):
            try:
                listener(envelope)
            except Exception:  # a broken view must not break routing
                log.exception("envelope listener failed for %s", envelope.kind)

    def _diagnose(self, level: str, code: str, message: str, key: str | None = None) -> None:
        getattr(log, level if level != "info" else "info")("%s: %s", code, message)
        self._emit(DiagnosticEnvelope(level, code, message, key))  # type: ignore[arg-type]

    # --- read-only state ---------------------------------------------------------------------
    @property
    def agent_info(self) -> AgentInfo | None:
        return self.connection.info

    @property
    def active_session_key(self) -> str | None:
        return self._active.key if self._active else None

    def session_workspace(self, session_key: str, generation: int) -> str | None:
        """The cwd of `session_key` if it is open at exactly `generation` (the active session, or one
        with a live prompt), else None: what every attachment action checks against."""
        live = self._live.get(session_key)
        if live is not None and live.generation == generation:
            return live.cwd
        active = self._active
        if active is not None and active.key == session_key and active.generation == generation:
            return active.cwd
        return None

    @property
    def active_generation(self) -> int | None:
        return self._active.generation if self._active else None

    def is_live(self, session_key: str) -> bool:
        return session_key in self._live

    @property
    def pending_permissions(self) -> int:
        return len(self._permissions)

    # --- agent lifecycle ---------------------------------------------------------------------
    async def start(self) -> AgentInfo:
        """Start the agent (shows `starting` while initialize runs); returns what it announced."""
        await self.connection.ensure_ready()
        assert self.connection.info is not None
        return self.connection.info

    async def shutdown(self) -> None:
        """Quit: cancel every waiter, end every client terminal, kill the agent's whole process group."""
        self._permissions.cancel_where(lambda w: True, "app-quit")
        self.terminals.shutdown()
        await self.connection.stop()

    def _on_agent_state(self, envelope: AgentStateEnvelope) -> None:
        self.agent_state = envelope
        self._emit(envelope)

    def _on_child_exit(self, code: int | None, stderr_tail: str) -> None:
        """The child died: drop its sessions, cancel every waiter; live prompts fail on their own."""
        self._permissions.cancel_where(lambda w: True, "agent-exited")
        if self._active is not None:
            self.last_active_key = self._active.key
        self._active = None
        self._acp_ids.clear()
        for live in list(self._live.values()):
            self._mark_tools_cancelled(live)
        self._diagnose(
            "error",
            "agent-exited",
            f"The agent exited with code {code}; reload the session to continue."
            + (f"\n{stderr_tail}" if stderr_tail else ""),
            self.last_active_key,
        )

    # --- incoming ----------------------------------------------------------------------------
    def _intercept(self, message: dict[str, Any]) -> bool:
        """Route `session/update` in arrival order, before the SDK's per-message tasks."""
        if message.get("method") == "session/update" and "id" not in message:
            self.route_session_update(message.get("params"))
            return True
        return False

    def route_session_update(self, params: Any) -> None:
        route = route_update(params, self._live_by_acp, self._loading, self._active)
        if route.envelope is not None:
            self._emit(route.envelope)
        elif route.kind in ("dropped", "malformed"):
            self.ignored_updates += 1
            self._diagnose("warning", f"update-{route.kind}", route.reason)

    async def handle_permission_request(
        self, acp_session_id: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        live = self._live_by_acp.get(acp_session_id)
        refusal = None
        if self._loading is not None:
            refusal = "load-running"
        elif live is None:
            refusal = "no-live-prompt"
        elif self._active is None or self._active.key != live.key:
            refusal = "session-not-active"
        if refusal is not None or live is None:
            self._diagnose(
                "info",
                "permission-auto-cancelled",
                f"a permission request was answered 'cancelled' automatically ({refusal})",
            )
            return None
        waiter = self._permissions.open(live.key, live.generation, options)
        self._emit(
            PermissionRequestEnvelope(live.key, live.generation, waiter.request_id, tool_call, tuple(options))
        )
        try:
            return await waiter.future
        finally:
            self._permissions.discard(waiter.request_id)

    # --- client-side terminals -------------------------------------------------------------------
    def _session_context(self, acp_session_id: str) -> tuple[str, int, str]:
        """(key, generation, workspace cwd) of the session a terminal request names."""
        live = self._live_by_acp.get(acp_session_id)
        if live is not None:
            return live.key, live.generation, live.cwd
        if self._active is not None and self._active.acp_id == acp_session_id:
            return self._active.key, self._active.generation, self._active.cwd
        raise TerminalError(f"no open session {acp_session_id!r}")

    @staticmethod
    def _request_error(exc: Exception) -> Exception:
        from acp import RequestError

        return RequestError.invalid_params({"details": str(exc)})

    def terminal_create(
        self, acp_session_id: str, command: str, args: Any, env: Any, cwd: Any, limit: Any
    ) -> str:
        try:
            key, generation, workspace = self._session_context(acp_session_id)
            terminal_id = self.terminals.create(key, workspace, command, args, env, cwd, limit)
        except TerminalError as exc:
            self._diagnose("warning", "terminal-refused", str(exc))
            raise self._request_error(exc) from exc
        self._terminal_generation[terminal_id] = generation
        return terminal_id

    def terminal_call(self, op: str, acp_session_id: str, terminal_id: str) -> dict[str, Any]:
        try:
            key, _, _ = self._session_context(acp_session_id)
            if op == "output":
                return self.terminals.output(key, terminal_id)
            getattr(self.terminals, op)(key, terminal_id)
            return {}
        except TerminalError as exc:
            raise self._request_error(exc) from exc

    async def terminal_wait(self, acp_session_id: str, terminal_id: str) -> dict[str, Any]:
        try:
            key, _, _ = self._session_context(acp_session_id)
            return await self.terminals.wait_for_exit(key, terminal_id)
        except TerminalError as exc:
            raise self._request_error(exc) from exc

    def _on_terminal_output(
        self, session_key: str, terminal_id: str, data: bytes, status: ExitStatus | None
    ) -> None:
        import codecs

        decoder = self._terminal_decoders.setdefault(
            terminal_id, codecs.getincrementaldecoder("utf-8")("replace")
        )
        text = decoder.decode(data, final=status is not None)
        generation = self._terminal_generation.get(terminal_id, 0)
        self._emit(
            TerminalOutputEnvelope(
                session_key,
                generation,
                terminal_id,
                text,
                exited=status is not None,
                exit_code=status.exit_code if status else None,
                signal=status.signal if status else None,
            )
        )
        if status is not None:
            self._terminal_decoders.pop(terminal_id, None)

    # --- agent file access (fs/read_text_file, fs/write_text_file) -------------------------------
    def _fs_context(self, acp_session_id: str, method: str, path: str) -> tuple[str, list[str], str]:
        """(session key, roots, turn id) of a file request; roots are the session's cwd plus the
        additional directories the user granted; the turn is the live prompt's message id."""
        try:
            key, _, cwd = self._session_context(acp_session_id)
        except TerminalError as exc:
            self._diagnose("warning", "fs-refused", f"{method} {path!r}: {exc}")
            raise AgentFileError("resource_not_found", str(exc)) from exc
        live = self._live_by_acp.get(acp_session_id)
        roots = [cwd, *self.additional_directories]
        return key, roots, live.client_message_id if live is not None else "turn:unknown"

    async def fs_read(self, acp_session_id: str, path: str, line: int | None, limit: int | None) -> str:
        key, roots, _ = self._fs_context(acp_session_id, "fs/read_text_file", path)
        try:
            # off the event loop: a 10 MiB read on a slow disk must not freeze the window
            return await asyncio.to_thread(self.files.read, key, roots, path, line, limit)
        except AgentFileError as exc:
            self._diagnose("warning", "fs-refused", f"fs/read_text_file {path!r}: {exc}", key)
            raise

    def fs_write(self, acp_session_id: str, path: str, content: str) -> None:
        key, roots, turn_id = self._fs_context(acp_session_id, "fs/write_text_file", path)
        try:
            self.files.write(key, turn_id, roots, path, content)
        except AgentFileError as exc:
            self._diagnose("warning", "fs-refused", f"fs/write_text_file {path!r}: {exc}", key)
            raise

    def file_changes(self, session_key: str, turn_id: str) -> list[FileChange]:
        """The files the agent wrote in a turn (turn id = the prompt's client message id)."""
        return self.files.changes(session_key, turn_id)

    def revert_file(self, session_key: str, turn_id: str, path: str) -> None:
        """Undo the agent's write to `path` in that turn; raises AgentFileError if it cannot."""
        self.files.revert(session_key, turn_id, path)

    def answer_permission(self, request_id: str, option_id: str | None) -> bool:
        """The user's choice (None = cancel). False if unknown, already answered, or not an option."""
        return self._permissions.answer(request_id, option_id)

    def _on_permission_resolved(self, waiter: PermissionWaiter, option_id: str | None, reason: str) -> None:
        self._emit(
            PermissionResolvedEnvelope(
                waiter.session_key,
                waiter.generation,
                waiter.request_id,
                "selected" if option_id is not None else "cancelled",
                option_id,
                reason,
            )
        )

    # --- sessions ----------------------------------------------------------------------------
    def _require(self, *path: str, what: str) -> None:
        info = self.connection.info
        if info is None or not info.supports(*path):
            raise CapabilityMissing(f"The agent does not support {what}.", code=f"no-{path[-1].lower()}")

    def _proposed_key(self) -> str:
        return f"agent:main:clawqt-{uuid.uuid4().hex[:12]}"

    def _honours_session_keys(self) -> bool:
        info = self.connection.info
        return info is not None and info.name.startswith("openclaw")

    async def new_session(self, cwd: str | None = None) -> LoadResult:
        """`session/new` with a proposed session key; the key is the identity from then on."""
        await self.connection.ensure_ready()
        proposed = self._proposed_key()
        return await self._open_session("session/new", proposed, cwd, acp_id=None)

    async def load_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """`session/load`: the replay comes back WITH the result, as one batch."""
        await self.connection.ensure_ready()
        self._require("loadSession", what="loading sessions")
        return await self._open_session("session/load", session_key, cwd, acp_id=session_key)

    async def resume_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """`session/resume`: rebind without replay (the view keeps what it shows)."""
        await self.connection.ensure_ready()
        self._require("sessionCapabilities", "resume", what="resuming sessions")
        return await self._open_session("session/resume", session_key, cwd, acp_id=session_key)

    async def activate_session(self, session_key: str, cwd: str | None = None) -> LoadResult:
        """Show a session: a live prompt's context comes back with the SAME generation and no
        `session/load`; anything else is a normal load (replay)."""
        async with self._load_lock:
            live = self._live.get(session_key)
            if live is not None and self.connection.is_ready:
                self._cancel_permissions_on_switch()
                self._active = ActiveSession(
                    live.key, live.acp_id, live.generation, live.cwd, historical=False
                )
                return LoadResult(live.key, live.generation, live.cwd, (), resumed_live=True)
        return await self.load_session(session_key, cwd)

    def _cancel_permissions_on_switch(self) -> None:
        self._permissions.cancel_where(lambda w: True, "session-switch")

    async def _open_session(self, method: str, key: str, cwd: str | None, acp_id: str | None) -> LoadResult:
        async with self._load_lock:  # loads are serialized; a queued load runs after a failed one
            await self.connection.ensure_ready()
            exec_cwd = _norm_cwd(cwd or self.default_cwd)
            # Issued generations only grow; a failed load leaves the previous active session and
            # its generation untouched (nothing was committed), so stale results never match.
            generation = self._issued_generation = self._issued_generation + 1
            self._cancel_permissions_on_switch()
            txn = LoadTransaction(key, generation, acp_id)
            self._loading = txn
            params: dict[str, Any] = {"cwd": exec_cwd, "mcpServers": []}
            info = self.connection.info
            if (
                self.additional_directories
                and info
                and info.supports("sessionCapabilities", "additionalDirectories")
            ):
                params["additionalDirectories"] = list(self.additional_directories)
            if method == "session/new":
                if self._honours_session_keys():  # others would list it by ACP id anyway
                    params["_meta"] = {"sessionKey": key}
            else:
                params["sessionId"] = key
            try:
                result = await self.connection.request(method, params)
            except HostError as exc:
                self._diagnose("error", "load-failed", f"{method} failed: {exc}", key)
                raise LoadFailed(f"Could not open the session: {exc}") from exc
            finally:
                self._loading = None
            if method == "session/new":
                new_id = result.get("sessionId")
                if not isinstance(new_id, str) or not new_id:
                    raise LoadFailed("The agent answered session/new without a session id.")
                txn.acp_id = new_id
                meta = result.get("_meta") if isinstance(result.get("_meta"), dict) else {}
                if isinstance(meta.get("sessionKey"), str) and meta["sessionKey"]:
                    key = meta["sessionKey"]
                elif not self._honours_session_keys():
                    key = new_id
            resolved_acp = txn.acp_id or key
            self._acp_ids[key] = resolved_acp
            self._active = ActiveSession(key, resolved_acp, generation, exec_cwd, historical=True)
            self.last_active_key = key
            updates = tuple(
                SessionUpdateEnvelope(key, generation, True, rewrite(params_, key))
                for params_ in txn.buffer
                if params_.get("sessionId") == resolved_acp
            )
            dropped = len(txn.buffer) - len(updates)
            if dropped:
                self.ignored_updates += dropped
                self._diagnose(
                    "warning", "update-dropped", f"{dropped} updates for other sessions during {method}"
                )
            options = result.get("configOptions")
            return LoadResult(
                session_key=key,
                generation=generation,
                cwd=exec_cwd,
                updates=updates,
                modes=result.get("modes") if isinstance(result.get("modes"), dict) else None,
                config_options=tuple(o for o in options if isinstance(o, dict))
                if isinstance(options, list)
                else (),
                created=method == "session/new",
            )

    async def list_sessions(self, cursor: str | None = None, cwd: str | None = None) -> SessionPage:
        """One page of `session/list`; pass `next_cursor` back for the next page."""
        await self.connection.ensure_ready()
        self._require("sessionCapabilities", "list", what="listing sessions")
        params: dict[str, Any] = {}
        if cursor:
            params["cursor"] = cursor
        if cwd:
            params["cwd"] = cwd
        result = await self.connection.request("session/list", params)
        entries = result.get("sessions") if isinstance(result.get("sessions"), list) else []
        sessions = []
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("sessionId"), str):
                continue
            title = entry.get("title")
            sessions.append(
                SessionSummary(
                    session_key=entry["sessionId"],
                    title=title if isinstance(title, str) else None,
                    cwd=entry.get("cwd") if isinstance(entry.get("cwd"), str) else None,
                    updated_at=entry.get("updatedAt") if isinstance(entry.get("updatedAt"), str) else None,
                    meta=entry.get("_meta") if isinstance(entry.get("_meta"), dict) else {},
                )
            )
        next_cursor = result.get("nextCursor")
        return SessionPage(tuple(sessions), next_cursor if isinstance(next_cursor, str) else None)

    async def close_session(self, session_key: str) -> None:
        """`session/close` (capability-gated); closing the active session leaves none active."""
        await self.connection.ensure_ready()
        self._require("sessionCapabilities", "close", what="closing sessions")
        await self._end_session("session/close", session_key)

    async def delete_session(self, session_key: str) -> None:
        """`session/delete` (capability-gated; the SDK has no wrapper, so the raw request)."""
        await self.connection.ensure_ready()
        self._require("sessionCapabilities", "delete", what="deleting sessions")
        await self._end_session("session/delete", session_key)

    async def _end_session(self, method: str, session_key: str) -> None:
        if session_key in self._live:
            await self.cancel(session_key)
        acp_id = self._acp_ids.get(session_key, session_key)
        self.terminals.close_session(session_key)
        self.files.forget_session(session_key)
        await self.connection.request(method, {"sessionId": acp_id})
        self._acp_ids.pop(session_key, None)
        if self._active is not None and self._active.key == session_key:
            self._permissions.cancel_where(lambda w: w.session_key == session_key, "session-closed")
            self._active = None

    def _opened_acp_id(self, session_key: str) -> str:
        live = self._live.get(session_key)
        if live is not None:
            return live.acp_id
        if self._active is not None and self._active.key == session_key:
            return self._active.acp_id
        raise PromptRefused(
            "That session is not open in the agent; load it first.", code="session-not-loaded"
        )

    async def set_mode(self, session_key: str, mode_id: str) -> None:
        acp_id = self._opened_acp_id(session_key)
        await self.connection.request("session/set_mode", {"sessionId": acp_id, "modeId": mode_id})

    async def set_config_option(
        self, session_key: str, config_id: str, value: str | bool
    ) -> tuple[dict[str, Any], ...]:
        """Returns the agent's full new list of config options."""
        acp_id = self._opened_acp_id(session_key)
        params: dict[str, Any] = {"sessionId": acp_id, "configId": config_id, "value": value}
        if isinstance(value, bool):
            params["type"] = "boolean"
        result = await self.connection.request("session/set_config_option", params)
        options = result.get("configOptions")
        return tuple(o for o in options if isinstance(o, dict)) if isinstance(options, list) else ()

    # --- prompts -----------------------------------------------------------------------------
    def _refuse_prompt(self, session_key: str, cwd: str | None) -> ActiveSession:
        if self._active is None:
            if self.last_active_key and self.connection.state in ("exited", "failed"):
                raise PromptRefused(
                    "The agent restarted; reload the session to continue (your draft is kept).",
                    code="no-session",
                )
            raise PromptRefused("No session is loaded yet.", code="no-session")
        if self._loading is not None or self._load_lock.locked():
            raise PromptRefused("A session is still loading.", code="load-running")
        if self._active.key != session_key:
            raise PromptRefused("That session is not the active one.", code="session-not-active")
        if cwd is not None and _norm_cwd(cwd) != self._active.cwd:
            raise PromptRefused(
                f"The working directory {cwd} differs from the session's {self._active.cwd}.",
                code="cwd-mismatch",
            )
        if session_key in self._live:
            raise PromptRefused("A turn is already running in this session.", code="prompt-running")
        return self._active

    async def prompt(
        self,
        session_key: str,
        text: str,
        attachments: tuple[PromptAttachment, ...] = (),
        client_message_id: str | None = None,
        cwd: str | None = None,
    ) -> PromptResult:
        """Send a prompt and wait for the turn to settle. Refusals raise PromptRefused."""
        active = self._refuse_prompt(session_key, cwd)
        message_id = client_message_id or f"user:{uuid.uuid4()}"
        info = self.agent_info
        try:
            blocks = build_prompt_blocks(
                text, attachments, PromptCapabilities.from_agent(info.capabilities if info else None)
            )
        except PromptRefused as exc:  # nothing was sent: views drop the optimistic message
            self._emit(PromptSettledEnvelope(active.key, active.generation, message_id, None, str(exc), 0.0))
            raise
        meta = build_prompt_meta(session_key, message_id, text)
        live = LivePrompt(active.key, active.acp_id, active.generation, active.cwd, message_id)
        self._live[live.key] = live
        self._live_by_acp[live.acp_id] = live
        active.historical = False
        try:
            result = await self.connection.request(
                "session/prompt", {"sessionId": live.acp_id, "prompt": blocks, "_meta": meta}
            )
        except HostError as exc:
            if isinstance(exc, AgentUnavailable):
                self._permissions.cancel_where(lambda w: True, "agent-exited")
            self._settle(live, None, str(exc))
            raise
        except asyncio.CancelledError:
            self._settle(live, None, "the prompt was abandoned")
            raise
        stop_reason = result.get("stopReason")
        stop = stop_reason if isinstance(stop_reason, str) else "end_turn"
        self._settle(live, stop, None)
        usage = result.get("usage") if isinstance(result.get("usage"), dict) else None
        return PromptResult(live.key, live.generation, message_id, stop, usage)

    def _settle(self, live: LivePrompt, stop_reason: str | None, error: str | None) -> None:
        self._live.pop(live.key, None)
        if self._live_by_acp.get(live.acp_id) is live:
            del self._live_by_acp[live.acp_id]
        self._permissions.cancel_where(
            lambda w: w.session_key == live.key and w.generation == live.generation,
            "prompt-settled",
        )
        if stop_reason == "cancelled" or live.cancel_requested or error is not None:
            self._mark_tools_cancelled(live)
        self._emit(
            PromptSettledEnvelope(
                live.key,
                live.generation,
                live.client_message_id,
                stop_reason,
                error,
                round(time.monotonic() - live.started, 3),
            )
        )

    def _mark_tools_cancelled(self, live: LivePrompt) -> None:
        if live.open_tool_calls:
            ids = tuple(sorted(live.open_tool_calls))
            live.open_tool_calls.clear()
            self._emit(ToolCallsCancelledEnvelope(live.key, live.generation, ids))

    async def cancel(self, session_key: str) -> bool:
        """Stop the live turn: pending permissions answer `cancelled`, then `session/cancel`.
        The prompt itself settles with `cancelled` (open tool calls are then marked cancelled)."""
        live = self._live.get(session_key)
        if live is None:
            return False
        live.cancel_requested = True
        self._permissions.cancel_where(lambda w: w.session_key == session_key, "cancelled")
        await self.connection.notify("session/cancel", {"sessionId": live.acp_id})
        return True

    async def wait_idle(self, timeout: float = 10.0) -> None:
        """Test helper: wait until no prompt is live."""
        deadline = time.monotonic() + timeout
        while self._live and time.monotonic() < deadline:
            await asyncio.sleep(0.01)


async def run_with_service(service: ChatService, coro: Any) -> Any:
    """Run `coro` and always shut the service down afterwards (CLI helper)."""
    try:
        return await coro
    finally:
        with contextlib.suppress(Exception):
            await service.shutdown()


__all__ = [
    "AgentUnavailable",
    "ChatService",
    "PromptAttachment",
    "run_with_service",
]
