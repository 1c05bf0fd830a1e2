"""The user's own MCP servers as the renderer sees them (host part `mcp_servers`): each server with
how it runs (never the values of its secrets), which agents get it, and the envelope that says one
could not start for a chat. The main side keeps them, their secrets in the keyring, and gives them to
the agents in session/new|load|resume (app/main/mcp_servers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

Transport = Literal["stdio", "http", "sse"]


@dataclass(frozen=True)
class McpServerView:
    name: str
    transport: Transport
    command: str  # stdio: the command line as typed; http/sse: the URL
    secret_names: tuple[str, ...]  # the environment variables (stdio) or headers (http) kept as secrets
    off_for: tuple[str, ...]  # the agents (ids) that do not get it


@dataclass(frozen=True)
class McpServerProblemEnvelope:
    """A server given to a chat's agent could not start: said on that chat, in words."""

    session_key: str
    server: str
    problem: str
    kind: Literal["mcp_server_problem"] = "mcp_server_problem"


class McpServersHost(Protocol):
    def servers(self) -> list[McpServerView]: ...

    def add(self, name: str, transport: Transport, command: str, secrets: dict[str, str]) -> str:
        """Keep a server (a command line for stdio, a URL for http/sse; `secrets`: environment variables
        or headers, kept in the keyring); "" when kept, else why not, in words."""
        ...

    def remove(self, name: str) -> bool: ...

    def set_enabled(self, name: str, agent_id: str, enabled: bool) -> None: ...
