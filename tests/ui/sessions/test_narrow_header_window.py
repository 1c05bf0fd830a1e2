"""The header fits the window down to 800 px wide: nothing is cut off (the settings button used to fall
off the edge at 960 px); a narrow header keeps its buttons as icons with tooltips and elides the
agent's name and the chat's title. Under 900 px the chats fold away behind a header button (Ctrl+B)
so the conversation keeps its column."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from tests.conftest import demo_agent_argv, scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click


def _outside(window) -> list[str]:
    """Each visible part of the header row that does not lie wholly inside the window."""
    row = _find(window.root.contentItem(), "headerRow")
    found = []
    for child in row.childItems():
        if not child.isVisible() or child.width() <= 0:
            continue
        left = child.mapToScene(QPointF(0, 0)).x()
        if left < 0 or left + child.width() > window.root.width() + 0.5:
            found.append(f"{child.objectName() or type(child).__name__} at {left:.0f}+{child.width():.0f}")
    return found


def _find(item, name):
    if item.objectName() == name:
        return item
    for child in item.childItems():
        hit = _find(child, name)
        if hit is not None:
            return hit
    return None


def test_every_header_control_stays_inside_a_narrow_window(ui):
    async def scenario():
        window = await ui.open(demo_agent_argv())
        await ui.type_and_send(window, "/echo hello")  # the agent's modes, models and usage fill the header
        await ui.until(lambda: not window.objects.session.busy)
        header = ui.item(window, "headerBar")
        for width in (1280, 960, 800):
            window.root.resize(width, 640)
            await ui.until(lambda expected=width: window.root.width() == expected)
            await ui.frames(window, 3)
            assert _outside(window) == [], width
            settings = ui.item(window, "settingsButton")
            right = settings.mapToScene(QPointF(settings.width(), 0)).x()
            assert settings.isVisible() and right <= width, (width, right)
            terminal_label = ui.item(window, "terminalToggleLabel").property("label")
            assert (terminal_label == "") == header.property("narrow"), width  # words only where they fit
        assert header.property("narrow")  # at 800 the header is narrow
        assert ui.item(window, "headerAgent").property("text") == window.objects.agent.label  # and its agent
        await ui.screenshots(window, "62-narrow-header")

    ui.run(scenario())


def test_a_narrow_window_folds_the_chats_away_and_a_button_brings_them_back_until_one_is_chosen(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.until(lambda: objects.sessions.model.rowCount() >= 3)
        sidebar, toggle = ui.item(window, "sidebar"), ui.item(window, "sidebarToggle")
        window.root.resize(1180, 700)
        await ui.until(lambda: sidebar.isVisible() and not toggle.isVisible())  # room for both
        window.root.resize(860, 700)
        await ui.until(lambda: not sidebar.isVisible() and toggle.isVisible())  # folded away
        timeline = ui.item(window, "timeline")
        assert timeline.width() > 700  # the chat has the room
        await mouse_click(ui, window, "sidebarToggle")
        await ui.until(lambda: sidebar.isVisible())
        await ui.screenshots(window, "93-sidebar-unfolded-narrow")
        first = objects.sessions.entries()[0]["key"]
        await mouse_click(ui, window, f"sessionRow_{first}")
        await ui.until(lambda: objects.session.sessionKey == first)
        await ui.until(lambda: not sidebar.isVisible())  # a chat chosen: folded again
        await ui.key(window, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)  # and from the keyboard
        await ui.until(lambda: sidebar.isVisible())

    ui.run(scenario())
