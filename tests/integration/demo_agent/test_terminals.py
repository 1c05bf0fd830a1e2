"""The demo agent's terminal mode on the wire: the demo agent as a real subprocess driven by the ACP SDK's
client side, ClawQt's real loopback MCP server (`TerminalMcpServer`, uvicorn on 127.0.0.1) in front of a
tools stand-in on this test's loop that records what the agent sent and answers as told (also badly),
and the answer parsing on its own. The real tools on real shells, from the window:
tests/ui/terminals/test_agent_window.py."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from acp.schema import HttpHeader, HttpMcpServer
from mcp_types import CallToolResult, TextContent

from app.contract.hidden_context import OPEN, wrap
from app.demo_agent.terminal_commands import code_span, console_block, parse_action
from app.demo_agent.terminal_tools_client import (
    McpServerRef,
    answer_of,
    context_token,
    http_servers,
    pick_server,
)
from app.main.participation.mcp_server import TerminalMcpServer
from app.main.participation.tools_api import ToolRefused
from tests.integration.demo_agent.wire import NO_PERMISSION, Agent, WireClient, end, start_agent
from tests.waits import until

SECRET = "install-secret-for-the-demo-agent-tests"
BEARER = "cqs_per-session-bearer-of-this-chat"
TOKEN = "cqt_capability-the-user-message-minted"


def hidden(token: str = TOKEN) -> str:
    """The block ClawQt appends to a prompt (the same wrapper, a body like the real one)."""
    return wrap(f"ClawQt terminal access for this chat.\ncontextToken: {token}\nNo terminal is shared.")


# --- the pieces on their own ------------------------------------------------------------------------
def test_commands_parse_into_tool_calls() -> None:
    assert parse_action("terminals", "") == parse_action("terminals", " ")
    assert parse_action("terminals", "").tool == "list_terminals"
    read = parse_action("terminal", "read")
    assert read.tool == "read_terminal" and "terminalId" not in read.arguments and read.kind == "read"
    assert parse_action("terminal", "read t2").arguments["terminalId"] == "t2"
    typed = parse_action("terminal", "type t1 echo  two  spaces $((1+1))")
    assert typed.arguments == {"terminalId": "t1", "text": "echo  two  spaces $((1+1))\r"}
    assert typed.kind == "execute"
    assert parse_action("terminal", "interrupt t3").arguments == {"terminalId": "t3", "interrupt": True}
    assert parse_action("terminal", "open make -j4 test").arguments == {"command": "make -j4 test"}
    for bad in ("", "read a b", "type t1", "type", "interrupt", "interrupt a b", "open", "dance t1"):
        assert parse_action("terminal", bad) is None, bad
    assert parse_action("terminals", "extra") is None


def test_the_capability_comes_only_from_the_hidden_block() -> None:
    assert context_token("/terminal read" + hidden()) == TOKEN
    assert context_token("/terminal read contextToken: cqt_typed-by-the-user") is None
    typed_and_given = "contextToken: cqt_typed-by-the-user" + hidden()
    assert context_token(typed_and_given) == TOKEN
    assert context_token(hidden("cqt_older") + hidden()) == TOKEN  # the last block
    assert context_token(OPEN + "\nno token here") is None
    # ClawQt's proposal block comes after the terminal block and carries no token
    assert context_token("/terminal read" + hidden() + wrap("To propose terminal actions ...")) == TOKEN


def test_only_well_formed_http_servers_are_kept() -> None:
    model = HttpMcpServer(
        type="http",
        name="clawqt-terminals-ab12",
        url="http://127.0.0.1:1/mcp",
        headers=[HttpHeader(name="Authorization", value=f"Bearer {BEARER}")],
    )
    raw = {"type": "http", "name": "other", "url": "http://127.0.0.1:2/mcp", "headers": [{"name": 1}]}
    garbage: list[Any] = [
        None,
        3,
        "x",
        {"type": "http"},
        {"type": "sse", "url": "http://x"},
        {"url": "ftp://x"},
    ]
    servers = http_servers([raw, *garbage, model])
    assert servers == [
        McpServerRef("other", "http://127.0.0.1:2/mcp", ()),
        McpServerRef(
            "clawqt-terminals-ab12", "http://127.0.0.1:1/mcp", (("Authorization", f"Bearer {BEARER}"),)
        ),
    ]
    assert pick_server(servers).name == "clawqt-terminals-ab12"  # ClawQt's own, wherever it is listed
    assert pick_server(servers[:1]).name == "other"
    for nothing in (None, "servers", {"type": "http"}, 7):
        assert http_servers(nothing) == []


def test_bad_answers_become_sentences() -> None:
    def result(text: str | None, is_error: bool = False, structured: Any = None) -> CallToolResult:
        content = [TextContent(type="text", text=text)] if text is not None else []
        return CallToolResult(content=content, is_error=is_error, structured_content=structured)

    good = answer_of(result('{"sent": true}'))
    assert good.ok and good.payload == {"sent": True}
    for text in ("not json", "[1, 2]", '"a string"', "", "[" * 100_000, None):
        answer = answer_of(result(text))
        assert not answer.ok and "cannot read" in answer.message
    refusal = answer_of(result('{"error": {"status": 403, "code": "paused", "message": "Paused."}}', True))
    assert (refusal.ok, refusal.code, refusal.message) == (False, "paused", "Paused.")
    plain = answer_of(result("Error executing tool read_terminal: boom", True))
    assert not plain.ok and plain.message == "Error executing tool read_terminal: boom"
    assert answer_of(result(None, True)).message == "The tool call failed."
    weird = answer_of(result('{"error": ["not", "a", "dict"]}', True))
    assert not weird.ok and weird.message
    assert answer_of(result("x" * 5000, True)).message.endswith("…")
    assert answer_of(object()).ok is False


def test_fences_hold_whatever_the_output_holds() -> None:
    assert console_block("a\n```\nb") == "````console\na\n```\nb\n````"
    assert console_block("") == "```console\n(no output yet)\n```"
    assert code_span("echo `date`") == "`` echo `date` ``"  # CommonMark drops one space each side
    assert code_span("plain") == "`plain`"


# --- the demo agent against the real server ----------------------------------------------------------
class Tools:
    """The tools behind the real server: records every call (with the capability it named) and answers
    from `answers` (a dict, a ToolRefused to raise, or an exception for an internal error)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.bearers: list[str] = []
        self.answers: dict[str, Any] = {
            "list_terminals": {"sessions": [], "recentTerminalIds": []},
            "read_terminal": {
                "terminalId": "t1",
                "status": "running",
                "output": "hello\n",
                "nextSequence": 2,
            },
            "send_terminal_input": {"sent": True},
            "open_terminal": {"requestId": "r", "state": "pending", "terminalId": "t9"},
        }

    def admits_bearer(self, token: str) -> bool:
        self.bearers.append(token)
        return token == BEARER

    def context_token_for_bearer(self, token: str) -> str | None:
        return "cqt_from-the-bearer" if token == BEARER else None

    async def _answer(self, name: str, *args: Any) -> dict[str, Any]:
        self.calls.append((name, args))
        answer = self.answers[name]
        if isinstance(answer, BaseException):
            raise answer
        return answer

    async def list_terminals(self, *args: Any) -> dict[str, Any]:
        return await self._answer("list_terminals", *args)

    async def read_terminal(self, *args: Any) -> dict[str, Any]:
        return await self._answer("read_terminal", *args)

    async def send_terminal_input(self, *args: Any) -> dict[str, Any]:
        return await self._answer("send_terminal_input", *args)

    async def open_terminal(self, *args: Any) -> dict[str, Any]:
        return await self._answer("open_terminal", *args)


def server_entry(url: str, bearer: str = BEARER, name: str = "clawqt-terminals-test") -> HttpMcpServer:
    headers = [HttpHeader(name="Authorization", value=f"Bearer {bearer}")]
    return HttpMcpServer(type="http", name=name, url=url, headers=headers)


@pytest.fixture
async def served() -> AsyncIterator[tuple[TerminalMcpServer, Tools]]:
    tools = Tools()
    server = TerminalMcpServer(tools, asyncio.get_running_loop(), SECRET, call_timeout=20.0)
    await asyncio.get_running_loop().run_in_executor(None, server.start)
    try:
        yield server, tools
    finally:
        await asyncio.get_running_loop().run_in_executor(None, server.stop)


@pytest.fixture
async def spawn(tmp_path: Path) -> AsyncIterator[Callable[[], Awaitable[Agent]]]:
    started: list[Agent] = []

    async def factory() -> Agent:
        client = WireClient(permission=NO_PERMISSION)
        agent = await start_agent(tmp_path / "data", tmp_path / "agent-stderr.log", client)
        started.append(agent)
        return agent

    yield factory
    for agent in started:
        await end(agent)


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_it_announces_http_mcp_and_the_terminal_commands(spawn, tmp_path) -> None:
    agent = await spawn()
    assert agent.initialize["agentCapabilities"]["mcpCapabilities"]["http"] is True
    session = await agent.conn.new_session(cwd=str(tmp_path))
    await until(lambda: agent.client.raw_updates(session.session_id, "available_commands_update"), 5)
    (commands,) = agent.client.raw_updates(session.session_id, "available_commands_update")
    names = {c["name"] for c in commands["availableCommands"]}
    assert {"terminals", "terminal"} <= names


async def test_without_a_server_it_says_so_and_an_unreachable_one_is_a_failed_tool(spawn, tmp_path) -> None:
    agent = await spawn()
    session = await agent.conn.new_session(cwd=str(tmp_path))
    sid = session.session_id
    stop, reply = await agent.ask(sid, "/terminals", hidden())
    assert stop == "end_turn" and "No terminal server was given" in reply
    assert not agent.client.raw_updates(sid, "tool_call")

    gone = f"http://127.0.0.1:{free_port()}/mcp"
    await agent.conn.resume_session(cwd=str(tmp_path), session_id=sid, mcp_servers=[server_entry(gone)])
    stop, reply = await agent.ask(sid, "/terminal read t1", hidden())
    assert stop == "end_turn" and "could not reach the terminal tools" in reply
    (update,) = [u for u in agent.client.raw_updates(sid, "tool_call_update") if u.get("status")]
    assert update["status"] == "failed"
    assert (await agent.ask(sid, "/echo still here"))[1] == "still here"


async def test_it_calls_with_the_given_bearer_and_the_prompt_capability_and_never_shows_it(
    spawn, served, tmp_path
) -> None:
    server, tools = served
    agent = await spawn()
    session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[server_entry(server.url)])
    sid = session.session_id

    _stop, reply = await agent.ask(sid, "/terminal read", hidden())
    assert "```console\nhello\n```" in reply and "**t1** (running)" in reply
    assert tools.calls[-1] == ("read_terminal", (TOKEN, None, None, 8192, None))
    assert BEARER in tools.bearers and SECRET not in tools.bearers

    await agent.ask(sid, "/terminal type t1 echo hi", hidden())
    assert tools.calls[-1] == ("send_terminal_input", (TOKEN, "t1", "echo hi\r", False))
    await agent.ask(sid, "/terminal interrupt t1", hidden())
    assert tools.calls[-1] == ("send_terminal_input", (TOKEN, "t1", None, True))
    await agent.ask(sid, "/terminals")  # no hidden block: the server's bearer stands for the chat
    assert tools.calls[-1] == ("list_terminals", ("cqt_from-the-bearer",))

    starts = agent.client.raw_updates(sid, "tool_call")
    assert [u["kind"] for u in starts] == ["read", "execute", "execute", "read"]
    sent_back = json.dumps(agent.client.raw_updates(sid))
    assert TOKEN not in sent_back and BEARER not in sent_back


async def test_refusals_and_broken_answers_are_said_never_crash(spawn, served, tmp_path) -> None:
    server, tools = served
    agent = await spawn()
    session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[server_entry(server.url)])
    sid = session.session_id

    tools.answers["read_terminal"] = ToolRefused(403, "paused", "The user paused sharing of this terminal.")
    stop, reply = await agent.ask(sid, "/terminal read t1", hidden())
    assert stop == "end_turn" and "The user paused sharing of this terminal." in reply
    tools.answers["read_terminal"] = ValueError("a bug on the other side")
    stop, reply = await agent.ask(sid, "/terminal read t1", hidden())
    assert stop == "end_turn" and "could not complete this call" in reply
    tools.answers["read_terminal"] = {
        "output": 5,
        "status": None,
        "excludedOutput": "yes",
        "nextSequence": "x",
    }
    stop, reply = await agent.ask(sid, "/terminal read t1", hidden())
    assert stop == "end_turn" and "(no output yet)" in reply
    tools.answers["list_terminals"] = {"sessions": ["x", {"terminalId": 4}, None]}
    stop, reply = await agent.ask(sid, "/terminals", hidden())
    assert stop == "end_turn" and "**?**" in reply
    tools.answers["open_terminal"] = {"state": 12}
    stop, reply = await agent.ask(sid, "/terminal open true", hidden())
    assert stop == "end_turn" and "could not start" in reply
    assert (await agent.ask(sid, "/echo fine"))[1] == "fine"
    assert agent.proc.returncode is None


async def test_a_pending_open_is_asked_again_with_the_same_request_and_a_cancel_stops_it(
    spawn, served, tmp_path
) -> None:
    server, tools = served
    agent = await spawn()
    session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[server_entry(server.url)])
    sid = session.session_id
    turn = asyncio.ensure_future(agent.ask(sid, "/terminal open touch x", hidden()))
    await until(lambda: len(tools.calls) >= 2, 10)
    await until(lambda: "Waiting for you to open the terminal" in agent.client.text(sid), 5)
    request_ids = {args[1] for name, args in tools.calls}
    assert len(request_ids) == 1  # the same requestId every time
    tools.answers["open_terminal"] = {"requestId": "r", "state": "expired", "terminalId": "t9"}
    stop, reply = await asyncio.wait_for(turn, 10)
    assert stop == "end_turn" and "expired" in reply and "never ran" in reply

    tools.answers["open_terminal"] = {"requestId": "r", "state": "pending", "terminalId": "t10"}
    turn = asyncio.ensure_future(agent.ask(sid, "/terminal open sleep 1", hidden()))
    await until(lambda: agent.client.text(sid).count("Waiting for you") == 2, 10)
    await agent.conn.cancel(session_id=sid)
    stop, _reply = await asyncio.wait_for(turn, 5)
    assert stop == "cancelled"
    last = [u for u in agent.client.raw_updates(sid, "tool_call_update") if u.get("status")][-1]
    assert last["status"] == "failed"


async def test_load_and_resume_replace_the_servers_and_the_history_keeps_the_block(
    spawn, served, tmp_path
) -> None:
    server, tools = served
    agent = await spawn()
    gone = f"http://127.0.0.1:{free_port()}/mcp"
    session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[server_entry(gone)])
    sid = session.session_id
    assert (await agent.ask(sid, "/echo hi", hidden()))[1] == "hi"  # routed by the user's words

    second = await spawn()  # a new connection: load names the servers anew
    await second.conn.load_session(cwd=str(tmp_path), session_id=sid, mcp_servers=[server_entry(server.url)])
    (echo,) = second.client.raw_updates(sid, "user_message_chunk")
    assert echo["content"]["text"] == "/echo hi\n" + hidden()  # the whole prompt, as a model keeps it
    stored = json.loads((tmp_path / "data" / "demo-agent" / "sessions" / f"{sid}.json").read_text())
    assert stored["title"] == "/echo hi"
    _stop, reply = await second.ask(sid, "/terminals", hidden())
    assert "No terminal is shared with this chat" in reply and tools.calls[-1][0] == "list_terminals"

    await second.conn.resume_session(cwd=str(tmp_path), session_id=sid, mcp_servers=[])
    assert "No terminal server was given" in (await second.ask(sid, "/terminals", hidden()))[1]


async def test_a_bearer_the_server_refuses_is_said_and_the_tools_never_run(spawn, served, tmp_path) -> None:
    server, tools = served
    agent = await spawn()
    wrong = server_entry(server.url, bearer="cqs_not-given-by-clawqt")
    session = await agent.conn.new_session(cwd=str(tmp_path), mcp_servers=[wrong])
    stop, reply = await agent.ask(session.session_id, "/terminal read t1", hidden())
    assert stop == "end_turn" and "could not reach the terminal tools" in reply
    assert tools.calls == [] and "cqs_not-given-by-clawqt" in tools.bearers
