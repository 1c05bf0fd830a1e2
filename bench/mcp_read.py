"""`mcp_read`: a `read_terminal` round trip through ClawQt's loopback MCP server (guard, bearer,
hand-over to the owner loop, capability and sharing checks, a real shell's shared output rendered as
text) vs a bare `mcp` SDK server on the same uvicorn setup whose one tool returns a constant. Both are
called by the SDK's own streamable-HTTP client, interleaved in rounds. Goal <= 1.5."""

from __future__ import annotations

import asyncio
import os
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import Result, median, sized

GOAL = 1.5
CALLS = sized(200, 40)


def _bare_server() -> tuple[str, Any, threading.Thread]:
    """The SDK alone: MCPServer + streamable HTTP (the same options) under uvicorn in a thread."""
    import uvicorn
    from mcp.server.mcpserver import MCPServer

    mcp = MCPServer("bare", log_level="WARNING")

    @mcp.tool()
    async def constant() -> str:
        return '{"output": "constant"}'

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    app = mcp.streamable_http_app(json_response=True, stateless_http=True, host="127.0.0.1")
    config = uvicorn.Config(
        app,
        loop="asyncio",
        http="h11",
        ws="none",
        log_config=None,
        log_level="warning",
        access_log=False,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the bare MCP server did not start")
        time.sleep(0.01)
    return f"http://127.0.0.1:{port}/mcp", server, thread


async def _timed_calls(
    url: str, headers: dict[str, str], tool: str, arguments: dict[str, Any]
) -> list[float]:
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    times: list[float] = []
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        streamable_http_client(url, http_client=http) as (read, write, *_),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        for _ in range(10):  # warm up
            await session.call_tool(tool, arguments)
        for _ in range(CALLS):
            started = time.perf_counter()
            result = await session.call_tool(tool, arguments)
            times.append(time.perf_counter() - started)
            assert not result.is_error, result
    return times


async def _scenario(rounds: int, folder: Path) -> tuple[list[float], list[float]]:
    from app.main.participation.service import TerminalParticipation
    from app.main.terminals.user import UserTerminals

    os.environ["PS1"] = "$ "
    terminals = UserTerminals(str(folder), lambda key, generation: None, shell=["/bin/sh"])
    participation = TerminalParticipation(terminals, lambda _key: "Agent", folder / "data")
    url = await participation.start()
    assert url is not None, participation.problem
    terminal_id = terminals.open(None, 0, 120, 30)
    terminals.set_sharing(terminal_id, "shared")
    terminals.input(
        terminal_id, 'i=0; while [ $i -lt 60 ]; do echo "line $i of the build"; i=$((i+1)); done\r'
    )
    deadline = time.monotonic() + 60
    while "line 59 of" not in terminals.output(terminal_id):
        if time.monotonic() > deadline:
            raise TimeoutError("the shared terminal never printed the build's lines")
        await asyncio.sleep(0.02)
    token = participation.capabilities.mint_for_user_message("bench-chat").token
    ours_headers = {"Authorization": f"Bearer {participation.install_secret}"}
    ours_args = {"contextToken": token, "terminalId": terminal_id, "maxBytes": 4096}
    bare_url, bare_server, bare_thread = _bare_server()
    ours: list[float] = []
    bare: list[float] = []
    try:
        for _ in range(rounds):
            ours.append(median(await _timed_calls(url, ours_headers, "read_terminal", ours_args)))
            bare.append(median(await _timed_calls(bare_url, {}, "constant", {})))
    finally:
        bare_server.should_exit = True
        bare_thread.join(5)
        await participation.stop()
        await terminals.shutdown()
    return ours, bare


def run(rounds: int = 3) -> Result:
    with tempfile.TemporaryDirectory(prefix="clawqt-bench-") as folder:
        ours, bare = asyncio.run(_scenario(rounds, Path(folder)))
    ours_ms, bare_ms = median(ours) * 1000, median(bare) * 1000
    ratio = ours_ms / bare_ms
    return Result(
        "mcp_read",
        ratio,
        GOAL,
        {"read_terminal_ms": round(ours_ms, 3), "bare_ms": round(bare_ms, 3)},
        f"mcp_read ratio={ratio:.3f} goal={GOAL} (read_terminal {ours_ms:.2f} ms vs a bare SDK constant "
        f"{bare_ms:.2f} ms, medians of {CALLS} calls)",
    )
