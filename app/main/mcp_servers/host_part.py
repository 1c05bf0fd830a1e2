"""The `mcp_servers` host part (contract: McpServersHost) over the user's MCP servers."""

from __future__ import annotations

from app.contract.mcp_servers import McpServerView, Transport
from app.main.mcp_servers.servers import UserMcpServers


class McpServersOfUser:
    def __init__(self, book: UserMcpServers) -> None:
        self.book = book

    def servers(self) -> list[McpServerView]:
        return [server.view() for server in self.book.servers()]

    def add(self, name: str, transport: Transport, command: str, secrets: dict[str, str]) -> str:
        return self.book.add(name, transport, command, secrets)

    def remove(self, name: str) -> bool:
        return self.book.remove(name)

    def set_enabled(self, name: str, agent_id: str, enabled: bool) -> None:
        self.book.set_enabled(name, agent_id, enabled)
