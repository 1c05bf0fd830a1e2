"""The user's terminals on real PTY shells and the terminal tools over them (owner side, no MCP wire:
tests/integration/participation/test_mcp_tools_live.py drives the same tools through the real server)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from app.contract.user_terminals import UserTerminalActivityEnvelope
from app.main.participation.capabilities import CapabilityStore
from app.main.participation.tools import TerminalTools
from app.main.participation.tools_api import ToolRefused
from app.main.terminals.user import OPEN_DEADLINE_SECONDS, UserTerminals

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX shells")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def setup(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PS1", "$ ")  # the same prompt for root and users
    clock = Clock()
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"], clock=clock)
    capabilities = CapabilityStore(clock)
    tools = TerminalTools(
        terminals, capabilities, lambda _key: "Agent", "secret-of-this-install", clock=clock
    )
    envelopes: list = []
    terminals.subscribe(envelopes.append)
    yield terminals, capabilities, tools, clock, envelopes
    await terminals.shutdown()


async def until(predicate, timeout: float = 10.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not reached")
        await asyncio.sleep(0.02)  # the poll's interval


async def read_until(tools, token, terminal_id, text, after=None):
    seen = ""
    sequence = after
    for _ in range(100):
        answer = await tools.read_terminal(token, terminal_id, after_sequence=sequence, wait_ms=200)
        seen += answer["output"]
        sequence = answer["nextSequence"]
        if text in seen:
            return seen, sequence
    raise AssertionError(f"{text!r} never read; saw {seen!r}")


async def assert_ctrl_c_stops_a_running_command(tools, token, terminal_id):
    """`sleep 30` interrupted by the tool's Ctrl-C: its follow-up never prints, the next command runs."""
    await tools.send_terminal_input(token, terminal_id, "sleep 30; echo not-$((4+4))\r")
    await asyncio.sleep(0.3)  # `sleep 30` runs before the Ctrl-C
    await tools.send_terminal_input(token, terminal_id, interrupt=True)
    await tools.send_terminal_input(token, terminal_id, "echo after-$((2+3))\r")
    seen, _ = await read_until(tools, token, terminal_id, "after-5")
    assert "not-8" not in seen


async def test_a_user_terminal_is_a_real_shell_started_in_the_workspace(setup, tmp_path):
    terminals, _caps, _tools, _clock, _envelopes = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.input(terminal_id, "pwd; echo done-$((1+1))\r")
    await until(lambda: "done-2" in terminals.output(terminal_id))
    assert str(tmp_path.resolve()) in terminals.output(terminal_id)
    info = terminals.info(terminal_id)
    assert info is not None and info.sharing == "off" and info.state == "running"


async def test_a_session_folder_outside_the_workspace_root_is_not_used(tmp_path):
    outside = tmp_path.parent / (tmp_path.name + "-outside")
    outside.mkdir()
    inner = tmp_path / "project"
    inner.mkdir()
    folders = {"inside": str(inner), "outside": str(outside)}
    terminals = UserTerminals(str(tmp_path), lambda key, generation: folders.get(key), shell=["/bin/sh"])
    assert terminals.folder_for("inside", 1) == str(inner.resolve())
    assert terminals.folder_for("outside", 1) == str(tmp_path.resolve())
    assert terminals.folder_for(None, 0) == str(tmp_path.resolve())


async def test_resizing_gives_the_shell_the_new_size(setup):
    terminals, *_ = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.resize(terminal_id, 133, 41)
    terminals.input(terminal_id, "stty size\r")
    await until(lambda: "41 133" in terminals.output(terminal_id))


async def test_human_recency_moves_on_creation_focus_and_input_never_on_output_or_agent_activity(setup):
    terminals, caps, tools, _clock, _envelopes = setup
    first = terminals.open(None, 0, 80, 24)
    second = terminals.open(None, 0, 80, 24)
    assert [info.terminal_id for info in terminals.by_human_recency()] == [second, first]
    terminals.focus(first)
    assert terminals.by_human_recency()[0].terminal_id == first
    terminals.input(second, "echo x\r")
    assert terminals.by_human_recency()[0].terminal_id == second
    terminals.set_sharing(first, "shared")
    token = caps.mint_for_user_message("chat-a").token
    await tools.send_terminal_input(token, first, "echo from-agent\r")
    await read_until(tools, token, first, "from-agent")
    assert terminals.by_human_recency()[0].terminal_id == second


async def test_a_shared_terminal_is_read_and_typed_into_and_the_banner_hears_of_it(setup):
    terminals, caps, tools, _clock, envelopes = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.set_sharing(terminal_id, "shared")
    token = caps.mint_for_user_message("chat-a").token
    listed = await tools.list_terminals(token)
    assert [entry["terminalId"] for entry in listed["sessions"]] == [terminal_id]
    assert listed["recentTerminalIds"] == [terminal_id]
    assert (await tools.send_terminal_input(token, terminal_id, "echo \x1b[1mBOLD\x1b[0m-$((6*7))\r")) == {
        "sent": True
    }
    seen, _ = await read_until(tools, token, terminal_id, "BOLD-42")
    assert "\x1b" not in seen  # escape sequences rendered away
    assert terminals.info(terminal_id).agent_sent_input
    kinds = {(e.activity, e.agent_label) for e in envelopes if isinstance(e, UserTerminalActivityEnvelope)}
    assert ("input", "Agent") in kinds and ("read", "Agent") in kinds


async def test_interrupt_is_ctrl_c_without_a_newline(setup):
    terminals, caps, tools, *_ = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.set_sharing(terminal_id, "shared")
    token = caps.mint_for_user_message("chat-a").token
    await assert_ctrl_c_stops_a_running_command(tools, token, terminal_id)


async def test_paused_output_is_never_returned_also_after_sharing_resumes(setup):
    terminals, caps, tools, *_ = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.set_sharing(terminal_id, "shared")
    token = caps.mint_for_user_message("chat-a").token
    _seen, sequence = await read_until(tools, token, terminal_id, "$")
    terminals.set_sharing(terminal_id, "off")
    terminals.input(terminal_id, "echo secret-$((100+23))\r")
    await until(lambda: "secret-123" in terminals.output(terminal_id))
    with pytest.raises(ToolRefused) as refused:
        await tools.read_terminal(token, terminal_id)
    assert refused.value.status == 403 and refused.value.code == "paused"
    terminals.set_sharing(terminal_id, "shared")
    terminals.input(terminal_id, "echo public-$((1+1))\r")
    seen, _ = await read_until(tools, token, terminal_id, "public-2", after=sequence)
    assert "secret-123" not in seen
    whole = await tools.read_terminal(token, terminal_id, after_sequence=0)
    assert whole["excludedOutput"] is True and "secret-123" not in whole["output"]
    newest = await tools.read_terminal(token, terminal_id)
    assert "secret-123" not in newest["output"]


async def test_status_only_gives_status_and_refuses_input(setup):
    terminals, caps, tools, *_ = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.set_sharing(terminal_id, "status-only")
    token = caps.mint_for_user_message("chat-a").token
    answer = await tools.read_terminal(token, terminal_id, after_sequence=0)
    assert answer["statusOnly"] is True and answer["output"] == "" and answer["status"] == "running"
    with pytest.raises(ToolRefused) as refused:
        await tools.send_terminal_input(token, terminal_id, "echo no\r")
    assert (refused.value.status, refused.value.code) == (403, "status-only")


async def test_a_write_without_a_terminal_id_is_refused(setup):
    terminals, caps, tools, *_ = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.set_sharing(terminal_id, "shared")
    token = caps.mint_for_user_message("chat-a").token
    for missing in (None, ""):
        with pytest.raises(ToolRefused) as refused:
            await tools.send_terminal_input(token, missing, "echo guessed\r")
        assert (refused.value.status, refused.value.code) == (422, "terminal-id-required")
    assert not terminals.info(terminal_id).agent_sent_input


async def test_an_expired_token_and_another_chats_token_on_a_pinned_terminal_are_refused(setup):
    terminals, caps, tools, clock, _ = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.set_sharing(terminal_id, "shared")
    token_a = caps.mint_for_user_message("chat-a").token
    token_b = caps.mint_for_user_message("chat-b").token
    terminals.pin(terminal_id, "chat-b")
    with pytest.raises(ToolRefused) as refused:
        await tools.read_terminal(token_a, terminal_id)
    assert (refused.value.status, refused.value.code) == (403, "pinned-to-another-chat")
    assert (await tools.list_terminals(token_a))["sessions"] == []
    assert (await tools.read_terminal(token_b, terminal_id))["agentMode"] == "shared"
    clock.now += 3601
    with pytest.raises(ToolRefused) as refused:
        await tools.read_terminal(token_b, terminal_id)
    assert (refused.value.status, refused.value.code) == (401, "capability-expired")
    with pytest.raises(ToolRefused):
        await tools.list_terminals("cqt_made-up-by-the-model")


async def test_a_long_poll_that_loses_sharing_while_waiting_is_refused(setup):
    terminals, caps, tools, *_ = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.set_sharing(terminal_id, "shared")
    token = caps.mint_for_user_message("chat-a").token
    _seen, sequence = await read_until(tools, token, terminal_id, "$")
    waiting = asyncio.ensure_future(
        tools.read_terminal(token, terminal_id, after_sequence=sequence, wait_ms=5000)
    )
    await asyncio.sleep(0.2)  # time for what must not happen to show: an absence has no event
    assert not waiting.done()
    terminals.set_sharing(terminal_id, "off")
    terminals.input(terminal_id, "echo typed-while-paused\r")
    with pytest.raises(ToolRefused) as refused:
        await asyncio.wait_for(waiting, 2)
    assert refused.value.code == "paused"


async def test_a_long_poll_returns_as_soon_as_output_arrives(setup):
    terminals, caps, tools, *_ = setup
    terminal_id = terminals.open(None, 0, 80, 24)
    terminals.set_sharing(terminal_id, "shared")
    token = caps.mint_for_user_message("chat-a").token
    _seen, sequence = await read_until(tools, token, terminal_id, "$")
    waiting = asyncio.ensure_future(
        tools.read_terminal(token, terminal_id, after_sequence=sequence, wait_ms=15000)
    )
    await asyncio.sleep(0.2)  # the read waits before the output comes
    terminals.input(terminal_id, "echo arrived-$((3*3))\r")
    answer = await asyncio.wait_for(waiting, 5)
    assert answer["nextSequence"] > sequence and answer["output"]


async def test_an_agent_opened_terminal_runs_only_after_the_user_opens_it(setup, tmp_path):
    terminals, caps, tools, *_ = setup
    token = caps.mint_for_user_message("chat-a").token
    first = await asyncio.wait_for(
        asyncio.ensure_future(_open_soon(tools, token, "req-1", "touch opened-marker")), 1
    )
    assert first["state"] == "pending"
    terminal_id = first["terminalId"]
    info = terminals.info(terminal_id)
    assert (
        info.state == "pending" and info.pinned_session == "chat-a" and info.command == "touch opened-marker"
    )
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not (tmp_path / "opened-marker").exists()
    answering = asyncio.ensure_future(tools.open_terminal(token, "req-1", command="touch opened-marker"))
    await asyncio.sleep(0.1)  # the open request waits before the terminal is ready
    terminals.ready(terminal_id, 80, 24)
    answer = await asyncio.wait_for(answering, 5)
    assert answer == {"requestId": "req-1", "state": "started", "terminalId": terminal_id}
    await until(lambda: (tmp_path / "opened-marker").exists())
    assert len(terminals.terminals()) == 1  # the retry with the same requestId opened nothing new


async def _open_soon(tools, token, request_id, command):
    """open_terminal waits up to 10 s for the user; give it a short leash here."""
    import app.main.participation.tools as module

    saved, module.OPEN_WAIT_SECONDS = module.OPEN_WAIT_SECONDS, 0.2
    try:
        return await tools.open_terminal(token, request_id, command=command)
    finally:
        module.OPEN_WAIT_SECONDS = saved


async def test_an_open_whose_deadline_passed_never_runs_its_command(setup, tmp_path):
    terminals, caps, tools, clock, _ = setup
    token = caps.mint_for_user_message("chat-a").token
    first = await _open_soon(tools, token, "late", "touch late-marker")
    terminal_id = first["terminalId"]
    clock.now += OPEN_DEADLINE_SECONDS + 1
    terminals.ready(terminal_id, 80, 24)  # the panel shows it too late
    assert terminals.info(terminal_id).state == "expired"
    again = await _open_soon(tools, token, "late", "touch late-marker")
    assert again["state"] == "expired"
    await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
    assert not (tmp_path / "late-marker").exists()


async def test_a_refused_open_never_runs_and_cwd_outside_the_workspace_is_refused(setup, tmp_path):
    terminals, caps, tools, *_ = setup
    token = caps.mint_for_user_message("chat-a").token
    first = await _open_soon(tools, token, "no", "touch refused-marker")
    terminals.refuse(first["terminalId"])
    terminals.ready(first["terminalId"], 80, 24)
    assert (await _open_soon(tools, token, "no", "x"))["state"] == "expired"
    await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
    assert not (tmp_path / "refused-marker").exists()
    with pytest.raises(ToolRefused) as refused:
        await tools.open_terminal(token, "escape", command="true", cwd="../..")
    assert refused.value.code == "cwd-outside-workspace"


async def test_shutdown_leaves_no_shell_behind_not_even_a_zombie(tmp_path):
    terminals = UserTerminals(str(tmp_path), lambda key, generation: None, shell=["/bin/sh"])
    ids = [terminals.open(None, 0, 80, 24) for _ in range(3)]
    pids = [terminals._terminals[terminal_id].pty.pid for terminal_id in ids]
    terminals.close(ids[0])  # closed earlier by the user
    await terminals.shutdown()
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left for anyone


async def test_ctrl_c_and_pipes_work_even_when_clawqt_was_started_with_sigint_ignored(setup):
    """A parent started in the background ignores SIGINT, and Python ignores SIGPIPE: a terminal's
    programs must still get both at their defaults (ignored signals survive exec)."""
    import signal

    terminals, caps, tools, *_ = setup
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        terminal_id = terminals.open(None, 0, 80, 24)
    finally:
        signal.signal(signal.SIGINT, previous)
    terminals.set_sharing(terminal_id, "shared")
    token = caps.mint_for_user_message("chat-a").token
    await tools.send_terminal_input(token, terminal_id, "yes | head -n 1 > /dev/null; echo piped-$((1+2))\r")
    seen, _ = await read_until(tools, token, terminal_id, "piped-3")
    assert "Broken pipe" not in seen
    await assert_ctrl_c_stops_a_running_command(tools, token, terminal_id)
