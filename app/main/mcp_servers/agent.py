"""One agent's view of the user's MCP servers: what its sessions are given, and the check that says
on a chat when one of them cannot start (McpServerProblemEnvelope)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.contract.envelopes import AgentInfo, Envelope
from app.contract.mcp_servers import McpServerProblemEnvelope
from app.main.mcp_servers.probe import problem_starting
from app.main.mcp_servers.servers import McpServer, UserMcpServers


class AgentMcpServers:
    def __init__(self, book: UserMcpServers, agent_id: str, emit: Callable[[Envelope], None]) -> None:
        self.book = book
        self.agent_id = agent_id
        self._emit = emit

    def params(self, info: AgentInfo | None) -> tuple[list[dict[str, Any]], list[McpServer]]:
        """The ACP params of the servers this agent gets now, and the servers."""
        given = self.book.for_agent(self.agent_id, info)
        return [params for _server, params in given], [server for server, _params in given]

    async def check(self, servers: list[McpServer], session_key: str, cwd: str) -> None:
        for server in servers:
            problem = await problem_starting(server, cwd)
            if problem:
                said = f"The MCP server “{server.name}” cannot start: {problem}"
                self._emit(McpServerProblemEnvelope(session_key, server.name, said))
