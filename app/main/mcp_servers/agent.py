"""One agent's view of the user's MCP servers: what its sessions are given, and the check that says
on a chat when one of them cannot start (McpServerProblemEnvelope)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from app.contract.envelopes import AgentInfo, Envelope
from app.contract.mcp_servers import McpServerProblemEnvelope
from app.main.mcp_servers.probe import problem_starting
from app.main.mcp_servers.servers import McpServer, UserMcpServers

CHECK_KEPT_S = 60.0  # a server's check is reused this long: opening chat after chat probes it once


class AgentMcpServers:
    def __init__(
        self,
        book: UserMcpServers,
        agent_id: str,
        emit: Callable[[Envelope], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.book = book
        self.agent_id = agent_id
        self._emit = emit
        self._clock = clock
        self._checked: dict[tuple[str, str, str], tuple[float, str]] = {}  # (transport, command, cwd)

    def params(self, info: AgentInfo | None) -> tuple[list[dict[str, Any]], list[McpServer]]:
        """The ACP params of the servers this agent gets now, and the servers."""
        given = self.book.for_agent(self.agent_id, info)
        return [params for _server, params in given], [server for server, _params in given]

    async def check(self, servers: list[McpServer], session_key: str, cwd: str) -> None:
        """Say on the chat each server that cannot start: checked again only after CHECK_KEPT_S (a
        server that answers slowly cost every chat opened its wait)."""
        for server in servers:
            problem = await self._problem(server, cwd)
            if problem:
                said = f"The MCP server “{server.name}” cannot start: {problem}"
                self._emit(McpServerProblemEnvelope(session_key, server.name, said))

    async def _problem(self, server: McpServer, cwd: str) -> str:
        key = (server.transport, server.command, cwd)
        now = self._clock()
        kept = self._checked.get(key)
        if kept is not None and now - kept[0] < CHECK_KEPT_S:
            return kept[1]
        problem = await problem_starting(server, cwd)
        self._checked = {k: v for k, v in self._checked.items() if now - v[0] < CHECK_KEPT_S}
        self._checked[key] = (now, problem)
        return problem
