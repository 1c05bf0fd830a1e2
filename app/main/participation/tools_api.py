"""What the loopback MCP server (`mcp_server.py`) may call of the terminal tools
(`tools.py`), on the owner's event loop, and how a call is refused: `ToolRefused`, with an
HTTP-like status and a stable code the server hands to the agent."""

from __future__ import annotations

from typing import Any, Protocol


class ToolRefused(Exception):
    """A refused tool call: `status` 401 (capability), 403 (sharing), 404 (no such terminal),
    409 (not running), 422 (invalid input); `code` is stable, the message one sentence for the model."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code

    def as_dict(self) -> dict[str, Any]:
        return {"error": {"status": self.status, "code": self.code, "message": str(self)}}


class TerminalToolsApi(Protocol):
    """What the MCP server calls (on the owner loop)."""

    def admits_bearer(self, token: str) -> bool:
        """May a request carrying `Authorization: Bearer <token>` reach the tools at all? (the install
        secret configured on the agent side, or a live capability delivered per session)."""
        ...

    def context_token_for_bearer(self, token: str) -> str | None:
        """The capability a per-session bearer stands for right now, else None."""
        ...

    async def list_terminals(self, context_token: str) -> dict[str, Any]: ...

    async def open_terminal(
        self,
        context_token: str,
        request_id: str,
        title: str | None = None,
        command: str | None = None,
        cwd: str | None = None,
        agent_mode: str = "shared",
    ) -> dict[str, Any]: ...

    async def read_terminal(
        self,
        context_token: str,
        terminal_id: str | None = None,
        after_sequence: int | None = None,
        max_bytes: int | None = None,
        wait_ms: int | None = None,
    ) -> dict[str, Any]: ...

    async def send_terminal_input(
        self,
        context_token: str,
        terminal_id: str | None,
        text: str | None = None,
        interrupt: bool = False,
    ) -> dict[str, Any]: ...

    async def propose_terminal_actions(self, context_token: str, payload: object) -> dict[str, Any]: ...
