"""The check that says on a chat when one of the user's MCP servers cannot start, against a real loopback
address nothing listens on: said on every chat opened, the address tried once while the check is kept
(CHECK_KEPT_S), and again after it."""

from __future__ import annotations

import socket

import app.main.mcp_servers.agent as agent_module
from app.main.mcp_servers.agent import CHECK_KEPT_S, AgentMcpServers
from app.main.mcp_servers.servers import McpServer, UserMcpServers


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_a_server_that_cannot_start_is_said_on_each_chat_and_tried_once_while_kept(
    tmp_path, monkeypatch
):
    tried: list[str] = []
    real = agent_module.problem_starting

    async def counted(server: McpServer, cwd: str) -> str:
        tried.append(server.name)
        return await real(server, cwd)

    monkeypatch.setattr(agent_module, "problem_starting", counted)
    now = [1000.0]
    said: list = []
    servers = AgentMcpServers(UserMcpServers(tmp_path), "scripted", said.append, clock=lambda: now[0])
    server = McpServer("tracker", "http", f"http://127.0.0.1:{_closed_port()}/mcp")
    await servers.check([server], "chat-1", str(tmp_path))
    await servers.check([server], "chat-2", str(tmp_path))
    assert [(e.session_key, e.server) for e in said] == [("chat-1", "tracker"), ("chat-2", "tracker")]
    assert "cannot be reached" in said[0].problem and tried == ["tracker"]
    now[0] += CHECK_KEPT_S + 1
    await servers.check([server], "chat-3", str(tmp_path))
    assert tried == ["tracker", "tracker"] and len(said) == 3
