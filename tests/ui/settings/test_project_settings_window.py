"""Per-project settings in the real window with the scripted agent: a `.clawqt.json` in the chat's
folder starts Ctrl+N's new chat in its mode and model, and Settings > Folders says which file and
what it sets (read again each time Settings opens)."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from app.main.stores.projects import PROJECT_FILE
from tests.conftest import scripted_agent_argv
from tests.ui.settings.test_settings_window import CTRL, open_settings_at
from tests.ui.terminals.panel_support import mouse_click


def test_a_folders_project_settings_start_its_new_chats_and_settings_says_them(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        assert objects.header.currentMode == "a"
        project = ui.tmp_path / PROJECT_FILE
        project.write_text(json.dumps({"agent": "nobody here", "mode": "b", "model": "m2"}))

        await ui.key(window, Qt.Key.Key_N, CTRL, "n")  # Ctrl+N: a new chat in the project's mode and model
        await ui.until(lambda: objects.session.sessionKey not in ("", first), 20)
        await ui.until(lambda: objects.header.currentMode == "b")
        model = next(o for o in objects.header.configOptions if o.get("category") == "model")
        assert model["currentValue"] == "m2"

        await open_settings_at(ui, window, "Folders")
        said = await ui.shown(window, "settingsProjectSummary")
        text = said.property("text")
        assert text.startswith(f"Project settings for this chat's folder ({project}): ")
        assert "the agent nobody here, the mode b, the model m2 when offered." in text
        await ui.frames(window, 2)
        await ui.screenshots(window, "163-settings-project-of-the-folder")

    ui.run(scenario(), timeout=60)


def test_a_projects_folders_and_servers_wait_for_trust_in_settings(ui):
    """Settings > Folders lists what the project file asks to grant, "Not trusted"; Trust these ->
    "Trusted" (the main side keeps it); Stop trusting -> not trusted again."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        project = ui.tmp_path / PROJECT_FILE
        asks = {
            "additionalDirectories": ["../shared"],
            "mcpServers": {"git": {"command": "uvx mcp-server-git"}},
        }
        project.write_text(json.dumps({"mode": "b", **asks}))
        await open_settings_at(ui, window, "Folders")
        pill = await ui.shown(window, "settingsProjectTrust")
        assert pill.property("label") == "Not trusted"
        folders = await ui.shown(window, "settingsProjectFolders")
        assert folders.property("text") == f"Folders:\n{ui.tmp_path.parent / 'shared'}"
        servers = await ui.shown(window, "settingsProjectServers")
        assert servers.property("text") == "MCP servers:\ngit: uvx mcp-server-git"
        await ui.frames(window, 2)
        await ui.screenshots(window, "167-settings-project-asks-for-trust")

        await mouse_click(ui, window, "settingsProjectTrustButton")
        await ui.until(lambda: pill.property("label") == "Trusted")
        sessions = window.objects.host.sessions
        assert sessions.project_settings(str(ui.tmp_path))["trusted"] == "yes"
        assert sessions.projects.grants(str(ui.tmp_path)).folders == (str(ui.tmp_path.parent / "shared"),)
        await ui.frames(window, 2)
        await ui.screenshots(window, "168-settings-project-trusted")

        await mouse_click(ui, window, "settingsProjectDistrust")
        await ui.until(lambda: pill.property("label") == "Not trusted")
        assert not sessions.projects.grants(str(ui.tmp_path))

    ui.run(scenario(), timeout=60)
