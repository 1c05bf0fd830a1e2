"""The terminal panel's access line and "Connect OpenClaw" in the real window: the command is shown
first (its secret shortened), runs only when the user confirms, and what it printed is shown.

The agent here is the scripted agent; the OpenClaw program is a small real executable that records how
it was called (the real `openclaw mcp set` runs in tests/e2e/test_openclaw_terminals.py)."""

from __future__ import annotations

import dataclasses
import json
import sys

from app.contract.envelopes import AgentInfo
from app.main.agents.command import AgentCommand
from app.main.host.make import make_host
from app.main.participation.access import TerminalAccess
from app.main.sessions.service import ChatService
from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click, open_panel

OPENCLAW = AgentInfo("openclaw-acp", None, None, 1, {"mcpCapabilities": {"http": False}})


def fake_openclaw(folder, exit_code: int = 0):
    program = folder / "openclaw"
    record = folder / "openclaw-argv.json"
    program.write_text(
        f"#!{sys.executable}\nimport json, sys\n"
        f"json.dump(sys.argv[1:], open({str(record)!r}, 'w'))\n"
        f"print('Saved MCP server clawqt-terminals' if {exit_code} == 0 else 'config is locked')\n"
        f"sys.exit({exit_code})\n"
    )
    program.chmod(0o755)
    return program, record


async def open_with_openclaw_access(ui, program):
    service = ChatService(
        AgentCommand(scripted_agent_argv(), "flag", "ui test"),
        cwd=str(ui.tmp_path),
        log_path=ui.tmp_path / "agent-stderr.log",
    )
    host = make_host(service, data_dir=ui.tmp_path / "data")
    access = TerminalAccess(service.participation, (str(program), "acp"), lambda: OPENCLAW)
    window = await ui.open_host(dataclasses.replace(host, terminal_access=access))
    window.root.requestActivate()
    await ui.until(lambda: window.root.isActive())
    await open_panel(ui, window)  # laid out, a shell at its prompt
    return window, service.participation


def test_connect_openclaw_shows_the_command_runs_it_on_confirmation_and_says_connected(ui, tmp_path):
    program, record = fake_openclaw(tmp_path)

    async def scenario():
        window, participation = await open_with_openclaw_access(ui, program)
        summary = await ui.until(lambda: ui.find(window, "terminalAccessSummary"))
        await ui.until(lambda: "OpenClaw cannot see your terminals yet" in summary.property("text"))
        await mouse_click(ui, window, "connectOpenClaw")
        command = ui.item(window, "connectCommand")
        await ui.until(lambda: "mcp set clawqt-terminals" in command.property("text"))
        assert participation.install_secret not in command.property("text")
        assert participation.url in command.property("text")
        assert not record.exists()  # nothing ran before the user confirmed
        await ui.screenshots(window, "45-connect-openclaw")
        await mouse_click(ui, window, "confirmConnect")
        result = ui.item(window, "connectResult")
        await ui.until(lambda: result.isVisible() and result.property("text").startswith("Connected."))
        argv = json.loads(record.read_text())
        assert argv[:3] == ["mcp", "set", "clawqt-terminals"]
        assert json.loads(argv[3])["headers"] == {"Authorization": f"Bearer {participation.install_secret}"}
        await ui.until(lambda: "is connected to ClawQt's terminal tools" in summary.property("text"))
        assert not ui.item(window, "connectConfirmation").isVisible()

    ui.run(scenario())


def test_a_failed_connect_says_what_openclaw_printed_and_cancel_runs_nothing(ui, tmp_path):
    program, record = fake_openclaw(tmp_path, exit_code=3)

    async def scenario():
        window, _participation = await open_with_openclaw_access(ui, program)
        await mouse_click(ui, window, "connectOpenClaw")
        command = ui.item(window, "connectCommand")
        await ui.until(lambda: "mcp set" in command.property("text"))
        await mouse_click(ui, window, "cancelConnect")
        await ui.until(lambda: not ui.item(window, "connectConfirmation").isVisible())
        assert not record.exists()
        await mouse_click(ui, window, "connectOpenClaw")
        await ui.until(lambda: "mcp set" in command.property("text"))
        await mouse_click(ui, window, "confirmConnect")
        result = ui.item(window, "connectResult")
        await ui.until(lambda: "Could not connect: config is locked" in result.property("text"))
        assert ui.item(window, "connectConfirmation").isVisible()  # the user may try again
        summary = ui.item(window, "terminalAccessSummary")
        assert "cannot see your terminals yet" in summary.property("text")

    ui.run(scenario())


def test_a_taken_configured_port_is_said_in_the_panel_and_the_chat_still_works(ui, tmp_path):
    from app.main.participation.loopback_socket import bind_loopback

    holder = bind_loopback(0)
    taken = holder.getsockname()[1]

    async def scenario():
        service = ChatService(
            AgentCommand(scripted_agent_argv(), "flag", "ui test"),
            cwd=str(ui.tmp_path),
            log_path=ui.tmp_path / "agent-stderr.log",
        )
        host = make_host(service, data_dir=ui.tmp_path / "data", terminal_tools_port=taken)
        window = await ui.open_host(host)
        window.root.requestActivate()
        await ui.until(lambda: window.root.isActive())
        service.participation.reserve()  # what session/new of an agent that takes MCP servers does
        await open_panel(ui, window)
        window.objects.terminal_access.refresh()
        summary = ui.item(window, "terminalAccessSummary")
        await ui.until(lambda: summary.isVisible() and f"port {taken}" in summary.property("text"))
        assert "already in use" in summary.property("text")

    try:
        ui.run(scenario())
    finally:
        holder.close()
