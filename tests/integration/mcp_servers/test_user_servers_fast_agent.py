"""The user's own MCP servers reach a real agent: a stdio MCP server the test starts (tests/agents/
mcp_stdio_server.py), kept with a secret in the keyring, is given to fast-agent (PyPI `fast-agent-mcp`,
a real ACP agent nobody here wrote) in session/new, and the agent calls its tool (its passthrough model
calls a tool by name; fast-agent asks permission first, answered here); the secret reached the
server's environment. A server turned off for the agent is not given."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest

from app.main.mcp_servers.agent import AgentMcpServers
from app.main.mcp_servers.servers import UserMcpServers
from tests.fast_agent_support import fast_agent_args
from tests.integration.real_agents.fast_agent_harness import fast_agent, workspace  # noqa: F401 (fixtures)
from tests.paths import TESTS

pytestmark = pytest.mark.real_agents

SERVER = TESTS / "agents" / "mcp_stdio_server.py"
SHOUT = "***CALL_TOOL shouter__shout " + json.dumps({"text": "hello"})


async def test_a_stdio_server_of_the_user_reaches_fast_agent_and_its_tool_is_called(
    make_service,
    fast_agent,  # noqa: F811
    workspace,  # noqa: F811
    tmp_path,
):
    log = tmp_path / "shouts.log"
    book = UserMcpServers(tmp_path / "data")
    command = f"{sys.executable} {SERVER}"
    assert book.add("shouter", "stdio", command, {"SHOUT_SUFFIX": "!!", "SHOUT_LOG": str(log)}) == ""
    argv = fast_agent.argv + fast_agent_args(tmp_path / "fast-agent-home", "passthrough", shell=False)
    service, envelopes = make_service(argv, cwd=str(workspace))
    service.mcp_servers = AgentMcpServers(book, "fast-agent", service._emit)
    key = (await service.new_session()).session_key
    running = asyncio.create_task(service.prompt(key, SHOUT))
    [asked] = await envelopes.wait_for(lambda log: log.of_kind("permission_request"), 30)
    assert asked.tool_call["title"] == "shouter/shout"  # the user's server's tool, as fast-agent names it
    allow = next(o["optionId"] for o in asked.options if o["kind"] == "allow_once")
    assert service.answer_permission(asked.request_id, allow)
    await asyncio.wait_for(running, 30)
    assert log.read_text() == "HELLO!!\n"  # it ran, with the secret from the keyring in its environment
    assert "HELLO!!" in envelopes.text(key) or any(
        "HELLO!!" in json.dumps(e.notification) for e in envelopes.of_kind("session_update")
    )
    assert not envelopes.of_kind("mcp_server_problem")

    book.set_enabled("shouter", "fast-agent", False)  # turned off for this agent: the next chat lacks it
    key = (await service.new_session()).session_key
    await asyncio.wait_for(service.prompt(key, SHOUT), 30)  # fast-agent finds no such tool (it refuses)
    assert log.read_text() == "HELLO!!\n"  # not called again
    assert len(envelopes.of_kind("permission_request")) == 1
