"""The user's MCP servers in the real window, with the scripted agent as a real subprocess: Settings >
MCP servers adds one from its name, command line and a secret (the form says what is wrong before it
keeps one), lists it with the agents that get it; the next chat gives it to the agent, and a server that
cannot start is said on that chat."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt

from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all

CTRL = Qt.KeyboardModifier.ControlModifier


def _one(sheet, name: str):
    found = find_all(sheet, name)
    assert found, f"no {name}"
    return found[0]


def test_a_server_added_in_settings_is_given_to_the_next_chat_and_one_that_cannot_start_is_said(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.key(window, Qt.Key.Key_Comma, CTRL, ",")
        dialog = window.root.findChild(QObject, "settingsDialog")
        await ui.until(lambda: dialog.property("opened"))
        sheet = dialog.property("contentItem")
        _one(sheet, "settingsNav_MCP servers").clicked.emit()
        _one(sheet, "mcpServerName").setProperty("text", "ghost")
        _one(sheet, "mcpServerCommand").setProperty("text", "no-such-program-xyz --serve")
        _one(sheet, "mcpServerSecrets").setProperty("text", "API_TOKEN")  # not NAME=value
        _one(sheet, "mcpServerAdd").clicked.emit()
        problem = await ui.until(lambda: [p for p in find_all(sheet, "mcpServerProblem") if p.isVisible()])
        assert problem[0].property("text") == "Line 1 is not NAME=value."
        assert objects.mcp_servers.servers == []  # nothing kept; what was typed stays in the form
        assert _one(sheet, "mcpServerName").property("text") == "ghost"
        _one(sheet, "mcpServerSecrets").setProperty("text", "API_TOKEN=s3cret")
        _one(sheet, "mcpServerAdd").clicked.emit()
        await ui.until(lambda: len(objects.mcp_servers.servers) == 1)
        [server] = objects.mcp_servers.servers
        assert (server["name"], server["secret_names"]) == ("ghost", ["API_TOKEN"])
        assert [a["on"] for a in server["agents"]] == [True]
        await ui.until(lambda: find_all(sheet, "settingsMcpServer_ghost"))
        assert _one(sheet, "mcpServerName").property("text") == ""  # the form is cleared once kept
        await ui.frames(window, 3)
        await ui.screenshots(window, "130-settings-mcp-servers")
        dialog.setProperty("visible", False)

        await ui.new_chat(window)  # the next chat's agent gets the server
        notice = "The MCP server “ghost” cannot start: its program no-such-program-xyz is not on the PATH."
        await ui.until(lambda: objects.notices.notice == notice)
        await ui.screenshots(window, "131-mcp-server-cannot-start")

    ui.run(scenario())
