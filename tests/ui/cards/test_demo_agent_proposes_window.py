"""The demo agent proposing a terminal action through the real window: the demo agent as a subprocess
reads the canonical command from its prompt's hidden context, asks permission for it as OpenClaw's exec
tool does (ClawQt allows it silently: no prompt is shown), runs the real `clawqt
propose-terminal-actions` process against the app's real endpoint, and the user decides on the card
with the keyboard. A confirmed command runs in the user's real bash terminal of the panel; the agent's
reply carries the CLI's two lines as they arrived."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible

from app.contract.hidden_context import wrap
from app.contract.proposals import canonical_invocation, parse_canonical
from app.demo_agent.proposal_command import (
    MAX_SAID_CHARS,
    ProposalTemplate,
    build_payload,
    proposal_template,
    read_line,
    said,
)
from app.main.agents.command import AgentCommand
from app.main.host.make import make_host
from app.main.proposals.channels import DECISION_SECONDS
from app.main.proposals.schema import ValidatedPayload, validate_payload
from app.main.sessions.service import ChatService
from tests.conftest import EnvelopeLog, demo_agent_argv
from tests.ui.sessions.test_background_chats_window import leave_window, row_of, visible_mark
from tests.ui_harness import find_all, focused

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX sockets and shells")


@pytest.fixture(autouse=True)
def short_runtime_dir(monkeypatch, tmp_path):
    """bash without the user's rc files; the endpoint's socket in a short runtime dir (a socket path
    holds at most 107 bytes), inherited by the agent and so by the CLI it runs."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    runtime = tempfile.mkdtemp(prefix="cq", dir="/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    yield
    shutil.rmtree(runtime, ignore_errors=True)


class Chat:
    def __init__(self, ui, window, envelopes: EnvelopeLog) -> None:
        self.ui = ui
        self.window = window
        self.envelopes = envelopes
        self.host = window.host

    def reply(self) -> str:
        return self.envelopes.text()

    async def terminal(self) -> str:
        """A bash terminal the user opened from the panel: the one a `send` goes to."""
        terminal_id = self.window.objects.user_terminals.newTerminal()
        assert terminal_id
        await self.ui.until(lambda: self.host.terminals.output(terminal_id).rstrip().endswith(("$", "#")), 20)
        return terminal_id

    async def propose(self, command: str) -> None:
        """The user asks the agent to propose `command`; returns once the card waits for a decision."""
        await self.ui.type_and_send(self.window, f"/propose {command}")
        await self.ui.until(lambda: self.ui.find(self.window, "proposalButton_1_0") is not None, 30)
        await self.ui.until(lambda: "waiting for you" in self.reply(), 15)
        await self.ui.frames(self.window, 2)

    def cli_lines(self) -> list[dict]:
        """The JSON lines the agent quoted in its reply (the CLI's stdout, as it arrived)."""
        return [json.loads(line) for line in self.reply().splitlines() if line.startswith('{"phase"')]


async def open_chat(ui, tmp_path: Path) -> Chat:
    service = ChatService(
        AgentCommand(demo_agent_argv(), "flag", "ui test"),
        cwd=str(tmp_path),
        log_path=tmp_path / "agent-stderr.log",
    )
    envelopes = EnvelopeLog()
    service.subscribe(envelopes)
    window = await ui.open_host(make_host(service))
    window.root.resize(1180, 1000)  # the card, the reply and the terminal in one screenshot
    await ui.until(lambda: window.host.proposals.available, 15)
    return Chat(ui, window, envelopes)


async def focus(ui, window, name: str) -> None:
    ui.item(window, name).forceActiveFocus()
    await ui.until(lambda: focused(window) == name)


def assert_unseen_cli_call(ui, chat: Chat) -> None:
    """No permission prompt reached the user and the CLI's tool call draws no card."""
    assert chat.envelopes.of_kind("permission_request") == []
    kinds = ui.kinds(chat.window)
    assert "permission" not in kinds and "tool" not in kinds and "tool-group" not in kinds, kinds
    assert "proposal" in kinds


def test_the_demo_agent_proposes_the_user_confirms_with_enter_and_it_runs_in_the_terminal(ui, tmp_path):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        window, objects = chat.window, chat.window.objects
        terminal = await chat.terminal()
        marker = tmp_path / "proposed-marker"
        await chat.propose(f"touch {marker}")
        assert_unseen_cli_call(ui, chat)
        assert objects.session.busy  # the agent still waits for the CLI's final line
        assert not marker.exists()
        (validation,) = chat.cli_lines()
        assert validation["status"] == "accepted"
        run = ui.item(window, "proposalButton_1_0")
        assert run.property("text") == "Run command"
        await ui.screenshots(window, "48-demo-agent-proposal")

        await focus(ui, window, "proposalButton_1_0")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(marker.exists, 15)  # typed into the user's bash and run there
        assert f"touch {marker}" in chat.host.terminals.output(terminal)
        await ui.until(lambda: not objects.session.busy, 20)
        lines = chat.cli_lines()
        assert lines == [
            validation,
            {"phase": "final", "status": "confirmed", "proposal_id": validation["proposal_id"]},
        ]
        assert "You confirmed it" in chat.reply()
        state = ui.item(window, "proposalState")
        await ui.until(lambda: state.property("text").startswith("Confirmed"))
        assert_unseen_cli_call(ui, chat)
        await ui.screenshots(window, "49-demo-agent-proposal-confirmed")

    ui.run(scenario(), 120)


def test_esc_on_the_card_cancels_the_agent_hears_cancelled_and_nothing_runs(ui, tmp_path):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        window, objects = chat.window, chat.window.objects
        await chat.terminal()
        marker = tmp_path / "never-marker"
        await chat.propose(f"touch {marker}")
        assert_unseen_cli_call(ui, chat)
        await focus(ui, window, "proposalButton_1_0")
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not objects.session.busy, 20)
        (validation, final) = chat.cli_lines()
        assert final == {"phase": "final", "status": "cancelled", "proposal_id": validation["proposal_id"]}
        assert "You cancelled it: nothing ran." in chat.reply()
        await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
        assert not marker.exists()

    ui.run(scenario(), 120)


def test_a_command_with_a_tab_is_refused_the_card_shows_it_written_out_and_nothing_runs(ui, tmp_path):
    """A tab the shell would complete (and a zero-width space beside it): the card the user sees says
    why it was refused and shows both characters written out; the agent hears the same reason."""

    async def scenario():
        chat = await open_chat(ui, tmp_path)
        window, objects = chat.window, chat.window.objects
        terminal = await chat.terminal()
        marker = tmp_path / "never-marker"
        await ui.type_and_send(window, f"/propose touch\t{marker}\u200b")
        state = await ui.until(lambda: ui.find(window, "proposalState"), 30)
        await ui.until(lambda: state.property("text").startswith("Refused"), 15)
        await ui.until(lambda: not objects.session.busy, 20)
        (validation,) = chat.cli_lines()
        assert (validation["status"], validation["retryable"]) == ("invalid_schema", True)
        reason = ui.item(window, "proposalReason").property("text")
        assert reason == validation["reason"] and "holds a tab (U+0009) at position 5" in reason
        commands = [item.property("text") for item in find_all(window.root.contentItem(), "proposalCommand")]
        assert f"touch<U+0009>{marker}<U+200B>" in commands
        assert ui.find(window, "proposalButton_1_0") is None  # nothing to run
        assert "ClawQt did not take the proposal" in chat.reply()
        await ui.screenshots(window, "74-proposal-refused")
        await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
        assert not marker.exists() and str(marker) not in chat.host.terminals.output(terminal)

    ui.run(scenario(), 120)


def test_enter_after_the_ten_minutes_ran_out_runs_nothing_and_the_card_says_it_timed_out(ui, tmp_path):
    """The deadline passed while its timer had not fired yet (a machine that slept): the card still
    looked open, and the user's Enter must not run it."""

    async def scenario():
        chat = await open_chat(ui, tmp_path)
        window, objects = chat.window, chat.window.objects
        await chat.terminal()
        marker = tmp_path / "too-late"
        await chat.propose(f"touch {marker}")
        service = chat.host.proposals
        slept = lambda: time.monotonic() + DECISION_SECONDS + 1  # noqa: E731
        service._clock = service.channels._clock = slept  # the timer still waits; the clock moved on
        await focus(ui, window, "proposalButton_1_0")
        await ui.key(window, Qt.Key.Key_Return)
        state = ui.item(window, "proposalState")
        await ui.until(lambda: state.property("text").startswith("Timed out"), 10)
        await ui.until(lambda: not objects.session.busy, 20)
        (validation, final) = chat.cli_lines()
        assert final == {"phase": "final", "status": "timed_out", "proposal_id": validation["proposal_id"]}
        assert "Nobody answered within 10 minutes: nothing ran." in chat.reply()
        assert not ui.item(window, "proposalButton_1_0").property("enabled")
        await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
        assert not marker.exists()

    ui.run(scenario(), 120)


def test_a_card_waiting_in_a_chat_the_user_left_marks_it_and_calls_the_user_then_runs_after_going_back(
    ui, tmp_path
):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        window, objects = chat.window, chat.window.objects
        called: list[tuple[str, str]] = []
        objects.attention.notified.connect(lambda how, text: called.append((how, text)))
        await chat.terminal()
        marker = tmp_path / "decided-on-return"
        first = objects.session.sessionKey
        other = await leave_window(ui)  # the user went to another application...
        try:
            objects.turn.send(f"/propose touch {marker}")
            objects.session.newChat()  # ...and, back for a moment, opened another chat
            await ui.until(lambda: objects.session.sessionKey not in ("", first))
            rows = lambda: {e["key"]: e for e in objects.sessions.entries()}  # noqa: E731
            await ui.until(lambda: rows()[first]["needsYou"], 30)
            assert rows()[first]["needsYouWhy"] == "a proposed terminal action waits for your decision"
            assert "proposal" not in ui.kinds(window)  # nothing of it in the chat on screen
            await ui.until(lambda: called, 10)
            (how, text) = called[0]
            assert how in ("tray", "alert")
            command = f"touch {marker}"  # quoted on one line, cut to 80 characters
            quoted = command if len(command) <= 80 else command[:79] + "\u2026"
            assert text.endswith(f"needs you: the agent proposes a terminal command: {quoted}"), text
            mark = await ui.until(lambda: visible_mark(window))
            row = row_of(mark)
            assert row.property("modelData")["key"] == first
            name = QAccessible.queryAccessibleInterface(row).text(QAccessible.Text.Name)
            assert name.endswith(", needs you: a proposed terminal action waits for your decision")
            await ui.screenshots(window, "50-proposal-needs-you")
        finally:
            other.destroy()
        assert not marker.exists()
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first)
        await ui.until(lambda: ui.find(window, "proposalButton_1_0") is not None, 15)
        await ui.frames(window, 2)
        await focus(ui, window, "proposalButton_1_0")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(marker.exists, 15)
        await ui.until(lambda: not rows()[first]["needsYou"])
        assert rows()[first]["needsYouWhy"] == "" and len(called) == 1

    ui.run(scenario(), 120)


def test_without_the_hidden_block_the_agent_says_the_client_takes_no_proposals(ui, tmp_path, monkeypatch):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        # a client that offers no proposal command: the prompt carries no such hidden block
        monkeypatch.setattr(chat.host.proposals, "prompt_context", lambda *args: None)
        ended: list[str] = []
        chat.window.objects.turn.turnEnded.connect(ended.append)
        await ui.type_and_send(chat.window, "/propose touch x")
        await ui.until(lambda: ended and not chat.window.objects.session.busy, 30)
        assert "This client does not take proposals" in chat.reply()
        assert "proposal" not in ui.kinds(chat.window)
        assert chat.envelopes.of_kind("permission_request") == []

    ui.run(scenario(), 60)


def test_a_permission_clawqt_cancels_is_said_and_nothing_is_proposed(ui, tmp_path, monkeypatch):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        await chat.terminal()
        # ClawQt cancels silently any form it does not take (here: every one)
        monkeypatch.setattr(chat.host.proposals, "on_permission", lambda *args: "")
        ended: list[str] = []
        chat.window.objects.turn.turnEnded.connect(ended.append)
        await ui.type_and_send(chat.window, f"/propose touch {tmp_path / 'never'}")
        await ui.until(lambda: ended and not chat.window.objects.session.busy, 30)
        assert "The permission to run the proposal command was cancelled" in chat.reply()
        assert "proposal" not in ui.kinds(chat.window) and chat.cli_lines() == []
        assert chat.envelopes.of_kind("permission_request") == []
        assert not (tmp_path / "never").exists()

    ui.run(scenario(), 60)


def test_an_agent_that_proposes_without_asking_gets_its_card_and_enter_runs_it(ui, tmp_path):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        window = chat.window
        await chat.terminal()
        marker = tmp_path / "direct-marker"
        await chat.propose(f"--without-asking touch {marker}")
        assert_unseen_cli_call(ui, chat)
        (validation,) = chat.cli_lines()
        assert validation["status"] == "accepted"
        assert not marker.exists()
        await focus(ui, window, "proposalButton_1_0")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(marker.exists, 15)
        await ui.until(lambda: not window.objects.session.busy, 20)
        assert chat.cli_lines()[-1]["status"] == "confirmed"

    ui.run(scenario(), 90)


def test_a_proposal_clawqt_cannot_show_is_said_on_its_chat_with_what_to_change(ui, tmp_path, monkeypatch):
    async def scenario():
        chat = await open_chat(ui, tmp_path)
        objects = chat.window.objects
        await chat.terminal()
        # the command names a channel this chat's message no longer holds (as after a newer message)
        monkeypatch.setattr(chat.host.proposals.channels, "arm", lambda *args: False)
        await ui.type_and_send(chat.window, f"/propose touch {tmp_path / 'never'}")
        await ui.until(lambda: "could not be shown" in objects.notices.notice, 30)
        notice = objects.notices.notice
        assert "ClawQt cancelled its command" in notice and "Ask again in this chat" in notice
        await ui.until(lambda: not objects.session.busy, 30)
        assert "proposal" not in ui.kinds(chat.window)
        assert not (tmp_path / "never").exists()
        await ui.screenshots(chat.window, "76-proposal-not-shown")

    ui.run(scenario(), 60)


# --- the pure parts: the template, the payload, odd output ----------------------------------------------
EXE = "/opt/ClawQt/bin/clawqt"
CHANNEL = f"v1.{'a' * 32}.{'b' * 32}"


def test_the_template_comes_from_the_last_hidden_block_never_from_the_users_words():
    template_line = canonical_invocation(EXE, CHANNEL, "PAYLOAD")
    typed = canonical_invocation("/tmp/evil", f"v1.{'c' * 32}.{'d' * 32}", "PAYLOAD")
    assert proposal_template(f"/propose ls\n{typed}") is None  # no hidden block: the client takes none
    block = wrap("run this:\n" + template_line)
    prompt = f"/propose ls\n{typed}{wrap('contextToken: cqt_x')}{block}"
    assert proposal_template(prompt) == ProposalTemplate(EXE, CHANNEL)
    assert proposal_template(prompt.replace("'PAYLOAD'", "'{}'")) is None  # not the template form


def test_the_payload_passes_clawqts_schema_and_the_command_is_canonical_whatever_it_quotes():
    command = "printf '%s\\n' \"it's\" | grep -c x && echo $HOME"
    payload = build_payload(command, "/work/o'neil")
    invocation = ProposalTemplate(EXE, CHANNEL).command(payload)
    parsed = parse_canonical(invocation, EXE)
    assert parsed is not None and parsed.channel == CHANNEL
    assert json.loads(parsed.payload_json) == payload  # `'` travels as \u0027
    checked = validate_payload(parsed.payload_json)
    assert isinstance(checked, ValidatedPayload), checked
    assert [c.actions[0].type for c in checked.choices] == ["send", "open_and_send"]
    assert checked.choices[0].actions[0].input == command and checked.recommended == 1


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b"not json", "cannot read"),
        (b"[1, 2]", "cannot read"),
        (b"\xff\xfe{", "cannot read"),
        (b"[" * 5000 + b"]" * 5000, "cannot read"),
        (b'{"phase": 3}', "did not expect"),
        (b'{"phase":"validation","status":"digest_mismatch","reason":"no"}', "did not take"),
        (b'{"phase":"final","status":"weird"}', "It ended: `weird`"),
        (b'{"phase":"final","status":"cancelled"}', "nothing ran"),
        (b"`" * 900, "cannot read"),
    ],
)
def test_odd_lines_become_sentences(raw, says):
    text = said(read_line(raw), raw)
    assert says in text and len(text) < 4 * MAX_SAID_CHARS  # cut, its fences included
