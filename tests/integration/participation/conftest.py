"""The loopback MCP server on a real port with the recording stand-in for its tools."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from app.main.participation.mcp_server import TerminalMcpServer
from tests.integration.participation.mcp_client import SECRET, FakeTools


@pytest.fixture
async def served() -> AsyncIterator[tuple[TerminalMcpServer, FakeTools]]:
    tools = FakeTools()
    server = TerminalMcpServer(tools, asyncio.get_running_loop(), SECRET, call_timeout=5.0)
    server.start()
    try:
        yield server, tools
    finally:
        server.stop()
