"""The demo agent's side of ClawQt's terminal tools: which MCP server the client gave a session, the
capability the current prompt carries, and one connection with the `mcp` SDK's streamable-HTTP client.

The agent acts with what it was given and nothing else: the server's own headers from
`session/new|load|resume` (ClawQt's per-session bearer, which stands for that chat) and the
`contextToken` in the prompt's hidden context (minted by the user's message). Every answer is read
defensively: a refusal, an unreadable result or a server that cannot be reached becomes a `ToolAnswer`
the turn can say, never an exception out of the turn.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from app.contract.hidden_context import OPEN

# ClawQt names its server "clawqt-terminals-<suffix>"; another client's first HTTP server is used else.
PREFERRED_PREFIX = "clawqt-terminals"
_TOKEN = re.compile(r"contextToken: (cqt_\S+)")
# open_terminal answers "pending" after 10 s; a long poll waits 20 s: past this the server is stuck.
CALL_TIMEOUT_SECONDS = 30.0
CONNECT_TIMEOUT_SECONDS = 10.0
MAX_HEADERS = 32
MAX_MESSAGE_CHARS = 500


@dataclass(frozen=True)
class McpServerRef:
    """An HTTP MCP server named in session/new|load|resume (in memory only, like its bearer)."""

    name: str
    url: str
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ToolAnswer:
    """One tool call's outcome: `payload` is the tool's JSON object ({} when it sent none);
    `message` says why it failed (empty when `ok`); `code` is the refusal's stable code, if any."""

    ok: bool
    payload: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    code: str = ""


def _field(item: object, name: str) -> object:
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


def http_servers(servers: object) -> list[McpServerRef]:
    """The HTTP servers among session/new|load|resume's `mcpServers` (SDK models or, when `_meta`
    shadowed the field, raw values); anything malformed is skipped."""
    found: list[McpServerRef] = []
    if not isinstance(servers, list | tuple):
        return found
    for server in servers:
        name, url, headers = _field(server, "name"), _field(server, "url"), _field(server, "headers")
        if _field(server, "type") != "http" or not isinstance(url, str) or not url.startswith("http"):
            continue
        pairs: list[tuple[str, str]] = []
        for header in headers if isinstance(headers, list | tuple) else []:
            key, value = _field(header, "name"), _field(header, "value")
            if isinstance(key, str) and isinstance(value, str) and len(pairs) < MAX_HEADERS:
                pairs.append((key, value))
        found.append(McpServerRef(name if isinstance(name, str) else "", url, tuple(pairs)))
    return found


def pick_server(servers: list[McpServerRef]) -> McpServerRef | None:
    """ClawQt's terminal server when the client named one, else the first HTTP server."""
    for server in servers:
        if server.name.startswith(PREFERRED_PREFIX):
            return server
    return servers[0] if servers else None


def context_token(prompt_text: str) -> str | None:
    """The capability in the prompt's hidden context (the last block that carries one: ClawQt may add
    other hidden blocks after it); a token the user typed in the visible message is not one ClawQt gave."""
    start = prompt_text.find(OPEN)
    if start < 0:
        return None
    found = _TOKEN.findall(prompt_text, start)
    return found[-1] if found else None


def answer_of(result: object) -> ToolAnswer:
    """A `CallToolResult` read defensively: the JSON object in its structured content or first text
    block; an error result gives the refusal's own sentence when there is one."""
    is_error = _field(result, "is_error") is True
    text = ""
    content = _field(result, "content")
    for block in content if isinstance(content, list) else []:
        if _field(block, "type") == "text" and isinstance(_field(block, "text"), str):
            text = str(_field(block, "text"))
            break
    payload = _field(result, "structured_content")
    if not isinstance(payload, dict):
        payload = None
        with contextlib.suppress(ValueError, RecursionError):
            parsed = json.loads(text) if text else None
            payload = parsed if isinstance(parsed, dict) else None
    if not is_error:
        if payload is None:
            return ToolAnswer(False, message=f"The tool sent an answer I cannot read: {_short(text)!r}.")
        return ToolAnswer(True, payload)
    error = payload.get("error") if payload else None
    message = _field(error, "message") if isinstance(error, dict) else None
    code = _field(error, "code") if isinstance(error, dict) else None
    return ToolAnswer(
        False,
        payload or {},
        _short(message) if isinstance(message, str) and message else _short(text) or "The tool call failed.",
        code if isinstance(code, str) else "",
    )


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 1] + "…"


def failure(error: BaseException) -> ToolAnswer:
    """A call that never got an answer (no server, a refused connection, a timeout, a protocol error)."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]  # anyio's task groups wrap the one real cause
    detail = _short(str(error)) or type(error).__name__
    return ToolAnswer(
        False, message=f"I could not reach the terminal tools ({type(error).__name__}: {detail})."
    )


class TerminalToolsConnection:
    """One initialized MCP session: `call(name, arguments)` -> `ToolAnswer`."""

    def __init__(self, session: Any) -> None:
        self._session = session

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolAnswer:
        try:
            result = await self._session.call_tool(name, arguments)
        except Exception as error:  # the protocol failed (a JSON-RPC error): say so, never crash
            return failure(error)
        return answer_of(result)


@contextlib.asynccontextmanager
async def connect(server: McpServerRef) -> AsyncIterator[TerminalToolsConnection]:
    """`async with connect(server) as tools:` the `mcp` SDK's streamable-HTTP client (over `httpx2`)
    with the headers the client gave. A transport failure leaves as the SDK's task group raises it (an
    ExceptionGroup around the cause; `failure()` unwraps it). The SDK is imported here, on first use, so
    a demo agent that never calls a terminal tool starts as fast as before."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    timeout = httpx2.Timeout(CALL_TIMEOUT_SECONDS, connect=CONNECT_TIMEOUT_SECONDS)
    async with (
        httpx2.AsyncClient(headers=dict(server.headers), timeout=timeout) as http,
        streamable_http_client(server.url, http_client=http) as (read, write),
        ClientSession(read, write, read_timeout_seconds=CALL_TIMEOUT_SECONDS) as session,
    ):
        await session.initialize()
        yield TerminalToolsConnection(session)
