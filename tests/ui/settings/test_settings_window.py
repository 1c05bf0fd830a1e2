"""Settings in the real window, with the keyboard only: Ctrl+, opens it on the theme, arrows choose,
Tab moves on, Space toggles, Esc closes. Each change applies at once (the colour scheme, every text's
size, motion) and is in the config file afterwards; the next start reads it. A config file ClawQt cannot
read is never overwritten: the window says so and the change holds for the run."""

from __future__ import annotations

import json
import sys

from PySide6.QtCore import Q_ARG, QMetaObject, QObject, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtQuick import QQuickItem

from app.main.host.build import Launch, build_host
from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click
from tests.ui.window.test_accessible_names import unnamed_controls
from tests.ui_harness import find_all

CTRL = Qt.KeyboardModifier.ControlModifier


def _args(ui) -> Launch:
    return Launch(agent=" ".join(scripted_agent_argv()), cwd=str(ui.tmp_path))


def focused(window) -> str:
    item = window.root.activeFocusItem()
    while item is not None and not item.objectName():
        item = item.parentItem()
    return item.objectName() if item is not None else ""


def dialog_of(window) -> QObject:
    """The Settings dialog (a popup: a QObject of the window, not an item of its visual tree)."""
    found = window.root.findChild(QObject, "settingsDialog")
    assert found is not None
    return found


async def open_settings_at(ui, window, section: str):
    """Settings opened at `section` (as a link in the window opens it); the dialog once it is open."""
    QMetaObject.invokeMethod(window.root.property("chatWindow"), "openSettingsAt", Q_ARG("QVariant", section))
    dialog = dialog_of(window)
    await ui.until(lambda: dialog.property("opened"))
    return dialog


async def open_settings(ui, window) -> None:
    await ui.key(window, Qt.Key.Key_Comma, CTRL, ",")
    dialog = dialog_of(window)
    await ui.until(lambda: dialog.property("opened"))
    await ui.until(lambda: focused(window) == "settingsColorScheme")


def test_the_keyboard_alone_changes_theme_text_size_and_motion_and_they_are_saved(ui, isolated_dirs):
    config = isolated_dirs / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"agent": {"command": " ".join(scripted_agent_argv())}, "keep": [1, 2]}))

    async def scenario():
        host, _recorder = build_host(_args(ui))
        window = await ui.open_host(host)
        app = window.objects.app
        assert QGuiApplication.font().pixelSize() == 13  # the interface size at 100 %
        assert QGuiApplication.font().family() == "Inter"  # the shipped face, not the system's
        assert window.objects.user_terminals.newTerminal()  # a terminal in the panel: its text scales too
        screen = await ui.until(lambda: ui.find(window, "panelScreen"))
        await ui.until(lambda: screen.property("fitColumns") > 0)
        columns = screen.property("fitColumns")
        await open_settings(ui, window)
        await ui.screenshots(window, "52-settings")

        await ui.key(window, Qt.Key.Key_Down)  # System -> Light
        await ui.key(window, Qt.Key.Key_Down)  # -> Dark
        await ui.until(lambda: app.colorScheme == "dark")
        await ui.key(window, Qt.Key.Key_Tab)
        await ui.until(lambda: focused(window) == "settingsAccent")
        await ui.key(window, Qt.Key.Key_Right)  # Blue -> Violet
        await ui.until(lambda: app.accent == "violet")
        await ui.key(window, Qt.Key.Key_Tab)
        await ui.until(lambda: focused(window) == "settingsFontScale")
        await ui.key(window, Qt.Key.Key_Down)  # 100% -> 115%
        await ui.until(lambda: abs(app.fontScale - 1.15) < 1e-6)
        assert QGuiApplication.font().pixelSize() == round(13 * 1.15)  # every text without a size
        location = ui.item(window, "settingsLocation")
        assert location.property("font").pixelSize() == round(12 * 1.15)  # Theme's type scale
        assert screen.property("fontPixelSize") == round(12 * 1.15)  # the terminal's text, and so
        await ui.until(lambda: screen.property("fitColumns") < columns)  # fewer columns fit
        await ui.key(window, Qt.Key.Key_Tab)
        await ui.until(lambda: focused(window) == "settingsReducedMotion")
        await ui.key(window, Qt.Key.Key_Space)
        await ui.until(lambda: app.reducedMotion)
        await ui.key(window, Qt.Key.Key_Tab)
        await ui.until(lambda: focused(window) == "settingsNotify")
        await ui.key(window, Qt.Key.Key_Space)
        await ui.until(lambda: not app.notify)
        await ui.frames(window, 2)
        await ui.screenshot(window, "53-settings-changed")
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not dialog_of(window).property("visible"))

        saved = lambda: json.loads(config.read_text())  # noqa: E731
        # each section is written on its own: the file is awaited whole, not only its last section
        expected = {
            "agent": {"command": " ".join(scripted_agent_argv())},
            "keep": [1, 2],
            "appearance": {
                "colorScheme": "dark",
                "accent": "violet",
                "fontScale": 1.15,
                "reducedMotion": True,
            },
            "notifications": {"desktop": False},
        }
        await ui.until(lambda: saved() == expected, seen=saved)
        assert ui.item(window, "settingsProblem").property("text") == ""

        # the next start reads them
        again, _recorder = build_host(_args(ui))
        second = await ui.open_host(again)
        assert second.objects.app.colorScheme == "dark" and second.objects.app.accent == "violet"
        assert abs(second.objects.app.fontScale - 1.15) < 1e-6 and second.objects.app.reducedMotion
        assert not second.objects.app.notify

    ui.run(scenario())


def test_a_config_file_clawqt_cannot_read_is_left_as_it_is_and_the_window_says_so(ui, isolated_dirs):
    config = isolated_dirs / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    broken = b'{"appearance": {"colorScheme": "dark"},\n oops'
    config.write_bytes(broken)

    async def scenario():
        host, _recorder = build_host(_args(ui))
        window = await ui.open_host(host)
        await open_settings(ui, window)
        await ui.key(window, Qt.Key.Key_Down)  # System -> Light
        problem = ui.item(window, "settingsProblem")
        await ui.until(lambda: problem.property("text"))
        assert "is not valid JSON (line 2), so ClawQt does not write to it" in problem.property("text")
        assert problem.property("visible") and window.objects.app.colorScheme == "light"
        assert config.read_bytes() == broken
        await ui.screenshot(window, "54-settings-not-saved")

    ui.run(scenario())


def test_the_header_button_opens_settings(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        ui.item(window, "settingsButton").clicked.emit()
        await ui.until(lambda: dialog_of(window).property("opened"))

    ui.run(scenario())


def test_extra_folders_changed_in_settings_reach_the_agent_at_once_and_are_saved(ui, isolated_dirs):
    config = isolated_dirs / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"keep": True}))
    extra = ui.tmp_path / "shared-docs"
    extra.mkdir()

    async def scenario():
        host, _recorder = build_host(_args(ui))
        window = await ui.open_host(host)
        settings = window.objects.settings
        service = host.sessions.current_service
        await open_settings(ui, window)
        assert settings.folders == [] and service.additional_directories == []

        settings.addFolder(extra.as_uri())  # what the folder dialog gives
        await ui.until(lambda: settings.folders == [str(extra)] and not settings.saving)
        assert service.additional_directories == [str(extra)]
        assert service.files.additional_directories is service.additional_directories  # fs/* reach it now
        assert json.loads(config.read_text()) == {"keep": True, "additionalDirectories": [str(extra)]}
        await ui.until(lambda: ui.find(window, "settingsRemoveFolder"))
        await ui.screenshots(window, "58-settings-folders")

        settings.addFolder(str(ui.tmp_path / "not-there"))
        await ui.until(lambda: "there is no folder" in settings.problem)
        assert settings.folders == [str(extra)] and service.additional_directories == [str(extra)]

        settings.removeFolder(0)
        await ui.until(lambda: settings.folders == [] and not settings.saving)
        assert service.additional_directories == []
        assert json.loads(config.read_text())["additionalDirectories"] == []

    ui.run(scenario())


def test_the_terminal_tools_port_is_typed_checked_and_saved_for_the_next_start(ui, isolated_dirs):
    config = isolated_dirs / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"terminalToolsPort": 47001}))

    async def scenario():
        host, _recorder = build_host(_args(ui))
        window = await ui.open_host(host)
        settings = window.objects.settings
        await open_settings(ui, window)
        field = ui.item(window, "settingsTerminalPort")
        assert field.property("text") == "47001"
        field.forceActiveFocus()
        field.setProperty("text", "")
        await ui.keys(window, "48123")
        await ui.key(window, Qt.Key.Key_Tab)  # editing finished
        await ui.until(lambda: json.loads(config.read_text()).get("terminalToolsPort") == 48123)
        assert settings.terminalToolsPort == "48123" and settings.problem == ""
        settings.setTerminalToolsPort("80")  # a privileged port is refused with a sentence
        await ui.until(lambda: "from 1024 to 65535" in settings.problem)
        assert json.loads(config.read_text())["terminalToolsPort"] == 48123
        settings.setTerminalToolsPort("")  # empty: ClawQt picks again
        await ui.until(lambda: json.loads(config.read_text())["terminalToolsPort"] is None)
        again, _ = build_host(_args(ui))
        assert again.settings.terminal_tools_port() is None

    ui.run(scenario())


def test_an_agent_added_in_settings_is_offered_at_once_saved_and_removed_from_the_next_start(
    ui, isolated_dirs
):
    config = isolated_dirs / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    old = {"name": "Old", "command": "python3 old.py", "env": {"A": "1"}}
    config.write_text(json.dumps({"agents": [old]}))

    async def scenario():
        host, _recorder = build_host(_args(ui))
        window = await ui.open_host(host)
        settings = window.objects.agent_settings
        picker = window.objects.agents
        await open_settings(ui, window)
        assert settings.configured == ["Old"]

        name = ui.item(window, "settingsAgentName")
        command = ui.item(window, "settingsAgentCommand")
        name.setProperty("text", "Echo")
        command.setProperty("text", "no-such-program --acp")
        ui.item(window, "settingsAddAgent").clicked.emit()
        await ui.until(lambda: "there is no program 'no-such-program' on your PATH" in settings.problem)
        assert "Echo" not in [choice.profile_name for choice in host.agents.choices()]

        command.setProperty("text", f"{sys.executable} -m app demo-agent --echo")
        ui.item(window, "settingsAddAgent").clicked.emit()
        await ui.until(lambda: "echo" in [e["agentId"] for e in picker.model.entries])  # offered at once
        await ui.until(lambda: not settings.saving and name.property("text") == "")  # the form is cleared
        saved = json.loads(config.read_text())["agents"]
        assert saved[0] == old  # kept as it was
        assert saved[1] == {"name": "Echo", "command": f"{sys.executable} -m app demo-agent --echo"}
        states = [
            p.childItems()[0].childItems()[1].property("text")
            for p in find_all(dialog_of(window).property("contentItem"), "settingsAgentState")
        ]
        assert "running" in states and "not started" in states, states  # each card says where its agent is
        await ui.screenshots(window, "60-settings-agents")

        settings.add("echo", "python3 x.py")  # a name offered already (any case)
        await ui.until(lambda: 'there is an agent named "echo" already' in settings.problem)

        settings.remove("Old")
        await ui.until(lambda: [a["name"] for a in json.loads(config.read_text())["agents"]] == ["Echo"])
        assert settings.configured == ["Echo"]

    ui.run(scenario())


def _visible(window, name: str) -> list[QQuickItem]:
    """Items named `name` shown now, popups included."""
    return [item for item in find_all(window.root.contentItem(), name) if item.isVisible()]


def test_a_configured_agent_s_details_are_edited_in_place_checked_and_saved_for_its_next_start(
    ui, isolated_dirs
):
    config = isolated_dirs / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    old = {"name": "Old", "command": "python3", "args": ["old.py"], "env": {"A": "1"}, "mine": True}
    config.write_text(json.dumps({"agents": [old]}))
    folder = ui.tmp_path / "work"
    folder.mkdir()

    async def scenario():
        host, _recorder = build_host(_args(ui))
        window = await ui.open_host(host)
        agents = window.objects.agent_settings
        await open_settings(ui, window)
        (edit,) = _visible(window, "settingsEditAgent")  # only the configured agent has one
        edit.clicked.emit()
        await ui.until(lambda: ui.find(window, "agentEditor"))
        assert ui.item(window, "agentEditCommand").property("text") == "python3 old.py"
        assert ui.item(window, "agentEditEnv").property("text") == "A=1"
        await ui.until(lambda: focused(window) == "agentEditCommand")
        assert unnamed_controls(window) == []  # every field and button of the form has a name

        before = config.read_text()
        ui.item(window, "agentEditEnv").setProperty("text", "A=1\nnot a pair")
        ui.item(window, "agentEditSave").clicked.emit()
        await ui.until(lambda: "line 2" in agents.problem)
        assert config.read_text() == before and ui.find(window, "agentEditor") is not None  # still open
        assert ui.item(window, "agentEditEnv").property("text") == "A=1\nnot a pair"  # nothing typed lost
        await ui.screenshots(window, "61-settings-agent-edit-refused")

        ui.item(window, "agentEditEnv").setProperty("text", "A=1\nB=two words")
        ui.item(window, "agentEditFolder").setProperty("text", str(folder))
        ui.item(window, "agentEditMode").setProperty("text", "plan")
        ui.item(window, "agentEditSave").clicked.emit()
        await ui.until(lambda: "next starts" in agents.said)
        saved = json.loads(config.read_text())["agents"]
        assert saved == [
            {
                "name": "Old",
                "command": "python3 old.py",
                "env": {"A": "1", "B": "two words"},
                "mine": True,
                "cwd": str(folder),
                "defaultMode": "plan",
            }
        ]
        await ui.until(lambda: not _visible(window, "agentEditor"))  # closed once saved
        await ui.screenshots(window, "62-settings-agent-saved")

    ui.run(scenario())


def test_the_list_of_sections_scrolls_to_the_one_clicked_and_marks_it(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        window.root.resize(1180, 560)  # too short for every section at once
        await open_settings(ui, window)
        flick = ui.item(window, "settingsScroll").property("contentItem")
        nav = ui.item(window, "settingsNav_Appearance")
        assert nav.property("highlighted") and flick.property("contentY") == 0
        await mouse_click(ui, window, "settingsNav_Terminals")
        heading = ui.item(window, "settingsSection_Terminals")
        await ui.until(lambda: flick.property("contentY") > 0)
        top = heading.mapToItem(flick, 0, 0).y()
        assert abs(top) <= 1 or flick.property("atYEnd"), top  # at the top, or as far as the column goes
        assert ui.item(window, "settingsNav_Terminals").property("highlighted")
        assert not nav.property("highlighted")
        await ui.screenshots(window, "67-settings-sections")

    ui.run(scenario())


def test_the_theme_is_three_choices_in_view_and_a_click_on_one_takes_it(ui, isolated_dirs):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        app = window.objects.app
        await open_settings(ui, window)
        segments = [ui.item(window, f"segment_{value}") for value in ("system", "light", "dark")]
        assert [s.property("visible") for s in segments] == [True, True, True]  # none hidden in a list
        await mouse_click(ui, window, "segment_dark")
        await ui.until(lambda: app.colorScheme == "dark")
        await mouse_click(ui, window, "segment_light")
        await ui.until(lambda: app.colorScheme == "light")
        assert segments[1].property("chosen") and not segments[2].property("chosen")

    ui.run(scenario())


def test_an_accent_clicked_in_settings_recolours_the_window_at_once_and_is_saved(ui, isolated_dirs):
    config = isolated_dirs / "config.json"

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        app = window.objects.app
        await open_settings(ui, window)
        theme = lambda: window.root.property("theme").property("accent").name()  # noqa: E731
        blue = theme()
        assert app.accent == "blue" and ui.item(window, "accent_blue").property("chosen")
        await mouse_click(ui, window, "accent_green")
        await ui.until(lambda: app.accent == "green")
        await ui.until(lambda: theme() != blue)
        assert ui.item(window, "accent_green").property("chosen")
        assert not ui.item(window, "accent_blue").property("chosen")
        await ui.until(lambda: config.exists() and json.loads(config.read_text()).get("appearance"))
        assert json.loads(config.read_text())["appearance"]["accent"] == "green"
        assert focused(window) == "settingsAccent"  # the ring follows the click
        await ui.frames(window, 20)  # the switches' colour glides to the new accent
        await ui.screenshots(window, "52-settings-accent")

    ui.run(scenario())
