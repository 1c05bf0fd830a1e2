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

Who may connect and wait (the peer's user, the descriptor reserve, the cap on unauthenticated
connections, the request-head timeout) is `loopback_admission`'s, applied as each connection is
accepted; the tools as the agent sees them are `terminal_mcp_tools`'.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import hmac
import json
import logging
import socket
import threading
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, TextContent

from app.main.participation.loopback_admission import (
    HEAD_TIMEOUT_SECONDS,
    AdmittingH11Protocol,
    AdmittingSocket,
    ConnectionAdmission,
)
from app.main.participation.loopback_guard import MAX_BODY_BYTES, MAX_HEADER_BYTES, MCP_PATH, LoopbackGuard
from app.main.participation.loopback_peer import PeerOwners
from app.main.participation.loopback_socket import HOST, McpServerError, bind_loopback
from app.main.participation.mcp_tools import INSTRUCTIONS, add_terminal_tools
from app.main.participation.tools_api import TerminalToolsApi, ToolRefused

log = logging.getLogger(__name__)

SERVER_NAME = "clawqt-terminals"
# A long poll waits at most 20 s on the owner side and open_terminal 10 s; past this the owner is stuck.
CALL_TIMEOUT_SECONDS = 30.0
# admits_bearer is a dictionary lookup on the owner loop; a request waits this long for it at most.
ADMIT_TIMEOUT_SECONDS = 5.0
STARTUP_TIMEOUT_SECONDS = 10.0
# stop() lets running calls answer this long, then cancels them.
GRACEFUL_STOP_SECONDS = 2


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
        head_timeout: float = HEAD_TIMEOUT_SECONDS,
    ) -> None:
        """`sock`: a socket already bound by `bind_loopback` (the owner reserved the address early);
        without it `start` binds `port`. `head_timeout`: how long a connection may take to send a
        request head (`loopback_admission`)."""
        if not install_secret:
            raise ValueError("an install secret is required")
        self._sock = sock
        self._tools = tools
        self._owner = owner_loop
        self._secret = install_secret.encode("utf-8")
        self._requested_port = port
        self._call_timeout = call_timeout
        self._head_timeout = head_timeout
        self._admission: ConnectionAdmission | None = None
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

    @property
    def admission(self) -> ConnectionAdmission | None:
        """The rules for connections while serving (what they refused, how many wait), else None."""
        return self._admission

    def start(self) -> str:
        """Bind 127.0.0.1 (the configured port, else a free one), serve, and return the URL.

        Raises `McpServerError` when the port is taken or the server does not come up."""
        if self._thread is not None:
            raise RuntimeError("the terminal MCP server is already running")
        sock, self._sock = self._sock or bind_loopback(self._requested_port), None
        port = sock.getsockname()[1]
        peers = PeerOwners()
        admission = ConnectionAdmission(peers, self._head_timeout)
        try:
            config = self._config(port, admission)
            sock = AdmittingSocket.wrapping(sock, admission)
        except BaseException:
            sock.close()
            peers.close()
            raise
        self._admission = admission
        self._port = port
        self._stopping = False
        self._failure = None
        started = threading.Event()
        self._uvicorn = _Uvicorn(config, started.set)
        self._thread = threading.Thread(
            target=self._serve,
            args=(self._uvicorn, sock, peers, started),
            name="clawqt-terminal-mcp",
            daemon=True,
        )
        self._thread.start()
        started.wait(STARTUP_TIMEOUT_SECONDS)
        if self._failure is not None or not self._uvicorn.started:
            failure = self._failure
            self.stop()
            raise McpServerError(f"the terminal MCP server did not start: {failure!r}")
        log.info("terminal MCP server listening on %s", self.url)
        return self.url or ""

    def _config(self, port: int, admission: ConnectionAdmission) -> uvicorn.Config:
        return uvicorn.Config(
            LoopbackGuard(self._build_app(port), port, self._admits),
            loop="asyncio",
            http=functools.partial(AdmittingH11Protocol, admission=admission),  # type: ignore[arg-type]
            ws="none",
            lifespan="on",
            interface="asgi3",
            log_config=None,
            log_level="warning",
            access_log=False,
            proxy_headers=False,
            server_header=False,
            date_header=False,
            limit_concurrency=None,  # it counts idle connections too; the guard caps authorized calls
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
        self._thread = self._uvicorn = self._admission = None
        self._port = None

    def _serve(
        self, server: _Uvicorn, sock: socket.socket, peers: PeerOwners, started: threading.Event
    ) -> None:
        try:
            # A selector loop on every platform: its accept loop calls the listening socket's accept(),
            # where the admission's rules run (Windows' default proactor loop accepts without it).
            with asyncio.Runner(loop_factory=asyncio.SelectorEventLoop) as runner:
                runner.run(server.serve(sockets=[sock]))
        except BaseException as error:  # uvicorn ends a failed startup with SystemExit
            self._failure = error
            log.error("terminal MCP server stopped: %r", error)
        finally:
            sock.close()
            peers.close()
            started.set()

    # --- the MCP app --------------------------------------------------------------------------------
    def _build_app(self, port: int) -> Any:
        with _no_logging_setup():
            mcp = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")
        add_terminal_tools(mcp, self._tools, self._answer)
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
