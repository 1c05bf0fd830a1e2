"""The terminal tools through the real loopback MCP server on real shells: capabilities, pinning,
pauses, status-only sharing, long polls losing authorization, deadlines, per-session bearers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession

from app.contract.user_terminals import UserTerminalChangedEnvelope
from app.main.participation.bearers import SessionBearers
from app.main.participation.capabilities import CapabilityStore
from app.main.participation.mcp_server import TerminalMcpServer
from app.main.participation.tools import TerminalTools
from app.main.terminals.user import UserTerminals
from tests.integration.participation.mcp_client import (
    LIST_CALL,
    SECRET,
    answer_of,
    mcp_session,
    post,
    status_of,
)


# --- the real tools over real shells ------------------------------------------------------------------
class Clock:
    """Real time plus an offset a test moves forward (capability expiry, open deadlines)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset


class PanelStandIn:
    """What the panel does with an agent's request for a terminal: sees the pending tab and, when told
    to, says it is ready (the PTY starts only then)."""

    def __init__(self, terminals: UserTerminals, acknowledge: bool) -> None:
        self.terminals = terminals
        self.acknowledge = acknowledge
        self.pending: list[str] = []
        self.seen_pending = asyncio.Event()
        terminals.subscribe(self)

    def __call__(self, envelope: Any) -> None:
        if not isinstance(envelope, UserTerminalChangedEnvelope) or envelope.info.state != "pending":
            return
        if envelope.info.terminal_id not in self.pending:
            self.pending.append(envelope.info.terminal_id)
            self.seen_pending.set()
            if self.acknowledge:
                asyncio.get_running_loop().call_soon(self.terminals.ready, envelope.info.terminal_id, 80, 24)


class Live:
    def __init__(
        self,
        root: Path,
        clock: Clock,
        terminals: UserTerminals,
        capabilities: CapabilityStore,
        bearers: SessionBearers,
        server: TerminalMcpServer,
    ) -> None:
        self.bearers = bearers
        self.root = root
        self.clock = clock
        self.terminals = terminals
        self.capabilities = capabilities
        self.server = server
        self.panel = PanelStandIn(terminals, acknowledge=True)

    def user_opens_shared_terminal(self, sharing: str = "shared") -> str:
        terminal_id = self.terminals.open(None, 0, 80, 24)
        self.terminals.set_sharing(terminal_id, sharing)
        return terminal_id

    def token_of(self, session_key: str) -> str:
        """The user sent a message in that chat."""
        return self.capabilities.mint_for_user_message(session_key).token

    async def user_output_contains(self, terminal_id: str, needle: str, timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while needle not in self.terminals.output(terminal_id):
                await asyncio.sleep(0.02)  # the poll's interval


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[Live]:
    root = tmp_path / "workspace"
    root.mkdir()
    clock = Clock()
    terminals = UserTerminals(str(root), lambda _key, _generation: None, shell=["/bin/sh"], clock=clock)
    capabilities = CapabilityStore(clock=clock)
    bearers = SessionBearers()
    tools = TerminalTools(terminals, capabilities, lambda _key: "Test agent", SECRET, bearers, clock=clock)
    server = TerminalMcpServer(tools, asyncio.get_running_loop(), SECRET)
    server.start()
    try:
        yield Live(root, clock, terminals, capabilities, bearers, server)
    finally:
        server.stop()
        await terminals.shutdown()


async def read_until(
    session: ClientSession, token: str, terminal_id: str, needle: str, after: int = 0, timeout: float = 10.0
) -> tuple[str, int]:
    """Long-poll read_terminal from `after` until `needle` shows up; the text read and the next sequence."""
    text = ""
    async with asyncio.timeout(timeout):
        while needle not in text:
            result = await session.call_tool(
                "read_terminal",
                {"contextToken": token, "terminalId": terminal_id, "afterSequence": after, "waitMs": 2000},
            )
            assert not result.is_error, result.content[0].text
            answer = answer_of(result)
            text += answer["output"]
            after = answer["nextSequence"]
    return text, after


def refusal_code(result: Any) -> str:
    assert result.is_error, result.content[0].text
    return answer_of(result)["error"]["code"]


async def test_every_tool_through_the_real_server_on_a_real_shell(live):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        listed = answer_of(await session.call_tool("list_terminals", {"contextToken": token}))
        assert listed["recentTerminalIds"] == [terminal_id]
        assert listed["sessions"][0]["agentMode"] == "shared"
        sent = await session.call_tool(
            "send_terminal_input",
            {"contextToken": token, "terminalId": terminal_id, "text": "echo hi-$((6*7))\n"},
        )
        assert answer_of(sent) == {"sent": True}
        text, after = await read_until(session, token, terminal_id, "hi-42")
        assert "\x1b" not in text
        # Ctrl-C ends a 30 s sleep at once (and adds no newline of its own)
        await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": terminal_id, "text": "sleep 30\n"}
        )
        await asyncio.sleep(0.3)  # `sleep 30` runs before the interrupt
        interrupted = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": terminal_id, "interrupt": True}
        )
        assert not interrupted.is_error
        await session.call_tool(
            "send_terminal_input",
            {"contextToken": token, "terminalId": terminal_id, "text": "echo back-$((1+1))\n"},
        )
        await read_until(session, token, terminal_id, "back-2", after=after, timeout=8)
        # an agent-launched terminal: the panel says it is ready, then its command runs
        opened = answer_of(
            await session.call_tool(
                "open_terminal",
                {"contextToken": token, "requestId": "req-1", "command": "echo opened-$((2+3))"},
            )
        )
        assert opened["state"] == "started" and opened["requestId"] == "req-1"
        await read_until(session, token, opened["terminalId"], "opened-5")
        again = answer_of(
            await session.call_tool("open_terminal", {"contextToken": token, "requestId": "req-1"})
        )
        assert again["terminalId"] == opened["terminalId"]  # the same request, not a second terminal
    assert live.terminals.info(opened["terminalId"]).pinned_session == "chat-a"


async def test_an_expired_capability_is_refused(live):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        fresh = await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        live.clock.offset += 3601
        expired = await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        unknown = await session.call_tool("list_terminals", {"contextToken": "cqt_made-up-by-the-model"})
    assert not fresh.is_error
    assert refusal_code(expired) == "capability-expired"
    assert refusal_code(unknown) == "capability-unknown"


async def test_a_token_of_another_chat_cannot_reach_a_terminal_pinned_to_this_one(live):
    terminal_id = live.user_opens_shared_terminal()
    live.terminals.pin(terminal_id, "chat-b")
    token_a, token_b = live.token_of("chat-a"), live.token_of("chat-b")
    async with mcp_session(live.server.url) as session:
        read_a = await session.call_tool(
            "read_terminal", {"contextToken": token_a, "terminalId": terminal_id}
        )
        write_a = await session.call_tool(
            "send_terminal_input",
            {"contextToken": token_a, "terminalId": terminal_id, "text": "touch from-a\n"},
        )
        listed_a = answer_of(await session.call_tool("list_terminals", {"contextToken": token_a}))
        read_b = await session.call_tool(
            "read_terminal", {"contextToken": token_b, "terminalId": terminal_id}
        )
    assert refusal_code(read_a) == "pinned-to-another-chat"
    assert refusal_code(write_a) == "pinned-to-another-chat"
    assert listed_a["sessions"] == [] and listed_a["recentTerminalIds"] == []
    assert not read_b.is_error
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not (live.root / "from-a").exists()


async def test_a_chunk_that_arrived_while_paused_is_never_returned_also_after_resuming(live):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    live.terminals.input(terminal_id, "echo before-$((2*2))\n")
    await live.user_output_contains(terminal_id, "before-4")
    live.terminals.set_sharing(terminal_id, "off")
    live.terminals.input(terminal_id, "echo secret-$((3*3))\n")
    await live.user_output_contains(terminal_id, "secret-9")
    async with mcp_session(live.server.url) as session:
        paused = await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        live.terminals.set_sharing(terminal_id, "shared")
        live.terminals.input(terminal_id, "echo after-$((4*4))\n")
        await live.user_output_contains(terminal_id, "after-16")
        text, _after = await read_until(session, token, terminal_id, "after-16")
        newest = answer_of(
            await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        )
    assert refusal_code(paused) == "paused"
    assert "before-4" in text and "after-16" in text
    assert "secret" not in text and "secret" not in newest["output"]  # neither the echo nor the output
    assert newest["excludedOutput"] is True


async def test_status_only_gives_status_and_refuses_input(live):
    terminal_id = live.user_opens_shared_terminal(sharing="status-only")
    token = live.token_of("chat-a")
    live.terminals.input(terminal_id, "echo private-$((5*5))\n")
    await live.user_output_contains(terminal_id, "private-25")
    async with mcp_session(live.server.url) as session:
        read = answer_of(
            await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        )
        write = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": terminal_id, "text": "touch typed\n"}
        )
        interrupt = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": terminal_id, "interrupt": True}
        )
    assert read["statusOnly"] is True and read["output"] == "" and read["status"] == "running"
    assert refusal_code(write) == "status-only" and refusal_code(interrupt) == "status-only"
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not (live.root / "typed").exists()


async def test_a_write_without_a_terminal_id_is_refused(live):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        missing = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "text": "touch guessed\n"}
        )
        empty = await session.call_tool(
            "send_terminal_input", {"contextToken": token, "terminalId": "", "text": "touch guessed\n"}
        )
        listed = answer_of(await session.call_tool("list_terminals", {"contextToken": token}))
    assert missing.is_error and "terminalId" in missing.content[0].text
    assert refusal_code(empty) == "terminal-id-required"
    assert listed["recentTerminalIds"] == [terminal_id]  # there was an obvious target; none was guessed
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not (live.root / "guessed").exists()
    assert not live.terminals.info(terminal_id).agent_sent_input


@pytest.mark.parametrize("change", ["paused", "pinned elsewhere"])
async def test_a_long_poll_that_loses_authorization_while_waiting_is_refused(live, change):
    terminal_id = live.user_opens_shared_terminal()
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        first = answer_of(
            await session.call_tool("read_terminal", {"contextToken": token, "terminalId": terminal_id})
        )
        started = time.monotonic()
        poll = asyncio.ensure_future(
            session.call_tool(
                "read_terminal",
                {
                    "contextToken": token,
                    "terminalId": terminal_id,
                    "afterSequence": first["nextSequence"],
                    "waitMs": 15000,
                },
            )
        )
        await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
        assert not poll.done()
        if change == "paused":
            live.terminals.set_sharing(terminal_id, "off")
        else:
            live.terminals.pin(terminal_id, "chat-b")
        live.terminals.input(terminal_id, "echo during-$((7*7))\n")
        result = await asyncio.wait_for(poll, 10)
    assert time.monotonic() - started < 10  # answered by the change, not by the end of the wait
    expected = "paused" if change == "paused" else "pinned-to-another-chat"
    assert refusal_code(result) == expected
    assert "during" not in result.content[0].text


async def test_an_open_request_past_its_deadline_never_runs_its_command(live):
    live.panel.acknowledge = False  # the user does not open it in time
    token = live.token_of("chat-a")
    async with mcp_session(live.server.url) as session:
        asking = asyncio.ensure_future(
            session.call_tool(
                "open_terminal", {"contextToken": token, "requestId": "late", "command": "touch marker"}
            )
        )
        await asyncio.wait_for(live.panel.seen_pending.wait(), 10)
        live.clock.offset += 31  # the 30 s deadline passes
        answer = answer_of(await asyncio.wait_for(asking, 15))
        terminal_id = live.panel.pending[0]
        live.terminals.ready(terminal_id, 80, 24)  # the panel shows it after all: too late
        retried = answer_of(
            await session.call_tool("open_terminal", {"contextToken": token, "requestId": "late"})
        )
        # the same command in time does run: the marker proof can fail
        live.panel.acknowledge = True
        in_time = answer_of(
            await session.call_tool(
                "open_terminal",
                {"contextToken": token, "requestId": "in-time", "command": "touch marker-in-time"},
            )
        )
    assert answer["state"] == "expired" and retried["state"] == "expired"
    assert retried["terminalId"] == terminal_id == answer["terminalId"]
    assert in_time["state"] == "started"
    async with asyncio.timeout(10):
        while not (live.root / "marker-in-time").exists():
            await asyncio.sleep(0.05)  # the poll's interval
    await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
    assert not (live.root / "marker").exists()
    assert live.terminals.info(terminal_id).state == "expired"


async def test_a_per_session_bearer_acts_for_its_chat_only_while_the_user_keeps_it_alive(live):
    terminal_id = live.user_opens_shared_terminal()
    bearer = live.bearers.issue_unbound()  # given to the agent in session/new
    live.bearers.bind(bearer, "chat-a")
    async with mcp_session(live.server.url, bearer=bearer) as session:
        before = await session.call_tool("list_terminals", {})
        live.token_of("chat-a")  # the user sends a message in that chat
        after = answer_of(await session.call_tool("list_terminals", {}))
        live.clock.offset += 3601
        lapsed = await session.call_tool("list_terminals", {})
    never_issued = await post(live.server.port, LIST_CALL, bearer="cqs_never-issued")
    assert status_of(never_issued) == 401
    assert refusal_code(before) == "no-live-capability"
    assert after["recentTerminalIds"] == [terminal_id]
    assert refusal_code(lapsed) == "no-live-capability"
