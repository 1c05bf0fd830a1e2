"""The loopback MCP server that offers an agent the four terminal tools (`list_terminals`,
`open_terminal`, `read_terminal`, `send_terminal_input`).

Ownership: this module owns only the transport. It runs the `mcp` SDK's streamable-HTTP app under
uvicorn on 127.0.0.1 in its own thread with its own event loop, so a slow or hostile HTTP client never
touches the Qt thread. Every decision (capability, sharing, pins) belongs to `TerminalToolsApi` on the
owner loop: each tool call is handed over with `run_coroutine_threadsafe` and awaited without blocking
this server's loop; an owner that does not answer within `CALL_TIMEOUT_SECONDS` (or is gone) gives the
agent a tool error, never a hang.

Authority: `LoopbackGuard` admits a request only with a bearer the install secret or the owner admits;
a per-session bearer (delivered in `session/new`) stands for its chat when the call names no
contextToken; the install secret (configured once on the agent side) never does: those calls must name
the contextToken from the prompt's hidden context.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hmac
import json
import logging
import socket
import threading
from collections.abc import Callable, Coroutine, Iterator
from typing import Annotated, Any, Literal

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from app.main.loopback_guard import MAX_BODY_BYTES, MAX_HEADER_BYTES, MCP_PATH, LoopbackGuard
from app.main.loopback_socket import HOST, McpServerError, bind_loopback
from app.main.terminal_tools import TerminalToolsApi, ToolRefused

log = logging.getLogger(__name__)

SERVER_NAME = "clawqt-terminals"
# A long poll waits at most 20 s on the owner side and open_terminal 10 s; past this the owner is stuck.
CALL_TIMEOUT_SECONDS = 30.0
# admits_bearer is a dictionary lookup on the owner loop; a request waits this long for it at most.
ADMIT_TIMEOUT_SECONDS = 5.0
# Concurrent connections + requests; each long poll holds one. Past this uvicorn answers 503.
MAX_CONCURRENCY = 64
STARTUP_TIMEOUT_SECONDS = 10.0
# stop() lets running calls answer this long, then cancels them.
GRACEFUL_STOP_SECONDS = 2

INSTRUCTIONS = (
    "Tools for the terminals the user opened in ClawQt and chose to share with you. A question about a "
    "terminal is read-only intent: read it, do not type. Type into or open a terminal only when the user "
    "asked for that. Each call takes the contextToken from the latest message's terminal context."
)


ContextToken = Annotated[
    str | None,
    Field(
        description="The terminal capability (cqt_...) from the latest message's terminal context. "
        "May be left out only when your connection to this server carries its own Authorization."
    ),
]
TerminalId = Annotated[str, Field(description="The terminal's id, as list_terminals gives it.")]


class TerminalMcpServer:
    """Serves the terminal tools at `url` from a thread of its own until `stop()`."""

    def __init__(
        self,
        tools: TerminalToolsApi,
        owner_loop: asyncio.AbstractEventLoop,
        install_secret: str,
        port: int = 0,
        call_timeout: float = CALL_TIMEOUT_SECONDS,
        sock: socket.socket | None = None,
    ) -> None:
        """`sock`: a socket already bound by `bind_loopback` (the owner reserved the address early);
        without it `start` binds `port`."""
        if not install_secret:
            raise ValueError("an install secret is required")
        self._sock = sock
        self._tools = tools
        self._owner = owner_loop
        self._secret = install_secret.encode("utf-8")
        self._requested_port = port
        self._call_timeout = call_timeout
        self._port: int | None = None
        self._thread: threading.Thread | None = None
        self._uvicorn: _Uvicorn | None = None
        self._failure: BaseException | None = None
        self._stopping = False
        self._pending: set[concurrent.futures.Future[Any]] = set()
        self._pending_lock = threading.Lock()

    # --- lifecycle ----------------------------------------------------------------------------------
    @property
    def port(self) -> int | None:
        return self._port

    @property
    def url(self) -> str | None:
        return None if self._port is None else f"http://{HOST}:{self._port}{MCP_PATH}"

    @property
    def thread(self) -> threading.Thread | None:
        return self._thread

    def start(self) -> str:
        """Bind 127.0.0.1 (the configured port, else a free one), serve, and return the URL.

        Raises `McpServerError` when the port is taken or the server does not come up."""
        if self._thread is not None:
            raise RuntimeError("the terminal MCP server is already running")
        sock, self._sock = self._sock or bind_loopback(self._requested_port), None
        port = sock.getsockname()[1]
        try:
            config = self._config(port)
        except BaseException:
            sock.close()
            raise
        self._port = port
        self._stopping = False
        self._failure = None
        started = threading.Event()
        self._uvicorn = _Uvicorn(config, started.set)
        self._thread = threading.Thread(
            target=self._serve, args=(self._uvicorn, sock, started), name="clawqt-terminal-mcp", daemon=True
        )
        self._thread.start()
        started.wait(STARTUP_TIMEOUT_SECONDS)
        if self._failure is not None or not self._uvicorn.started:
            failure = self._failure
            self.stop()
            raise McpServerError(f"the terminal MCP server did not start: {failure!r}")
        log.info("terminal MCP server listening on %s", self.url)
        return self.url or ""

    def _config(self, port: int) -> uvicorn.Config:
        return uvicorn.Config(
            LoopbackGuard(self._build_app(port), port, self._admits),
            loop="asyncio",
            http="h11",
            ws="none",
            lifespan="on",
            interface="asgi3",
            log_config=None,
            log_level="warning",
            access_log=False,
            proxy_headers=False,
            server_header=False,
            date_header=False,
            limit_concurrency=MAX_CONCURRENCY,
            timeout_graceful_shutdown=GRACEFUL_STOP_SECONDS,
            h11_max_incomplete_event_size=MAX_HEADER_BYTES,  # a head still incomplete past this: 400
        )

    def stop(self, timeout: float = GRACEFUL_STOP_SECONDS + 3.0) -> None:
        """Stop serving: running calls end with a tool error, the thread ends, the port is free."""
        thread, server = self._thread, self._uvicorn
        if thread is None:
            return
        with self._pending_lock:
            self._stopping = True
            pending = list(self._pending)
        for future in pending:
            future.cancel()
        if server is not None:
            server.should_exit = True  # uvicorn's main loop looks at this flag every 0.1 s
        thread.join(timeout)
        if thread.is_alive():
            log.error("terminal MCP server thread did not stop within %.1f s", timeout)
            return
        self._thread = self._uvicorn = None
        self._port = None

    def _serve(self, server: _Uvicorn, sock: socket.socket, started: threading.Event) -> None:
        try:
            asyncio.run(server.serve(sockets=[sock]))
        except BaseException as error:  # uvicorn ends a failed startup with SystemExit
            self._failure = error
            log.error("terminal MCP server stopped: %r", error)
        finally:
            sock.close()
            started.set()

    # --- the MCP app --------------------------------------------------------------------------------
    def _build_app(self, port: int) -> Any:
        with _no_logging_setup():
            mcp = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")
        self._add_tools(mcp)
        hosts = [f"{HOST}:{port}", f"localhost:{port}"]
        return mcp.streamable_http_app(
            streamable_http_path=MCP_PATH,
            json_response=True,
            stateless_http=True,
            max_request_body_size=MAX_BODY_BYTES,
            host=HOST,
            transport_security=TransportSecuritySettings(
                enable_dns_rebinding_protection=True,
                allowed_hosts=hosts,
                allowed_origins=[f"http://{host}" for host in hosts],
            ),
        )

    def _add_tools(self, mcp: MCPServer[Any]) -> None:
        tools = self._tools

        async def list_terminals(ctx: Context, contextToken: ContextToken = None) -> CallToolResult:
            return await self._answer(ctx, contextToken, lambda token: tools.list_terminals(token))

        async def open_terminal(
            ctx: Context,
            requestId: Annotated[
                str,
                Field(
                    description="1-128 characters you choose; repeat it to ask for the same terminal again."
                ),
            ],
            contextToken: ContextToken = None,
            title: Annotated[str | None, Field(description="A short tab title.")] = None,
            command: Annotated[
                str | None, Field(description="A command to run once the terminal is ready (none: a shell).")
            ] = None,
            cwd: Annotated[str | None, Field(description="A folder inside the workspace.")] = None,
            agentMode: Annotated[
                Literal["shared", "status-only"],
                Field(description='"shared": you may read and type; "status-only": process status only.'),
            ] = "shared",
        ) -> CallToolResult:
            return await self._answer(
                ctx,
                contextToken,
                lambda token: tools.open_terminal(token, requestId, title, command, cwd, agentMode),
            )

        async def read_terminal(
            ctx: Context,
            contextToken: ContextToken = None,
            terminalId: Annotated[
                str | None, Field(description="Which terminal (default: the one the user used last).")
            ] = None,
            afterSequence: Annotated[
                int | None, Field(description="The nextSequence of your previous read: only newer output.")
            ] = None,
            maxBytes: Annotated[int | None, Field(description="256 to 65536 (default 32768).")] = None,
            waitMs: Annotated[
                int | None,
                Field(description="With afterSequence: wait up to this long (at most 20000) for new output."),
            ] = None,
        ) -> CallToolResult:
            return await self._answer(
                ctx,
                contextToken,
                lambda token: tools.read_terminal(token, terminalId, afterSequence, maxBytes, waitMs),
            )

        async def send_terminal_input(
            ctx: Context,
            terminalId: TerminalId,
            contextToken: ContextToken = None,
            text: Annotated[
                str | None, Field(description='Typed as is; end with "\\n" to press Enter.')
            ] = None,
            interrupt: Annotated[bool, Field(description="Send Ctrl-C instead of text.")] = False,
        ) -> CallToolResult:
            return await self._answer(
                ctx,
                contextToken,
                lambda token: tools.send_terminal_input(token, terminalId, text, interrupt),
            )

        async def propose_terminal_actions(
            ctx: Context,
            payload: Annotated[
                dict[str, Any],
                Field(
                    description='The proposal: {"schema_version":1,"origin":"terminal_agent",'
                    '"recommended_choice"?:n,"choices":[{"choice":n,"title","rationale","actions":[...]}]} '
                    'with 1-3 choices of 1-3 actions {"type":"send","input"}, {"type":"open","target":"tab",'
                    '"cwd"?,"title"?} or {"type":"open_and_send",...,"input"}; never name a terminal.'
                ),
            ],
            contextToken: ContextToken = None,
        ) -> CallToolResult:
            return await self._answer(
                ctx, contextToken, lambda token: tools.propose_terminal_actions(token, payload)
            )

        mcp.add_tool(
            propose_terminal_actions,
            description=(
                "Propose terminal actions the user may run: ClawQt shows them as a card and only the user's "
                "confirmation runs anything (a send goes to the terminal the user used last). Answers the "
                "validation and, when the user decides within about 25 s, the decision (else decision null: "
                "the card stays until the user answers)."
            ),
            annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False),
            structured_output=False,
        )
        mcp.add_tool(
            list_terminals,
            description=(
                "List the user's terminals you may see (read-only): id, title, folder, process status and "
                'sharing mode ("shared": read and type; "status-only": status only). recentTerminalIds '
                "orders them by the user's own latest use: the first is usually the one the user means."
            ),
            annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
            structured_output=False,
        )
        mcp.add_tool(
            read_terminal,
            description=(
                "Read a terminal's output as plain text (read-only: use it to answer questions about what "
                "the user sees). Pass the previous answer's nextSequence as afterSequence for new output "
                "only, with waitMs to wait for it. excludedOutput: true means the user paused sharing for "
                "part of the output; it is withheld on purpose."
            ),
            annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
            structured_output=False,
        )
        mcp.add_tool(
            send_terminal_input,
            description=(
                "Type into a terminal the user shares with you. Only when the user asked you to run or type "
                "something: a question about a terminal is read-only intent (use read_terminal). terminalId "
                'is required: never guess a target. text is typed as is (end it with "\\n" to press '
                "Enter); interrupt: true sends Ctrl-C. Then read_terminal to see the result."
            ),
            annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False),
            structured_output=False,
        )
        mcp.add_tool(
            open_terminal,
            description=(
                "Ask the user's window to open a new terminal (optionally running command in cwd inside "
                "the workspace). Only when the user asked for it. Nothing runs until the window has opened "
                "it; a request not taken within 30 s never runs. Repeat the call with the same requestId "
                'to learn its state; the terminal is open only once state is "started".'
            ),
            annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False),
            structured_output=False,
        )

    async def _context_token(self, ctx: Context, argument: str | None) -> str:
        """The capability a call acts with: its argument, else the one its per-session bearer stands for."""
        if argument:
            return argument
        bearer = _bearer_of(ctx)
        if bearer is None or hmac.compare_digest(bearer.encode("utf-8", "replace"), self._secret):
            raise ToolRefused(
                401,
                "context-token-required",
                "contextToken is required: use the one from the latest message's terminal context.",
            )

        async def lookup() -> str | None:
            return self._tools.context_token_for_bearer(bearer)

        token = await self._on_owner(lookup, self._call_timeout)
        if not token:
            raise ToolRefused(
                401,
                "no-live-capability",
                "This chat has no live terminal capability: the user has to send a message in it first.",
            )
        return token

    async def _answer(
        self, ctx: Context, argument: str | None, call: Callable[[str], Coroutine[Any, Any, dict[str, Any]]]
    ) -> CallToolResult:
        """One tool call: resolve its capability, run it on the owner loop, answer JSON (or a refusal)."""
        try:
            token = await self._context_token(ctx, argument)
            answer = await self._on_owner(lambda: call(token), self._call_timeout)
        except ToolRefused as refusal:
            return _result(refusal.as_dict(), is_error=True)
        return _result(answer, is_error=False)

    # --- crossing to the owner loop -----------------------------------------------------------------
    async def _admits(self, bearer: bytes) -> bool:
        if hmac.compare_digest(bearer, self._secret):
            return True
        token = bearer.decode("latin-1")

        async def ask() -> bool:
            return bool(self._tools.admits_bearer(token))

        try:
            return bool(await self._on_owner(ask, ADMIT_TIMEOUT_SECONDS))
        except ToolRefused:
            return False

    async def _on_owner(self, make: Callable[[], Coroutine[Any, Any, Any]], timeout: float) -> Any:
        """Run `make()` on the owner loop and wait for it here; ToolRefused passes through, anything
        else (the owner is gone, stuck or failed) becomes a ToolRefused the agent can read."""
        coro = _settled(make)
        with self._pending_lock:  # stop() cancels every handoff it can see: none may slip past it
            if self._stopping:
                coro.close()
                raise _unavailable()
            try:
                future = asyncio.run_coroutine_threadsafe(coro, self._owner)
            except RuntimeError:  # the owner loop is closed
                coro.close()
                raise _unavailable() from None
            self._pending.add(future)
        try:
            outcome = await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            raise ToolRefused(
                504, "owner-timeout", "ClawQt did not answer in time; try again in a moment."
            ) from None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self._stopping and task is not None and not task.cancelling():
                raise _unavailable() from None  # stop() cancelled the handoff, not this request
            raise
        finally:
            with self._pending_lock:
                self._pending.discard(future)
        kind, value = outcome
        if kind == "refused":
            raise value
        if kind == "failed":
            raise ToolRefused(500, "internal-error", "ClawQt could not complete this call.")
        return value


async def _settled(make: Callable[[], Coroutine[Any, Any, Any]]) -> tuple[str, Any]:
    """Runs on the owner loop: the call's outcome as a value, so no exception is left unretrieved when
    the server side stopped waiting."""
    try:
        return "ok", await make()
    except ToolRefused as refusal:
        return "refused", refusal
    except Exception:
        log.exception("terminal tool call failed")
        return "failed", None


def _unavailable() -> ToolRefused:
    return ToolRefused(503, "unavailable", "ClawQt's terminal tools are not available right now.")


def _result(payload: dict[str, Any], is_error: bool) -> CallToolResult:
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=payload, is_error=is_error
    )


def _bearer_of(ctx: Context) -> str | None:
    headers = ctx.headers or {}
    value = headers.get("authorization") or headers.get("Authorization")
    if not value:
        return None
    scheme, _, token = value.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


class _Uvicorn(uvicorn.Server):
    """uvicorn's server, telling the starting thread once it accepts connections."""

    def __init__(self, config: uvicorn.Config, on_started: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_started = on_started

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self._on_started()


@contextlib.contextmanager
def _no_logging_setup() -> Iterator[None]:
    """MCPServer() calls logging.basicConfig(); with a handler in place that is a no-op, so the app's
    own logging setup (or its absence) stays as it was."""
    root = logging.getLogger()
    guard = logging.NullHandler()
    root.addHandler(guard)
    try:
        yield
    finally:
        root.removeHandler(guard)
