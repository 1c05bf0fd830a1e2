"""The ACP agent: capabilities, session lifecycle and request validation. What a turn *says* is scripted
in showcase/commands/slow/terminal_commands; how it is sent (pacing, cancel, history) is in turn.py.

ClawQt appends a hidden machine context to each of the user's prompts (app/contract/hidden_context.py:
the terminal capability and snapshots). The agent routes and titles by the user's own words only, acts
with the capability in that block, and keeps the whole prompt as the user's message in its history, as
an agent with a model would: the client must strip the block again when the history is replayed."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from acp import PROTOCOL_VERSION, RequestError
from acp.schema import (
    AcpMcpServer,
    AgentCapabilities,
    AuthenticateResponse,
    ClientCapabilities,
    ConfigOptionUpdate,
    CurrentModeUpdate,
    ForkSessionResponse,
    HttpMcpServer,
    Implementation,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    McpCapabilities,
    McpServerStdio,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    ResumeSessionResponse,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionInfo,
    SessionListCapabilities,
    SessionNotification,
    SessionResumeCapabilities,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
    SseMcpServer,
    TextContentBlock,
    UserMessageChunk,
)
from pydantic import ValidationError

from app import __version__
from app.contract.hidden_context import strip_hidden_context
from app.demo_agent.commands import commands_update
from app.demo_agent.options import MODEL_OPTION_ID, MODELS, MODES, config_options, mode_state
from app.demo_agent.proposal_command import proposal_template
from app.demo_agent.routing import route
from app.demo_agent.session import DemoSession
from app.demo_agent.store import SessionStore, is_safe_id
from app.demo_agent.terminal_tools_client import context_token, http_servers
from app.demo_agent.turn import StopReason, Turn, TurnCancelled

if TYPE_CHECKING:
    from acp.interfaces import Client

log = logging.getLogger(__name__)

PAGE_SIZE = 20


def _not_found(session_id: str) -> RequestError:
    return RequestError.resource_not_found(f"session:{session_id}")


def prompt_text(prompt: list[Any]) -> str:
    """The text the routing looks at: the prompt's text blocks, one per line."""
    return "\n".join(block.text for block in prompt if isinstance(block, TextContentBlock))


McpServers = list[HttpMcpServer | SseMcpServer | AcpMcpServer | McpServerStdio]


class DemoAgent:
    """A model-free ACP agent with deterministic turns.

    Deliberately not a subclass of `acp.Agent`: that Protocol's stub bodies would answer the methods we
    do not implement (authenticate, fork) with `null` instead of "method not found".

    Sessions must be created, loaded or resumed on this connection before other session methods accept
    them; unknown ids get `resource_not_found` (-32002).

    A prompt on a session whose turn is still running is rejected with `invalid_request` (-32600); the
    running turn carries on untouched. Clients should `session/cancel` and wait for the old prompt to
    return "cancelled" first.
    """

    def __init__(self, store: SessionStore, *, delay: float) -> None:
        self._store = store
        self._delay = delay
        self._conn: Client | None = None
        self._sessions: dict[str, DemoSession] = {}
        self._terminal_output = False
        self._background: set[asyncio.Task[None]] = set()

    def on_connect(self, conn: Client) -> None:
        self._conn = conn

    @property
    def conn(self) -> Client:
        if self._conn is None:
            raise RequestError.internal_error({"details": "not connected"})
        return self._conn

    # --- handshake -------------------------------------------------------------------------------
    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        client_info: Implementation | None = None,
        **kwargs: Any,
    ) -> InitializeResponse:
        """Remembers the Zed-style `clientCapabilities._meta.terminal_output` opt-in (read from the model:
        the SDK flattens request-level `_meta` into kwargs, but this one is nested)."""
        meta = (client_capabilities.field_meta if client_capabilities else None) or {}
        self._terminal_output = meta.get("terminal_output") is True
        log.info(
            "demo-agent: initialize from %s (protocol %s, terminal_output=%s)",
            client_info.name if client_info else "unknown client",
            protocol_version,
            self._terminal_output,
        )
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=True, audio=False, embedded_context=True),
                # HTTP MCP servers named in session/new|load|resume: ClawQt's terminal tools
                mcp_capabilities=McpCapabilities(http=True),
                session_capabilities=SessionCapabilities(
                    list=SessionListCapabilities(),
                    resume=SessionResumeCapabilities(),
                    close=SessionCloseCapabilities(),
                ),
            ),
            agent_info=Implementation(name="clawqt-demo", title="ClawQt demo agent", version=__version__),
            auth_methods=[],
        )

    # --- session lifecycle ---------------------------------------------------------------------------
    async def new_session(
        self,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: McpServers | None = None,
        **kwargs: Any,
    ) -> NewSessionResponse:
        """A new session; the HTTP MCP servers it names (with their headers) are kept in memory for the
        `/terminal` commands."""
        session = DemoSession(session_id=uuid.uuid4().hex, cwd=cwd)
        session.mcp_servers = http_servers(mcp_servers)
        self._sessions[session.session_id] = session
        self._save(session)
        self._after_response(self._send_commands(session.session_id))
        return NewSessionResponse(
            session_id=session.session_id,
            modes=mode_state(session.mode_id),
            config_options=config_options(session.model),
        )

    async def load_session(
        self,
        cwd: str,
        session_id: str,
        mcp_servers: McpServers | None = None,
        additional_directories: list[str] | None = None,
        **kwargs: Any,
    ) -> LoadSessionResponse:
        """Replays the stored history as session/update notifications before answering; the servers it
        names replace the ones the session had."""
        session = self._open(session_id, cwd, mcp_servers)
        for raw in list(session.history):
            try:
                update = SessionNotification.model_validate({"sessionId": session_id, "update": raw}).update
            except ValidationError as exc:
                log.warning("demo-agent: skipping unreadable history entry in %s: %s", session_id, exc)
                continue
            await self.conn.session_update(session_id=session_id, update=update)
        self._after_response(self._send_commands(session_id))
        return LoadSessionResponse(
            modes=mode_state(session.mode_id), config_options=config_options(session.model)
        )

    async def resume_session(
        self,
        session_id: str,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: McpServers | None = None,
        **kwargs: Any,
    ) -> ResumeSessionResponse:
        """Like load, without the replay."""
        session = self._open(session_id, cwd, mcp_servers)
        self._after_response(self._send_commands(session_id))
        return ResumeSessionResponse(
            modes=mode_state(session.mode_id), config_options=config_options(session.model)
        )

    async def close_session(self, session_id: str, **kwargs: Any) -> None:
        """Cancels a running turn and forgets the session in memory; its file stays."""
        session = self._require(session_id)
        if session.turn is not None:
            session.turn.cancel()
        del self._sessions[session_id]

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **kwargs: Any
    ) -> ListSessionsResponse:
        """Newest first, 20 a page; the cursor is an opaque offset."""
        infos = self._store.list_infos()
        if cwd:
            infos = [info for info in infos if info["cwd"] == cwd]
        infos.sort(key=lambda info: (info["updatedAt"], info["sessionId"]), reverse=True)
        offset = 0
        if cursor:
            if not cursor.isdigit():
                raise RequestError.invalid_params({"cursor": cursor, "details": "unknown cursor"})
            offset = int(cursor)
        page = infos[offset : offset + PAGE_SIZE]
        next_offset = offset + PAGE_SIZE
        return ListSessionsResponse(
            sessions=[
                SessionInfo(
                    session_id=info["sessionId"],
                    cwd=info["cwd"],
                    title=info["title"],
                    updated_at=info["updatedAt"],
                )
                for info in page
            ],
            next_cursor=str(next_offset) if next_offset < len(infos) else None,
        )

    # --- settings ------------------------------------------------------------------------------------
    async def set_session_mode(self, session_id: str, mode_id: str, **kwargs: Any) -> SetSessionModeResponse:
        session = self._require(session_id)
        if mode_id not in MODES:
            raise RequestError.invalid_params({"modeId": mode_id, "details": f"modes: {', '.join(MODES)}"})
        session.mode_id = mode_id
        self._save(session)
        await self.conn.session_update(
            session_id=session_id,
            update=CurrentModeUpdate(session_update="current_mode_update", current_mode_id=mode_id),
        )
        return SetSessionModeResponse()

    async def set_config_option(
        self, config_id: str, session_id: str, value: str | bool, **kwargs: Any
    ) -> SetSessionConfigOptionResponse:
        session = self._require(session_id)
        if config_id != MODEL_OPTION_ID:
            raise RequestError.invalid_params({"configId": config_id, "details": "unknown config option"})
        if not isinstance(value, str) or value not in MODELS:
            raise RequestError.invalid_params({"value": value, "details": f"values: {', '.join(MODELS)}"})
        session.model = value
        self._save(session)
        options = config_options(value)
        await self.conn.session_update(
            session_id=session_id,
            update=ConfigOptionUpdate(session_update="config_option_update", config_options=options),
        )
        return SetSessionConfigOptionResponse(config_options=options)

    # --- turns ---------------------------------------------------------------------------------------
    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        session = self._require(session_id)
        if session.turn is not None:
            raise RequestError.invalid_request(
                {"sessionId": session_id, "details": "a turn is already running; cancel it first"}
            )
        text = prompt_text(prompt)
        words = strip_hidden_context(text)  # routing and the title see only what the user wrote
        number = session.begin_turn(words)
        turn = Turn(
            self.conn,
            session,
            number=number,
            text=words,
            delay=self._delay,
            terminal_output=self._terminal_output,
            context_token=context_token(text),
            proposal=proposal_template(text),
        )
        session.turn = turn
        try:
            # The user's words go to the history for replay only: clients show their own prompt live.
            # The text blocks as one message (hidden context included, as a model's transcript keeps
            # it), then the attachments.
            user_id = turn.message_id("user")
            blocks = [block for block in prompt if not isinstance(block, TextContentBlock)]
            if any(isinstance(block, TextContentBlock) for block in prompt):
                blocks.insert(0, TextContentBlock(type="text", text=text))
            for block in blocks:
                session.record(
                    UserMessageChunk(session_update="user_message_chunk", content=block, message_id=user_id)
                )
            self._save(session)
            stop_reason = await self._run(turn, words)
        finally:
            session.turn = None
            self._save(session)
        log.info("demo-agent: turn %d of %s ended: %s", number, session_id, stop_reason)
        return PromptResponse(stop_reason=stop_reason)

    async def _run(self, turn: Turn, text: str) -> StopReason:
        try:
            return await route(text)(turn)
        except TurnCancelled:
            await turn.fail_open_tools()
            return "cancelled"

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        session = self._sessions.get(session_id)
        if session is not None and session.turn is not None:
            session.turn.cancel()

    # --- helpers -------------------------------------------------------------------------------------
    # --- what the demo does not offer: refused as the SDK refuses a method an agent lacks ---------
    async def authenticate(self, method_id: str, **kwargs: Any) -> AuthenticateResponse | None:
        raise RequestError.method_not_found("authenticate")  # it advertises no auth methods

    async def fork_session(
        self,
        session_id: str,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: McpServers | None = None,
        **kwargs: Any,
    ) -> ForkSessionResponse:
        raise RequestError.method_not_found("session/fork")

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise RequestError.method_not_found(f"_{method}")

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None  # an unknown notification is ignored

    def _require(self, session_id: str) -> DemoSession:
        session = self._sessions.get(session_id)
        if session is None:
            raise _not_found(session_id)
        return session

    def _open(self, session_id: str, cwd: str, mcp_servers: Any = None) -> DemoSession:
        """The session for load/resume: the open one, or the stored one (now open), bound to `cwd`
        and to the MCP servers named this time."""
        session = self._sessions.get(session_id)
        if session is None:
            session = self._store.load(session_id) if is_safe_id(session_id) else None
            if session is None:
                raise _not_found(session_id)
            self._sessions[session_id] = session
        session.mcp_servers = http_servers(mcp_servers)
        if session.cwd != cwd:
            session.cwd = cwd
            self._save(session)
        return session

    def _save(self, session: DemoSession) -> None:
        try:
            self._store.save(session)
        except OSError as exc:
            log.warning("demo-agent: cannot save session %s: %s", session.session_id, exc)

    async def _send_commands(self, session_id: str) -> None:
        await self.conn.session_update(session_id=session_id, update=commands_update())

    def _after_response(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run `coro` after the current request's response is queued: the SDK enqueues the response
        before this task can first run, so the client learns the session id before its updates."""

        async def guarded() -> None:
            try:
                await asyncio.sleep(0)  # one more turn of the loop, in case a future SDK yields once more
                await coro
            except Exception:
                log.exception("demo-agent: background send failed")

        task = asyncio.get_running_loop().create_task(guarded())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
