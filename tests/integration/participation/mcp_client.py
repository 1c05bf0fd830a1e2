"""The test side of the loopback MCP server's tests: the `mcp` SDK's own client, raw-socket requests
for the transport rules, and a stand-in for the terminal tools that records where each call ran."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator
from typing import Any

import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from app.main.participation.tools_api import ToolRefused

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
