"""The demo agent using ClawQt's terminal tools from the real window: the demo agent as a subprocess
(it announces `mcpCapabilities.http`, so `session/new` names the loopback MCP server with a per-session
bearer), real bash shells on PTYs opened and shared from the terminal panel, the real MCP server, and
the hidden context on each of the user's prompts. The agent is a real MCP client (the `mcp` SDK's)."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QAbstractItemModel
from PySide6.QtGui import QGuiApplication

from app.contract.hidden_context import CLOSE, OPEN
from app.main.acp.recorder import TraceRecorder
from app.main.agents.command import AgentCommand
from app.main.host.make import make_host
from app.main.sessions.service import ChatService
from app.renderer.qt.conversation.timeline_model import ROLE_IDS
from app.renderer.timeline.serialize import item_record
from tests.conftest import EnvelopeLog, demo_agent_argv
from tests.paths import REPO
from tests.ui_harness import find_all, plain_text

# What must never show: the block's markers (also HTML-escaped, hence without the angle brackets), the
# line that carries the capability, and capabilities themselves.
HIDDEN_MARKS = ("clawqt_hidden_context", "contextToken", "cqt_", "read-only intent")


@pytest.fixture(autouse=True)
def plain_bash(monkeypatch, tmp_path):
    """bash without the user's rc files, so the screens are predictable."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))


class Chat:
    """One window on the demo agent, with what the service emitted (to read the agent's replies)."""

    def __init__(self, ui, window, envelopes: EnvelopeLog) -> None:
        self.ui = ui
        self.window = window
        self.envelopes = envelopes
        self.host = window.host
        self.panel = window.objects.user_terminals

    async def say(self, text: str, typed: bool = True) -> str:
        """Send `text` (typed into the composer, or through the send action for a bare "/name" that the
        composer would complete) and return the agent's reply once the turn ended."""
        objects = self.window.objects
        start = len(self.envelopes.items)
        ended: list[str] = []
        objects.turn.turnEnded.connect(ended.append)
        try:
            if typed:
                await self.ui.type_and_send(self.window, text)
            else:
                objects.turn.send(text)
            await self.ui.until(lambda: ended and not objects.session.busy, 60)
        finally:
            objects.turn.turnEnded.disconnect(ended.append)
        return "".join(
            (e.notification["update"].get("content") or {}).get("text", "")
            for e in self.envelopes.items[start:]
            if e.kind == "session_update"
            and e.notification["update"].get("sessionUpdate") == "agent_message_chunk"
        )

    async def shared_terminal(self, mode: str = "shared") -> str:
        """A new terminal from the panel (the user's click), shared as `mode`, its prompt shown."""
        terminal_id = self.panel.newTerminal()
        assert terminal_id
        self.panel.setSharing(terminal_id, mode)
        await self.ui.until(lambda: self.host.terminals.output(terminal_id).rstrip().endswith(("$", "#")), 20)
        return terminal_id

    async def user_types(self, terminal_id: str, line: str, shows: str) -> None:
        """The user types `line` + Enter into the terminal; waits until the shell printed `shows`."""
        self.host.terminals.input(terminal_id, line + "\r")
        await self.ui.until(lambda: shows in self.host.terminals.output(terminal_id), 15)
        await asyncio.sleep(0.1)  # the prompt after it, in the same sharing mode

    def info(self, terminal_id: str) -> Any:
        return self.host.terminals.info(terminal_id)


async def open_chat(ui, tmp_path: Path, recorder: TraceRecorder | None = None) -> Chat:
    service = ChatService(
        AgentCommand(demo_agent_argv(), "flag", "ui test"),
        cwd=str(tmp_path),
        log_path=tmp_path / "agent-stderr.log",
        recorder=recorder,
    )
    envelopes = EnvelopeLog()
    service.subscribe(envelopes)
    window = await ui.open_host(make_host(service))
    return Chat(ui, window, envelopes)


def _flatten(value: Any) -> str:
    """A model value as text, nested list models (a row's blocks) included."""
    if isinstance(value, QAbstractItemModel):
        return "\n".join(
            _flatten(value.data(value.index(row, 0), role))
            for row in range(value.rowCount())
            for role in value.roleNames()
        )
    if isinstance(value, dict):
        return "\n".join(f"{key}: {_flatten(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return "\n".join(_flatten(item) for item in value)
    return "" if value is None else str(value)


def window_text(ui, window) -> str:
    """Everything the window holds for the chat: every role of every row the model serves QML (the
    rows' blocks included), the prose painted on screen, and the timeline's items."""
    model = window.objects.model
    model.flush()
    served = [
        _flatten(model.data(model.index(row), role))
        for row in range(model.rowCount())
        for role in ROLE_IDS.values()
    ]
    painted = _prose(window)
    timeline = window.objects.session.timeline
    records = [str(item_record(item)) for item in timeline.items.values()] if timeline else []
    return "\n".join(served + painted + records)


def _prose(window) -> list[str]:
    return [plain_text(edit) for edit in find_all(window.root.contentItem(), "proseText")]


def assert_no_hidden_context(text: str, token: str) -> None:
    for mark in (*HIDDEN_MARKS, token):
        assert mark not in text, f"{mark!r} is shown"


def stored_user_messages(data_dir: Path) -> list[str]:
    """What the demo agent keeps as the user's messages (its session files: what it was sent)."""
    texts = []
    for path in sorted((data_dir / "demo-agent" / "sessions").glob("*.json")):
        for update in json.loads(path.read_text())["history"]:
            if update.get("sessionUpdate") == "user_message_chunk":
                texts.append((update.get("content") or {}).get("text", ""))
    return texts


def received_token(data_dir: Path) -> str:
    """The capability the agent received in a prompt's hidden context (it must have received one)."""
    for text in stored_user_messages(data_dir):
        match = re.search(r"contextToken: (cqt_\S+)", text)
        if match and OPEN in text and CLOSE in text:
            return match.group(1)
    raise AssertionError("the agent never received the hidden context")


def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "clawqt-home" / "data"  # tests/conftest.py isolated_dirs


def test_the_agent_reads_what_the_user_typed_and_types_a_command_that_runs(ui, tmp_path):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        terminal = await chat.shared_terminal()
        await chat.user_types(terminal, "echo typed-by-user-$((6*7))", "typed-by-user-42")

        reply = await chat.say("/terminal read")
        assert "typed-by-user-42" in reply and "```console" in reply
        assert "typed-by-user-42" in window_text(ui, chat.window)
        (tool,) = [
            t
            for row in ui.rows(chat.window, "tool", "tool-group")
            for t in ui.role(chat.window, row, "tools")
        ]
        assert tool["toolKind"] == "read" and tool["status"] == "completed"
        assert "typed-by-user-42" in tool["output"]
        ui.toggle_tool(chat.window, tool["id"], False)  # finished cards collapse: open it for the picture
        await ui.screenshots(chat.window, "44-agent-reads-terminal")

        reply = await chat.say(f"/terminal type {terminal} echo agent-$((5+5))")
        assert "pressed Enter" in reply
        await ui.until(lambda: "agent-10" in chat.host.terminals.output(terminal))
        assert chat.info(terminal).agent_sent_input

        listed = await chat.say("/terminals", typed=False)
        assert f"**{terminal}**" in listed and "shared" in listed

    ui.run(scenario(), timeout=120)


def test_paused_output_status_only_and_a_pin_to_another_chat_are_refused(ui, tmp_path):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        terminal = await chat.shared_terminal()
        await chat.user_types(terminal, "echo before-pause-$((1+1))", "before-pause-2")

        chat.panel.setSharing(terminal, "off")  # the user pauses it
        reply = await chat.say(f"/terminal read {terminal}")
        assert "paused" in reply and "before-pause-2" not in reply
        await chat.user_types(terminal, "echo while-paused-$((3*3))", "while-paused-9")

        chat.panel.setSharing(terminal, "shared")  # and shares it again
        await chat.user_types(terminal, "echo after-resume-$((4*4))", "after-resume-16")
        reply = await chat.say(f"/terminal read {terminal}")
        assert "before-pause-2" in reply and "after-resume-16" in reply
        assert "while-paused-9" not in reply
        assert "withheld" in reply  # excludedOutput: the agent is told something was left out
        # not in anything the agent received either (the hidden context's snapshots included)
        assert not any("while-paused-9" in text for text in stored_user_messages(data_dir(tmp_path)))

        chat.panel.setSharing(terminal, "status-only")
        reply = await chat.say(f"/terminal type {terminal} echo status-only-$((2*4))")
        assert "status only" in reply
        await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
        assert "status-only-8" not in chat.host.terminals.output(terminal)
        assert not chat.info(terminal).agent_sent_input

        chat.panel.setSharing(terminal, "shared")
        chat.host.terminals.pin(terminal, "a-chat-that-is-not-this-one")
        reply = await chat.say(f"/terminal read {terminal}")
        assert "another chat" in reply and "after-resume-16" not in reply
        listed = await chat.say("/terminals", typed=False)
        assert f"**{terminal}**" not in listed

    ui.run(scenario(), timeout=120)


def test_the_hidden_context_reaches_the_agent_but_never_the_window_replay_copy_or_reload(ui, tmp_path):
    trace = tmp_path / "terminal-agent.trace.jsonl"
    before_reload = tmp_path / "before-reload.trace.jsonl"
    recorder = TraceRecorder(trace)

    async def scenario():
        chat = await open_chat(ui, tmp_path, recorder)
        objects = chat.window.objects
        terminal = await chat.shared_terminal()
        await chat.user_types(terminal, "echo typed-by-user-$((6*7))", "typed-by-user-42")
        assert "typed-by-user-42" in await chat.say("/terminal read")
        assert await chat.say("/echo plain words") == "plain words"  # routed by what the user wrote

        token = received_token(data_dir(tmp_path))
        shown = window_text(ui, chat.window)
        assert "/terminal read" in shown and "/echo plain words" in shown and "typed-by-user-42" in shown
        assert_no_hidden_context(shown, token)

        footer = ui.rows(chat.window, "turn-footer")[0]
        objects.conversation.copyTurn(objects.model.view_row_of_key(footer.key))
        copied = QGuiApplication.clipboard().text()
        assert "typed-by-user-42" in copied
        assert_no_hidden_context(copied, token)

        before_reload.write_text(trace.read_text())  # a trace of the live turns only (flushed per line)
        first = objects.session.sessionKey
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey and objects.session.sessionKey != first, 30)
        objects.session.openSession(first)  # not live any more: session/load replays the history
        await ui.until(
            lambda: objects.session.sessionKey == first and len(ui.rows(chat.window, "user")) == 2, 30
        )
        reloaded = window_text(ui, chat.window)
        assert "/terminal read" in reloaded and "typed-by-user-42" in reloaded
        assert_no_hidden_context(reloaded, token)
        return token

    token = ui.run(scenario(), timeout=120)
    recorder.close()

    wire = [json.loads(line) for line in trace.read_text().splitlines()]
    load_at = next(
        i for i, e in enumerate(wire) if e["dir"] == "send" and e["msg"].get("method") == "session/load"
    )
    replayed = [
        e["msg"]["params"]["update"]
        for e in wire[load_at:]
        if e["dir"] == "recv" and e["msg"].get("method") == "session/update"
    ]
    echoed = [u["content"]["text"] for u in replayed if u["sessionUpdate"] == "user_message_chunk"]
    # the agent echoed the block back on load (the recorder writes capabilities redacted, never whole)
    assert any(OPEN in text and "contextToken: cqt_" in text for text in echoed)
    assert token not in trace.read_text()

    # `clawqt replay`: the live turns (the prompts as sent) and the whole trace (the reload replaces them)
    for recorded in (before_reload, trace):
        result = subprocess.run(
            [sys.executable, "-m", "app", "replay", str(recorded), "--json"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=REPO,
        )
        assert result.returncode == 0, result.stderr
        assert "/terminal read" in result.stdout and "typed-by-user-42" in result.stdout
        assert_no_hidden_context(result.stdout, token)


def test_a_terminal_the_agent_asks_for_runs_only_once_the_user_opens_it(ui, tmp_path, monkeypatch):
    # the open's first answer says "pending" after this wait for the user (10 s in the app): the agent
    # then says it is waiting and asks again
    monkeypatch.setattr("app.main.participation.tools.OPEN_WAIT_SECONDS", 1.0)

    async def scenario():
        chat = await open_chat(ui, tmp_path)
        objects = chat.window.objects
        marker, refused_marker = tmp_path / "marker-file", tmp_path / "refused-marker"

        asked = asyncio.ensure_future(chat.say("/terminal open touch marker-file"))
        pending = await ui.until(
            lambda: next(
                (i for i in chat.host.terminals.terminals() if i.command == "touch marker-file"), None
            )
        )
        assert pending.state == "pending" and pending.opened_by_agent
        assert pending.pinned_session == objects.session.sessionKey
        await ui.until(lambda: "Waiting for you to open the terminal" in window_text(ui, chat.window), 20)
        assert not marker.exists()
        chat.host.terminals.ready(pending.terminal_id, 80, 24)  # the user opens it
        reply = await asyncio.wait_for(asked, 30)
        assert f"You opened terminal **{pending.terminal_id}**" in reply
        await ui.until(marker.exists, 10)

        asked = asyncio.ensure_future(chat.say("/terminal open touch refused-marker"))
        refused = await ui.until(
            lambda: next(
                (i for i in chat.host.terminals.terminals() if i.command == "touch refused-marker"), None
            )
        )
        chat.host.terminals.refuse(refused.terminal_id)  # well before its deadline
        reply = await asyncio.wait_for(asked, 12)  # the waiting call hears it at once, not at the deadline
        assert "expired" in reply and "never ran" in reply
        assert chat.info(refused.terminal_id).state == "expired"
        assert "You refused" in chat.info(refused.terminal_id).error
        chat.host.terminals.ready(refused.terminal_id, 80, 24)  # too late: nothing starts
        await asyncio.sleep(1.0)  # time for what must not happen to show: an absence has no event
        assert not refused_marker.exists() and chat.info(refused.terminal_id).state == "expired"

    ui.run(scenario(), timeout=150)
