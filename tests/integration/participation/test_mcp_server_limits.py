"""The loopback MCP server's limits: body and header bounds, slow clients, where it listens, a port
in use, and how it starts and stops (raw sockets on a real loopback port)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading

import pytest

from app.main.participation.loopback_guard import MAX_BODY_BYTES
from app.main.participation.mcp_server import McpServerError, TerminalMcpServer
from tests.integration.participation.mcp_client import (
    LIST_CALL,
    SECRET,
    FakeTools,
    answer_of,
    call_body,
    mcp_session,
    post,
    raw_exchange,
    request_head,
    status_of,
    trickle,
)


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
