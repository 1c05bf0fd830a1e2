"""The loopback MCP server that offers agents the terminal tools: a real uvicorn server on a real
loopback port, the `mcp` SDK's own streamable-HTTP client for tool calls, raw sockets for the transport
rules (Host, Origin, bearer, body and header bounds), and the test's own event loop as the owner loop
the calls are handed to."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from app.contract.user_terminals import UserTerminalChangedEnvelope
from app.main.participation.bearers import SessionBearers
from app.main.participation.capabilities import CapabilityStore
from app.main.participation.loopback_guard import MAX_BODY_BYTES
from app.main.participation.mcp_server import McpServerError, TerminalMcpServer
from app.main.participation.tools import TerminalTools
from app.main.participation.tools_api import ToolRefused
from app.main.terminals.user import UserTerminals

SECRET = "install-secret-for-tests"
CAPABILITY = "cqt_live-capability"


class FakeTools:
    """A TerminalToolsApi stand-in that records where and with what each call ran."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.threads: list[int] = []
        self.loops: list[asyncio.AbstractEventLoop] = []
        self.admit_asks: list[str] = []
        self.block = asyncio.Event()
        self.blocked = asyncio.Event()
        self.cancelled = asyncio.Event()
        self.read_behaviour = "answer"
        self.bearer_token: str | None = "cqt_token-of-the-session"

    def _record(self, name: str, *args: Any) -> None:
        self.calls.append((name, args))
        self.threads.append(threading.get_ident())
        self.loops.append(asyncio.get_running_loop())

    def admits_bearer(self, token: str) -> bool:
        self.admit_asks.append(token)
        self.threads.append(threading.get_ident())
        return token == CAPABILITY

    def context_token_for_bearer(self, token: str) -> str | None:
        return self.bearer_token if token == CAPABILITY else None

    async def list_terminals(self, context_token: str) -> dict[str, Any]:
        self._record("list_terminals", context_token)
        return {"sessions": [], "recentTerminalIds": []}

    async def open_terminal(self, *args: Any) -> dict[str, Any]:
        self._record("open_terminal", *args)
        return {"requestId": args[1], "state": "pending", "terminalId": "t9"}

    async def read_terminal(self, *args: Any) -> dict[str, Any]:
        self._record("read_terminal", *args)
        if self.read_behaviour == "refuse":
            raise ToolRefused(403, "paused", "The user paused sharing of this terminal.")
        if self.read_behaviour == "crash":
            raise ValueError("a bug with a secret path /home/user/x in it")
        if self.read_behaviour == "block":
            self.blocked.set()
            try:
                await self.block.wait()
            except asyncio.CancelledError:
                self.cancelled.set()
                raise
        return {"output": "hello", "nextSequence": 3}

    async def send_terminal_input(self, *args: Any) -> dict[str, Any]:
        self._record("send_terminal_input", *args)
        return {"sent": True}

    async def propose_terminal_actions(self, *args: Any) -> dict[str, Any]:
        self._record("propose_terminal_actions", *args)
        return {"validation": {"phase": "validation", "status": "accepted"}}


@pytest.fixture
async def served() -> AsyncIterator[tuple[TerminalMcpServer, FakeTools]]:
    tools = FakeTools()
    server = TerminalMcpServer(tools, asyncio.get_running_loop(), SECRET, call_timeout=5.0)
    server.start()
    try:
        yield server, tools
    finally:
        server.stop()


@contextlib.asynccontextmanager
async def mcp_session(url: str, bearer: str = SECRET) -> AsyncIterator[ClientSession]:
    """The SDK's own client over streamable HTTP, authenticated with `bearer`."""
    headers = {"Authorization": f"Bearer {bearer}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0)) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def answer_of(result: Any) -> dict[str, Any]:
    return json.loads(result.content[0].text)


def call_body(name: str, arguments: dict[str, Any]) -> bytes:
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    return json.dumps(message).encode()


def request_head(
    port: int,
    body_length: int | None,
    host: str | None = None,
    bearer: str | None = SECRET,
    method: str = "POST",
    path: str = "/mcp",
    extra: tuple[str, ...] = (),
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Connection: close"]
    lines += ["Content-Type: application/json", "Accept: application/json, text/event-stream"]
    if bearer is not None:
        lines.append(f"Authorization: Bearer {bearer}")
    if body_length is not None:
        lines.append(f"Content-Length: {body_length}")
    lines += extra
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def raw_exchange(port: int, *pieces: bytes, pause: float = 0.0, timeout: float = 5.0) -> bytes:
    """Write `pieces` on one connection (a server may hang up early) and read what comes back until it
    closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = bytearray()
    try:
        with contextlib.suppress(ConnectionError):
            for piece in pieces:
                writer.write(piece)
                await writer.drain()
                if pause:
                    await asyncio.sleep(pause)  # the pause the test asked for
        async with asyncio.timeout(timeout):
            with contextlib.suppress(ConnectionError):
                while chunk := await reader.read(65536):
                    received += chunk
        return bytes(received)
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def trickle(port: int, head: bytes) -> bytes | str:
    """Send `head` 1 KiB at a time; "cut" when the server hangs up before it is all sent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for start in range(0, len(head), 1024):
            writer.write(head[start : start + 1024])
            await writer.drain()
            await asyncio.sleep(0.005)  # a slow client's pace
        async with asyncio.timeout(5):
            return await reader.read()
    except ConnectionError:
        return "cut"
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


def status_of(response: bytes | str) -> int:
    assert isinstance(response, bytes) and response.startswith(b"HTTP/1.1 "), response
    return int(response.split(b" ", 2)[1])


async def post(port: int, body: bytes, **head: Any) -> bytes:
    return await raw_exchange(port, request_head(port, len(body), **head) + body)


LIST_CALL = call_body("list_terminals", {"contextToken": CAPABILITY})


# --- the handoff to the owner loop ---------------------------------------------------------------------
async def test_tool_calls_run_on_the_owner_loop_and_the_server_answers_others_while_one_waits(served):
    server, tools = served
    owner_thread = threading.get_ident()
    assert server.thread is not None and server.thread.ident != owner_thread
    tools.read_behaviour = "block"
    async with mcp_session(server.url) as waiting, mcp_session(server.url) as other:
        read = asyncio.ensure_future(waiting.call_tool("read_terminal", {"contextToken": "cqt_a"}))
        await asyncio.wait_for(tools.blocked.wait(), 10)
        # the first call is still waiting on the owner: a server loop blocked on it could not answer this
        listed = await asyncio.wait_for(other.call_tool("list_terminals", {"contextToken": "cqt_b"}), 10)
        assert not listed.is_error and answer_of(listed) == {"sessions": [], "recentTerminalIds": []}
        assert not read.done()
        tools.block.set()
        result = await asyncio.wait_for(read, 10)
    assert answer_of(result) == {"output": "hello", "nextSequence": 3}
    assert result.structured_content == {"output": "hello", "nextSequence": 3}
    assert set(tools.threads) == {owner_thread}
    assert all(loop is asyncio.get_running_loop() for loop in tools.loops)


async def test_every_tool_maps_its_camel_case_arguments_to_the_tools_api(served):
    server, tools = served
    async with mcp_session(server.url) as session:
        listed = await session.list_tools()
        assert {tool.name for tool in listed.tools} == {
            "list_terminals",
            "open_terminal",
            "read_terminal",
            "send_terminal_input",
            "propose_terminal_actions",
        }
        by_name = {tool.name: tool for tool in listed.tools}
        assert by_name["read_terminal"].annotations.read_only_hint is True
        assert "only when the user asked" in by_name["send_terminal_input"].description.lower()
        assert by_name["send_terminal_input"].input_schema["required"] == ["terminalId"]
        await session.call_tool("list_terminals", {"contextToken": "cqt_1"})
        opened = await session.call_tool(
            "open_terminal",
            {
                "contextToken": "cqt_1",
                "requestId": "r1",
                "title": "T",
                "command": "ls",
                "cwd": "sub",
                "agentMode": "status-only",
            },
        )
        await session.call_tool(
            "read_terminal",
            {"contextToken": "cqt_1", "terminalId": "t1", "afterSequence": 4, "maxBytes": 512, "waitMs": 0},
        )
        await session.call_tool(
            "send_terminal_input", {"contextToken": "cqt_1", "terminalId": "t1", "interrupt": True}
        )
        refused = await session.call_tool(
            "open_terminal", {"contextToken": "cqt_1", "requestId": "r", "agentMode": "owner"}
        )
    assert answer_of(opened) == {"requestId": "r1", "state": "pending", "terminalId": "t9"}
    assert refused.is_error
    assert tools.calls == [
        ("list_terminals", ("cqt_1",)),
        ("open_terminal", ("cqt_1", "r1", "T", "ls", "sub", "status-only")),
        ("read_terminal", ("cqt_1", "t1", 4, 512, 0)),
        ("send_terminal_input", ("cqt_1", "t1", None, True)),
    ]


async def test_a_refusal_is_a_tool_error_whose_text_is_the_refusal_json(served):
    server, tools = served
    tools.read_behaviour = "refuse"
    async with mcp_session(server.url) as session:
        result = await session.call_tool("read_terminal", {"contextToken": "cqt_1", "terminalId": "t1"})
        tools.read_behaviour = "crash"
        crashed = await session.call_tool("read_terminal", {"contextToken": "cqt_1", "terminalId": "t1"})
    expected = {
        "error": {"status": 403, "code": "paused", "message": "The user paused sharing of this terminal."}
    }
    assert result.is_error and answer_of(result) == expected
    assert result.structured_content == expected
    assert crashed.is_error and answer_of(crashed)["error"]["code"] == "internal-error"
    assert "/home/user" not in crashed.content[0].text


async def test_a_per_session_bearer_stands_for_its_chat_but_the_install_secret_needs_a_context_token(served):
    server, tools = served
    async with mcp_session(server.url, bearer=CAPABILITY) as session:
        by_bearer = await session.call_tool("list_terminals", {})
        named = await session.call_tool("list_terminals", {"contextToken": "cqt_named"})
        tools.bearer_token = None  # the user has not sent a message in that chat lately
        lapsed = await session.call_tool("list_terminals", {})
    async with mcp_session(server.url, bearer=SECRET) as session:
        missing = await session.call_tool("list_terminals", {})
    assert not by_bearer.is_error and not named.is_error
    assert lapsed.is_error and answer_of(lapsed)["error"]["code"] == "no-live-capability"
    assert missing.is_error and answer_of(missing)["error"] == {
        "status": 401,
        "code": "context-token-required",
        "message": "contextToken is required: use the one from the latest message's terminal context.",
    }
    assert tools.calls == [
        ("list_terminals", ("cqt_token-of-the-session",)),
        ("list_terminals", ("cqt_named",)),
    ]


async def test_an_owner_that_does_not_answer_in_time_gives_a_tool_error_and_its_call_is_cancelled():
    tools = FakeTools()
    tools.read_behaviour = "block"
    server = TerminalMcpServer(tools, asyncio.get_running_loop(), SECRET, call_timeout=0.5)
    server.start()
    try:
        async with mcp_session(server.url) as session:
            result = await asyncio.wait_for(session.call_tool("read_terminal", {"contextToken": "cqt_1"}), 10)
        await asyncio.wait_for(tools.cancelled.wait(), 5)
    finally:
        server.stop()
    assert result.is_error and answer_of(result)["error"]["code"] == "owner-timeout"


async def test_a_closed_owner_loop_gives_a_tool_error_not_a_hang():
    gone = asyncio.new_event_loop()
    gone.close()
    tools = FakeTools()
    server = TerminalMcpServer(tools, gone, SECRET, call_timeout=30.0)
    server.start()
    try:
        async with mcp_session(server.url) as session:
            result = await asyncio.wait_for(session.call_tool("list_terminals", {"contextToken": "c"}), 5)
        # a capability bearer needs the owner to admit it: with the owner gone it is not admitted
        refused = await post(server.port, LIST_CALL, bearer=CAPABILITY)
    finally:
        server.stop()
    assert result.is_error and answer_of(result)["error"]["code"] == "unavailable"
    assert status_of(refused) == 401
    assert tools.calls == []


# --- who may connect ----------------------------------------------------------------------------------
async def test_a_foreign_host_header_is_refused_before_any_tool_runs(served):
    server, tools = served
    port = server.port
    rebinding = await post(port, LIST_CALL, host=f"attacker.example:{port}")
    other_port = await post(port, LIST_CALL, host=f"127.0.0.1:{port + 1}")
    no_port = await post(port, LIST_CALL, host="localhost")
    assert [status_of(r) for r in (rebinding, other_port, no_port)] == [421, 421, 421]
    assert tools.calls == []
    by_name = await post(port, LIST_CALL, host=f"localhost:{port}")
    assert status_of(by_name) == 200 and len(tools.calls) == 1


async def test_a_foreign_origin_is_refused(served):
    server, tools = served
    port = server.port
    refused = [
        await post(port, LIST_CALL, extra=(f"Origin: {origin}",))
        for origin in ("http://attacker.example", "null", f"http://localhost:{port + 1}", "https://127.0.0.1")
    ]
    assert [status_of(r) for r in refused] == [403, 403, 403, 403]
    assert tools.calls == []
    own = await post(port, LIST_CALL, extra=(f"Origin: http://127.0.0.1:{port}",))
    assert status_of(own) == 200 and len(tools.calls) == 1


async def test_a_missing_or_wrong_bearer_gets_401_with_nothing_else(served):
    server, tools = served
    port = server.port
    missing = await post(port, LIST_CALL, bearer=None)
    wrong = await post(port, LIST_CALL, bearer="cqt_not-a-live-one")
    basic = await raw_exchange(
        port,
        request_head(port, len(LIST_CALL), bearer=None, extra=("Authorization: Basic dXNlcjpwYXNz",))
        + LIST_CALL,
    )
    huge = await post(port, LIST_CALL, bearer="x" * 600)
    for response in (missing, wrong, basic, huge):
        assert status_of(response) == 401
        assert response.endswith(b"\r\n\r\nUnauthorized")
        assert b"oauth" not in response.lower() and b"resource_metadata" not in response.lower()
    assert tools.admit_asks == ["cqt_not-a-live-one"]  # the oversized one never reached the owner
    assert tools.calls == []
    # no OAuth discovery documents naming an issuer that does not exist
    for path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"):
        found = await raw_exchange(port, request_head(port, None, method="GET", path=path))
        assert status_of(found) == 404
    by_capability = await post(port, LIST_CALL, bearer=CAPABILITY)
    by_secret = await post(port, LIST_CALL, bearer=SECRET)
    assert status_of(by_capability) == 200 and status_of(by_secret) == 200
    assert len(tools.calls) == 2


async def test_only_post_to_the_mcp_path(served):
    server, _tools = served
    port = server.port
    get = await raw_exchange(port, request_head(port, None, method="GET"))
    delete = await raw_exchange(port, request_head(port, None, method="DELETE"))
    elsewhere = await post(port, LIST_CALL, path="/other")
    slash = await post(port, LIST_CALL, path="/mcp/")
    assert [status_of(r) for r in (get, delete, elsewhere, slash)] == [405, 405, 404, 404]
    assert b"allow: POST" in get


# --- bounds -------------------------------------------------------------------------------------------
async def test_a_body_over_the_cap_is_refused_without_reading_it(served):
    server, tools = served
    port = server.port
    big_text = "y" * (MAX_BODY_BYTES + 1024)
    big_call = call_body("send_terminal_input", {"contextToken": "c", "terminalId": "t1", "text": big_text})
    # declared too large: answered at once, while the client has not sent a byte of the body
    declared = await raw_exchange(port, request_head(port, len(big_call)), timeout=3)
    # no length, chunked: refused once the streamed bytes pass the cap
    chunks = [big_call[i : i + 8192] for i in range(0, len(big_call), 8192)]
    chunked = await raw_exchange(
        port,
        request_head(port, None, extra=("Transfer-Encoding: chunked",)),
        *(b"%x\r\n%s\r\n" % (len(chunk), chunk) for chunk in chunks),
        b"0\r\n\r\n",
    )
    # a Content-Length that understates the body: only the declared bytes are a request, the rest garbage
    understated = await raw_exchange(port, request_head(port, 100) + big_call)
    assert status_of(declared) == 413 and status_of(chunked) == 413
    assert status_of(understated) != 200
    assert tools.calls == []
    # just under the cap is a normal call
    fitting = "z" * (MAX_BODY_BYTES - 1024)
    ok = await post(
        port, call_body("send_terminal_input", {"contextToken": "c", "terminalId": "t1", "text": fitting})
    )
    assert status_of(ok) == 200
    assert tools.calls == [("send_terminal_input", ("c", "t1", fitting, False))]


async def test_request_headers_are_bounded(served):
    server, tools = served
    port = server.port
    in_one_read = await raw_exchange(
        port, request_head(port, len(LIST_CALL), extra=("X-Pad: " + "a" * 32768,))
    )
    head = request_head(port, len(LIST_CALL), extra=("X-Pad: " + "b" * 20000,))
    trickled = await trickle(port, head)
    many = await post(port, LIST_CALL, extra=tuple(f"X-H{i}: v" for i in range(80)))
    assert status_of(in_one_read) == 431 and status_of(many) == 431
    # uvicorn's h11 limit: a head still incomplete past 16 KiB is cut off (400, or a reset before the end)
    assert trickled == "cut" or status_of(trickled) == 400
    assert tools.calls == []
    fits = await post(port, LIST_CALL, extra=("X-Pad: " + "c" * 8000,))
    assert status_of(fits) == 200


async def test_keep_alive_answers_are_not_held_back_by_delayed_acks():
    """Answers go out at once (TCP_NODELAY): without it each answer on a kept-alive connection waits for
    the client's delayed ACK, about 40 ms on Linux, far more than the call itself. asyncio sets it on an
    accepted connection only when the listening socket says TCP, so the server's socket, through the
    admission wrapper it is served from, must say so; how fast answers come is bench's `mcp_read`."""
    from app.main.participation.loopback_admission import AdmittingSocket
    from app.main.participation.loopback_socket import bind_loopback

    listening = AdmittingSocket.wrapping(bind_loopback(0), admission=None)  # type: ignore[arg-type]
    assert listening.proto == socket.IPPROTO_TCP
    accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def serve(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = writer.get_extra_info("socket")
        accepted.set_result(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        writer.close()

    plain = bind_loopback(0)  # the same socket the wrapper takes over, served as asyncio serves it
    server = await asyncio.start_server(serve, sock=plain)
    try:
        _reader, writer = await asyncio.open_connection("127.0.0.1", plain.getsockname()[1])
        assert await asyncio.wait_for(accepted, 30) == 1
        writer.close()
    finally:
        server.close()
        await server.wait_closed()
        listening.close()


# --- where it listens, how it starts and stops ---------------------------------------------------------
def _other_local_addresses() -> list[str]:
    """Addresses of this machine that are not 127.0.0.1 (another loopback address is always one)."""
    found = {"127.0.0.2"}
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(info[4][0])
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent; this picks the outgoing interface's address
        found.add(probe.getsockname()[0])
    found.discard("127.0.0.1")
    return sorted(found)


async def test_the_server_listens_on_127_0_0_1_only(served):
    server, _tools = served
    assert server.url == f"http://127.0.0.1:{server.port}/mcp"
    for address in _other_local_addresses():
        with pytest.raises(OSError), socket.create_connection((address, server.port), timeout=2):
            pass
    with socket.create_connection(("127.0.0.1", server.port), timeout=2):
        pass


async def test_a_port_in_use_is_a_clear_error_and_a_free_configured_port_is_used():
    loop = asyncio.get_running_loop()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = TerminalMcpServer(FakeTools(), loop, SECRET, port=port)
        with pytest.raises(McpServerError, match=f"port {port} on 127.0.0.1 is already in use"):
            server.start()
        assert server.thread is None and server.url is None
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    server = TerminalMcpServer(FakeTools(), loop, SECRET, port=free)
    try:
        assert server.start() == f"http://127.0.0.1:{free}/mcp"
    finally:
        server.stop()


async def test_stop_ends_the_thread_frees_the_port_and_answers_a_waiting_call(capfd):
    tools = FakeTools()
    tools.read_behaviour = "block"
    handlers = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    server = TerminalMcpServer(tools, asyncio.get_running_loop(), SECRET)
    server.start()
    thread, port = server.thread, server.port
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers
    async with mcp_session(server.url) as session:
        waiting = asyncio.ensure_future(session.call_tool("read_terminal", {"contextToken": "c"}))
        await asyncio.wait_for(tools.blocked.wait(), 10)
        server.stop()  # blocks this (owner) loop: stopping must not need it
        result = await asyncio.wait_for(waiting, 10)
    assert result.is_error and answer_of(result)["error"]["code"] == "unavailable"
    await asyncio.wait_for(tools.cancelled.wait(), 5)
    assert thread is not None and not thread.is_alive()
    assert server.thread is None and server.url is None
    assert not [t for t in threading.enumerate() if t.name == "clawqt-terminal-mcp"]
    with socket.socket() as again:
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind(("127.0.0.1", port))
    server.stop()  # a second stop is harmless
    assert capfd.readouterr().out == ""  # nothing printed on stdout


# --- the real tools over real shells ------------------------------------------------------------------
class Clock:
    """Real time plus an offset a test moves forward (capability expiry, open deadlines)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset


class PanelStandIn:
    """What the panel does with an agent's request for a terminal: sees the pending tab and, when told
    to, says it is ready (the PTY starts only then)."""

    def __init__(self, terminals: UserTerminals, acknowledge: bool) -> None:
        self.terminals = terminals
        self.acknowledge = acknowledge
        self.pending: list[str] = []
        self.seen_pending = asyncio.Event()
        terminals.subscribe(self)

    def __call__(self, envelope: Any) -> None:
        if not isinstance(envelope, UserTerminalChangedEnvelope) or envelope.info.state != "pending":
            return
        if envelope.info.terminal_id not in self.pending:
            self.pending.append(envelope.info.terminal_id)
            self.seen_pending.set()
            if self.acknowledge:
                asyncio.get_running_loop().call_soon(self.terminals.ready, envelope.info.terminal_id, 80, 24)


class Live:
    def __init__(
        self,
        root: Path,
        clock: Clock,
        terminals: UserTerminals,
        capabilities: CapabilityStore,
        bearers: SessionBearers,
        server: TerminalMcpServer,
    ) -> None:
        self.bearers = bearers
        self.root = root
        self.clock = clock
        self.terminals = terminals
        self.capabilities = capabilities
        self.server = server
        self.panel = PanelStandIn(terminals, acknowledge=True)

    def user_opens_shared_terminal(self, sharing: str = "shared") -> str:
        terminal_id = self.terminals.open(None, 0, 80, 24)
        self.terminals.set_sharing(terminal_id, sharing)
        return terminal_id

    def token_of(self, session_key: str) -> str:
        """The user sent a message in that chat."""
        return self.capabilities.mint_for_user_message(session_key).token

    async def user_output_contains(self, terminal_id: str, needle: str, timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while needle not in self.terminals.output(terminal_id):
                await asyncio.sleep(0.02)  # the poll's interval


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[Live]:
    root = tmp_path / "workspace"
    root.mkdir()
    clock = Clock()
    terminals = UserTerminals(str(root), lambda _key, _generation: None, shell=["/bin/sh"], clock=clock)
    capabilities = CapabilityStore(clock=clock)
    bearers = SessionBearers()
    tools = TerminalTools(terminals, capabilities, lambda _key: "Test agent", SECRET, bearers, clock=clock)
    server = TerminalMcpServer(tools, asyncio.get_running_loop(), SECRET)
    server.start()
    try:
        yield Live(root, clock, terminals, capabilities, bearers, server)
    finally:
        server.stop()
        await terminals.shutdown()


async def read_until(
    session: ClientSession, token: str, terminal_id: str, needle: str, after: int = 0, timeout: float = 10.0
) -> tuple[str, int]:
    """Long-poll read_terminal from `after` until `needle` shows up; the text read and the next sequence."""
    text = ""
    async with asyncio.timeout(timeout):
        while needle not in text:
            result = await session.call_tool(
                "read_terminal",
                {"contextToken": token, "terminalId": terminal_id, "afterSequence": after, "waitMs": 2000},
            )
            assert not result.is_error, result.content[0].text
            answer = answer_of(result)
            text += answer["output"]
            after = answer["nextSequence"]
    return text, after


def refusal_code(result: Any) -> str:
    assert result.is_error, result.content[0].text
    return answer_of(result)["error"]["code"]


async def test_every_tool_through_the_real_server_on_a_real_shell(live):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        listed = answer_of(await session.call_tool("list_terminals", {"contextToken": token}))
        assert listed["recentTerminalIds"] == [terminal_id]
        assert listed["sessions"][0]["agentMode"] == "shared"
        sent = await session.call_tool(
            "send_terminal_input",
            {"contextToken": token, "terminalId": terminal_id, "text": "echo hi-$((6*7))\n"},
        )
        assert answer_of(sent) == {"sent": True}
        text, after = await read_until(session, token, terminal_id, "hi-42")
        assert "\x1b" not in text
        # Ctrl-C ends a 30 s sleep at once (and adds no newline of its own)
        await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": terminal_id, "text": "sleep 30\n"}
        )
        await asyncio.sleep(0.3)  # `sleep 30` runs before the interrupt
        interrupted = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": terminal_id, "interrupt": True}
        )
        assert not interrupted.is_error
        await session.call_tool(
            "send_terminal_input",
            {"contextToken": token, "terminalId": terminal_id, "text": "echo back-$((1+1))\n"},
        )
        await read_until(session, token, terminal_id, "back-2", after=after, timeout=8)
        # an agent-launched terminal: the panel says it is ready, then its command runs
        opened = answer_of(
            await session.call_tool(
                "open_terminal",
                {"contextToken": token, "requestId": "req-1", "command": "echo opened-$((2+3))"},
            )
        )
        assert opened["state"] == "started" and opened["requestId"] == "req-1"
        await read_until(session, token, opened["terminalId"], "opened-5")
        again = answer_of(
            await session.call_tool("open_terminal", {"contextToken": token, "requestId": "req-1"})
        )
        assert again["terminalId"] == opened["terminalId"]  # the same request, not a second terminal
    assert live.terminals.info(opened["terminalId"]).pinned_session == "chat-a"


async def test_an_expired_capability_is_refused(live):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        fresh = await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        live.clock.offset += 3601
        expired = await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        unknown = await session.call_tool("list_terminals", {"contextToken": "cqt_made-up-by-the-model"})
    assert not fresh.is_error
    assert refusal_code(expired) == "capability-expired"
    assert refusal_code(unknown) == "capability-unknown"


async def test_a_token_of_another_chat_cannot_reach_a_terminal_pinned_to_this_one(live):
    terminal_id = live.user_opens_shared_terminal()
    live.terminals.pin(terminal_id, "chat-b")
    token_a, token_b = live.token_of("chat-a"), live.token_of("chat-b")
    async with mcp_session(live.server.url) as session:
        read_a = await session.call_tool(
            "read_terminal", {"contextToken": token_a, "terminalId": terminal_id}
        )
        write_a = await session.call_tool(
            "send_terminal_input",
            {"contextToken": token_a, "terminalId": terminal_id, "text": "touch from-a\n"},
        )
        listed_a = answer_of(await session.call_tool("list_terminals", {"contextToken": token_a}))
        read_b = await session.call_tool(
            "read_terminal", {"contextToken": token_b, "terminalId": terminal_id}
        )
    assert refusal_code(read_a) == "pinned-to-another-chat"
    assert refusal_code(write_a) == "pinned-to-another-chat"
    assert listed_a["sessions"] == [] and listed_a["recentTerminalIds"] == []
    assert not read_b.is_error
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not (live.root / "from-a").exists()


async def test_a_chunk_that_arrived_while_paused_is_never_returned_also_after_resuming(live):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    live.terminals.input(terminal_id, "echo before-$((2*2))\n")
    await live.user_output_contains(terminal_id, "before-4")
    live.terminals.set_sharing(terminal_id, "off")
    live.terminals.input(terminal_id, "echo secret-$((3*3))\n")
    await live.user_output_contains(terminal_id, "secret-9")
    async with mcp_session(live.server.url) as session:
        paused = await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        live.terminals.set_sharing(terminal_id, "shared")
        live.terminals.input(terminal_id, "echo after-$((4*4))\n")
        await live.user_output_contains(terminal_id, "after-16")
        text, _after = await read_until(session, token, terminal_id, "after-16")
        newest = answer_of(
            await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        )
    assert refusal_code(paused) == "paused"
    assert "before-4" in text and "after-16" in text
    assert "secret" not in text and "secret" not in newest["output"]  # neither the echo nor the output
    assert newest["excludedOutput"] is True


async def test_status_only_gives_status_and_refuses_input(live):
    terminal_id = live.user_opens_shared_terminal(sharing="status-only")
    token = live.token_of("chat-a")
    live.terminals.input(terminal_id, "echo private-$((5*5))\n")
    await live.user_output_contains(terminal_id, "private-25")
    async with mcp_session(live.server.url) as session:
        read = answer_of(
            await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        )
        write = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": terminal_id, "text": "touch typed\n"}
        )
        interrupt = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": terminal_id, "interrupt": True}
        )
    assert read["statusOnly"] is True and read["output"] == "" and read["status"] == "running"
    assert refusal_code(write) == "status-only" and refusal_code(interrupt) == "status-only"
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not (live.root / "typed").exists()


async def test_a_write_without_a_terminal_id_is_refused(live):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        missing = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "text": "touch guessed\n"}
        )
        empty = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": "", "text": "touch guessed\n"}
        )
        listed = answer_of(await session.call_tool("list_terminals", {"contextToken": token}))
    assert missing.is_error and "terminalId" in missing.content[0].text
    assert refusal_code(empty) == "terminal-id-required"
    assert listed["recentTerminalIds"] == [terminal_id]  # there was an obvious target; none was guessed
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not (live.root / "guessed").exists()
    assert not live.terminals.info(terminal_id).agent_sent_input


@pytest.mark.parametrize("change", ["paused", "pinned elsewhere"])
async def test_a_long_poll_that_loses_authorization_while_waiting_is_refused(live, change):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        first = answer_of(
            await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        )
        started = time.monotonic()
        poll = asyncio.ensure_future(
            session.call_tool(
                "read_terminal",
                {
                    "contextToken": token,
                    "terminalId": terminal_id,
                    "afterSequence": first["nextSequence"],
                    "waitMs": 15000,
                },
            )
        )
        await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
        assert not poll.done()
        if change == "paused":
            live.terminals.set_sharing(terminal_id, "off")
        else:
            live.terminals.pin(terminal_id, "chat-b")
        live.terminals.input(terminal_id, "echo during-$((7*7))\n")
        result = await asyncio.wait_for(poll, 10)
    assert time.monotonic() - started < 10  # answered by the change, not by the end of the wait
    expected = "paused" if change == "paused" else "pinned-to-another-chat"
    assert refusal_code(result) == expected
    assert "during" not in result.content[0].text


async def test_an_open_request_past_its_deadline_never_runs_its_command(live):
    live.panel.acknowledge = False  # the user does not open it in time
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        asking = asyncio.ensure_future(
            session.call_tool(
                "open_terminal", {"contextToken": token, "requestId": "late", "command": "touch marker"}
            )
        )
        await asyncio.wait_for(live.panel.seen_pending.wait(), 10)
        live.clock.offset += 31  # the 30 s deadline passes
        answer = answer_of(await asyncio.wait_for(asking, 15))
        terminal_id = live.panel.pending[0]
        live.terminals.ready(terminal_id, 80, 24)  # the panel shows it after all: too late
        retried = answer_of(
            await session.call_tool("open_terminal", {"contextToken": token, "requestId": "late"})
        )
        # the same command in time does run: the marker proof can fail
        live.panel.acknowledge = True
        in_time = answer_of(
            await session.call_tool(
                "open_terminal",
                {"contextToken": token, "requestId": "in-time", "command": "touch marker-in-time"},
            )
        )
    assert answer["state"] == "expired" and retried["state"] == "expired"
    assert retried["terminalId"] == terminal_id == answer["terminalId"]
    assert in_time["state"] == "started"
    async with asyncio.timeout(10):
        while not (live.root / "marker-in-time").exists():
            await asyncio.sleep(0.05)  # the poll's interval
    await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
    assert not (live.root / "marker").exists()
    assert live.terminals.info(terminal_id).state == "expired"


async def test_a_per_session_bearer_acts_for_its_chat_only_while_the_user_keeps_it_alive(live):
    terminal_id = live.user_opens_shared_terminal()
    bearer = live.bearers.issue_unbound()  # given to the agent in session/new
    live.bearers.bind(bearer, "chat-a")
    async with mcp_session(live.server.url, bearer=bearer) as session:
        before = await session.call_tool("list_terminals", {})
        live.token_of("chat-a")  # the user sends a message in that chat
        after = answer_of(await session.call_tool("list_terminals", {}))
        live.clock.offset += 3601
        lapsed = await session.call_tool("list_terminals", {})
    never_issued = await post(live.server.port, LIST_CALL, bearer="cqs_never-issued")
    assert status_of(never_issued) == 401
    assert refusal_code(before) == "no-live-capability"
    assert after["recentTerminalIds"] == [terminal_id]
    assert refusal_code(lapsed) == "no-live-capability"
