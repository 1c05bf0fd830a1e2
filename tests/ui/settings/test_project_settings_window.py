"""Per-project settings in the real window with the scripted agent: a `.clawqt.json` in the chat's
folder starts Ctrl+N's new chat in its mode and model, and Settings > Folders says which file and
what it sets (read again each time Settings opens)."""

from __future__ import annotations

import json

from PySide6.QtCore import Q_ARG, QMetaObject, QObject, Qt

from app.main.stores.projects import PROJECT_FILE
from tests.conftest import scripted_agent_argv
from tests.ui.settings.test_settings_window import CTRL


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

        chat = window.root.property("chatWindow")
        QMetaObject.invokeMethod(chat, "openSettingsAt", Q_ARG("QVariant", "Folders"))
        dialog = window.root.findChild(QObject, "settingsDialog")
        await ui.until(lambda: dialog.property("opened"))
        said = await ui.shown(window, "settingsProject")
        text = said.property("text")
        assert text.startswith(f"Project settings for this chat's folder ({project}): ")
        assert "the agent nobody here, the mode b, the model m2 when offered." in text
        await ui.frames(window, 2)
        await ui.screenshots(window, "163-settings-project-of-the-folder")

    ui.run(scenario(), timeout=60)
