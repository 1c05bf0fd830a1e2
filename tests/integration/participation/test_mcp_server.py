"""The loopback MCP server that offers agents the terminal tools: a real server on a real loopback
port, the `mcp` SDK's own streamable-HTTP client for tool calls and raw sockets for who may connect,
with the test's own event loop as the owner loop the calls are handed to."""

from __future__ import annotations

import asyncio
import threading

from app.main.participation.mcp_server import TerminalMcpServer
from tests.integration.participation.mcp_client import (
    CAPABILITY,
    LIST_CALL,
    SECRET,
    FakeTools,
    answer_of,
    mcp_session,
    post,
    raw_exchange,
    request_head,
    status_of,
)


# --- the handoff to the owner loop ---------------------------------------------------------------------
async def test_tool_calls_run_on_the_owner_loop_and_the_server_answers_others_while_one_waits(served):
    server, tools = served
    owner_thread = threading.get_ident()
    assert server.thread is not None and server.thread.ident != owner_thread
    tools.read_behaviour = "block"
    async with mcp_session(server.url) as waiting, mcp_session(server.url) as other:
        read = asyncio.ensure_future(waiting.call_tool("read_terminal", {"contextToken": "cqt_a"}))
        await asyncio.wait_for(tools.blocked.wait(), 10)
        # the first call is still waiting on the owner: a server loop blocked on it could not answer this
        listed = await asyncio.wait_for(other.call_tool("list_terminals", {"contextToken": "cqt_b"}), 10)
        assert not listed.is_error and answer_of(listed) == {"sessions": [], "recentTerminalIds": []}
        assert not read.done()
        tools.block.set()
        result = await asyncio.wait_for(read, 10)
    assert answer_of(result) == {"output": "hello", "nextSequence": 3}
    assert result.structured_content == {"output": "hello", "nextSequence": 3}
    assert set(tools.threads) == {owner_thread}
    assert all(loop is asyncio.get_running_loop() for loop in tools.loops)


async def test_every_tool_maps_its_camel_case_arguments_to_the_tools_api(served):
    server, tools = served
    async with mcp_session(server.url) as session:
        listed = await session.list_tools()
        assert {tool.name for tool in listed.tools} == {
            "list_terminals",
            "open_terminal",
            "read_terminal",
            "send_terminal_input",
            "propose_terminal_actions",
        }
        by_name = {tool.name: tool for tool in listed.tools}
        assert by_name["read_terminal"].annotations.read_only_hint is True
        assert "only when the user asked" in by_name["send_terminal_input"].description.lower()
        assert by_name["send_terminal_input"].input_schema["required"] == ["terminalId"]
        await session.call_tool("list_terminals", {"contextToken": "cqt_1"})
        opened = await session.call_tool(
            "open_terminal",
            {
                "contextToken": "cqt_1",
                "requestId": "r1",
                "title": "T",
                "command": "ls",
                "cwd": "sub",
                "agentMode": "status-only",
            },
        )
        await session.call_tool(
            "read_terminal",
            {"contextToken": "cqt_1", "terminalId": "t1", "afterSequence": 4, "maxBytes": 512, "waitMs": 0},
        )
        await session.call_tool(
            "send_terminal_input", {"contextToken": "cqt_1", "terminalId": "t1", "interrupt": True}
        )
        refused = await session.call_tool(
            "open_terminal", {"contextToken": "cqt_1", "requestId": "r", "agentMode": "owner"}
        )
    assert answer_of(opened) == {"requestId": "r1", "state": "pending", "terminalId": "t9"}
    assert refused.is_error
    assert tools.calls == [
        ("list_terminals", ("cqt_1",)),
        ("open_terminal", ("cqt_1", "r1", "T", "ls", "sub", "status-only")),
        ("read_terminal", ("cqt_1", "t1", 4, 512, 0)),
        ("send_terminal_input", ("cqt_1", "t1", None, True)),
    ]


async def test_a_refusal_is_a_tool_error_whose_text_is_the_refusal_json(served):
    server, tools = served
    tools.read_behaviour = "refuse"
    async with mcp_session(server.url) as session:
        result = await session.call_tool("read_terminal", {"contextToken": "cqt_1", "terminalId": "t1"})
        tools.read_behaviour = "crash"
        crashed = await session.call_tool("read_terminal", {"contextToken": "cqt_1", "terminalId": "t1"})
    expected = {
        "error": {"status": 403, "code": "paused", "message": "The user paused sharing of this terminal."}
    }
    assert result.is_error and answer_of(result) == expected
    assert result.structured_content == expected
    assert crashed.is_error and answer_of(crashed)["error"]["code"] == "internal-error"
    assert "/home/user" not in crashed.content[0].text


async def test_a_per_session_bearer_stands_for_its_chat_but_the_install_secret_needs_a_context_token(served):
    server, tools = served
    async with mcp_session(server.url, bearer=CAPABILITY) as session:
        by_bearer = await session.call_tool("list_terminals", {})
        named = await session.call_tool("list_terminals", {"contextToken": "cqt_named"})
        tools.bearer_token = None  # the user has not sent a message in that chat lately
        lapsed = await session.call_tool("list_terminals", {})
    async with mcp_session(server.url, bearer=SECRET) as session:
        missing = await session.call_tool("list_terminals", {})
    assert not by_bearer.is_error and not named.is_error
    assert lapsed.is_error and answer_of(lapsed)["error"]["code"] == "no-live-capability"
    assert missing.is_error and answer_of(missing)["error"] == {
        "status": 401,
        "code": "context-token-required",
        "message": "contextToken is required: use the one from the latest message's terminal context.",
    }
    assert tools.calls == [
        ("list_terminals", ("cqt_token-of-the-session",)),
        ("list_terminals", ("cqt_named",)),
    ]


async def test_an_owner_that_does_not_answer_in_time_gives_a_tool_error_and_its_call_is_cancelled():
    tools = FakeTools()
    tools.read_behaviour = "block"
    server = TerminalMcpServer(tools, asyncio.get_running_loop(), SECRET, call_timeout=0.5)
    server.start()
    try:
        async with mcp_session(server.url) as session:
            result = await asyncio.wait_for(session.call_tool("read_terminal", {"contextToken": "cqt_1"}), 10)
        await asyncio.wait_for(tools.cancelled.wait(), 5)
    finally:
        server.stop()
    assert result.is_error and answer_of(result)["error"]["code"] == "owner-timeout"


async def test_a_closed_owner_loop_gives_a_tool_error_not_a_hang():
    gone = asyncio.new_event_loop()
    gone.close()
    tools = FakeTools()
    server = TerminalMcpServer(tools, gone, SECRET, call_timeout=30.0)
    server.start()
    try:
        async with mcp_session(server.url) as session:
            result = await asyncio.wait_for(session.call_tool("list_terminals", {"contextToken": "c"}), 5)
        # a capability bearer needs the owner to admit it: with the owner gone it is not admitted
        refused = await post(server.port, LIST_CALL, bearer=CAPABILITY)
    finally:
        server.stop()
    assert result.is_error and answer_of(result)["error"]["code"] == "unavailable"
    assert status_of(refused) == 401
    assert tools.calls == []


# --- who may connect ----------------------------------------------------------------------------------
async def test_a_foreign_host_header_is_refused_before_any_tool_runs(served):
    server, tools = served
    port = server.port
    rebinding = await post(port, LIST_CALL, host=f"attacker.example:{port}")
    other_port = await post(port, LIST_CALL, host=f"127.0.0.1:{port + 1}")
    no_port = await post(port, LIST_CALL, host="localhost")
    assert [status_of(r) for r in (rebinding, other_port, no_port)] == [421, 421, 421]
    assert tools.calls == []
    by_name = await post(port, LIST_CALL, host=f"localhost:{port}")
    assert status_of(by_name) == 200 and len(tools.calls) == 1


async def test_a_foreign_origin_is_refused(served):
    server, tools = served
    port = server.port
    refused = [
        await post(port, LIST_CALL, extra=(f"Origin: {origin}",))
        for origin in ("http://attacker.example", "null", f"http://localhost:{port + 1}", "https://127.0.0.1")
    ]
    assert [status_of(r) for r in refused] == [403, 403, 403, 403]
    assert tools.calls == []
    own = await post(port, LIST_CALL, extra=(f"Origin: http://127.0.0.1:{port}",))
    assert status_of(own) == 200 and len(tools.calls) == 1


async def test_a_missing_or_wrong_bearer_gets_401_with_nothing_else(served):
    server, tools = served
    port = server.port
    missing = await post(port, LIST_CALL, bearer=None)
    wrong = await post(port, LIST_CALL, bearer="cqt_not-a-live-one")
    basic = await raw_exchange(
        port,
        request_head(port, len(LIST_CALL), bearer=None, extra=("Authorization: Basic dXNlcjpwYXNz",))
        + LIST_CALL,
    )
    huge = await post(port, LIST_CALL, bearer="x" * 600)
    for response in (missing, wrong, basic, huge):
        assert status_of(response) == 401
        assert response.endswith(b"\r\n\r\nUnauthorized")
        assert b"oauth" not in response.lower() and b"resource_metadata" not in response.lower()
    assert tools.admit_asks == ["cqt_not-a-live-one"]  # the oversized one never reached the owner
    assert tools.calls == []
    # no OAuth discovery documents naming an issuer that does not exist
    for path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"):
        found = await raw_exchange(port, request_head(port, None, method="GET", path=path))
        assert status_of(found) == 404
    by_capability = await post(port, LIST_CALL, bearer=CAPABILITY)
    by_secret = await post(port, LIST_CALL, bearer=SECRET)
    assert status_of(by_capability) == 200 and status_of(by_secret) == 200
    assert len(tools.calls) == 2


async def test_only_post_to_the_mcp_path(served):
    server, _tools = served
    port = server.port
    get = await raw_exchange(port, request_head(port, None, method="GET"))
    delete = await raw_exchange(port, request_head(port, None, method="DELETE"))
    elsewhere = await post(port, LIST_CALL, path="/other")
    slash = await post(port, LIST_CALL, path="/mcp/")
    assert [status_of(r) for r in (get, delete, elsewhere, slash)] == [405, 405, 404, 404]
    assert b"allow: POST" in get
