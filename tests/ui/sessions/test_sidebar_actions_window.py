"""A sidebar row under the pointer offers its own actions, as desktop chat apps do: pin (the chat stays
at the top, under those that need the user, across restarts), rename and delete; delete asks first and
Cancel keeps the chat. The chats are the scripted agent's, listed over ACP; the pointer is real."""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, QPointF
from PySide6.QtTest import QTest

from tests.conftest import scripted_agent_argv
from tests.ui.settings.test_settings_window import dialog_of
from tests.ui.terminals.panel_support import mouse_click, outside_task_settled
from tests.ui_harness import find_all


async def _hover(ui, window, name: str) -> None:
    row = await ui.shown(window, name)
    centre = row.mapToScene(QPointF(row.width() / 2, row.height() / 2)).toPoint()
    await outside_task_settled(lambda: QTest.mouseMove(window.root, centre))


def _visible(window, name: str) -> list:
    return [item for item in find_all(window.root.contentItem(), name) if item.isVisible()]


def _popup(window, name: str):
    """A dialog of the sidebar (a popup: an object of the window, not an item of its tree)."""
    return window.root.findChild(QObject, name)


def _first_titles(window, count: int) -> list[str]:
    entries = window.objects.sessions.entries()
    return [entry["title"] for entry in entries[:count]]


def test_a_row_under_the_pointer_pins_renames_and_deletes_its_chat_delete_asking_first(ui, isolated_dirs):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        sessions = window.objects.sessions
        await ui.until(lambda: sessions.model.rowCount() >= 10)
        key = next(e["key"] for e in sessions.entries() if e["title"] == "Session 3")
        row = f"sessionRow_{key}"
        await _hover(ui, window, row)
        actions = await ui.until(lambda: next(iter(_visible(window, "sessionActions")), None))
        holder = actions.parentItem()
        while holder is not None and not holder.objectName().startswith("sessionRow_"):
            holder = holder.parentItem()
        assert holder is not None and holder.objectName() == row  # the hovered row's own
        await ui.screenshots(window, "87-sidebar-row-actions")

        await mouse_click(ui, window, "sessionPin")
        await ui.until(lambda: _first_titles(window, 1) == ["Session 3"])
        assert sessions.entries()[0]["group"] == "Pinned"
        pins = json.loads((isolated_dirs / "data" / "session-pins.json").read_text())
        assert key in pins  # kept for the next start
        groups = [g.property("text") for g in _visible(window, "sessionGroup")]
        assert "Pinned" in groups, groups
        await ui.screenshots(window, "88-sidebar-pinned")

        await _hover(ui, window, row)
        await mouse_click(ui, window, "sessionRename")
        rename = _popup(window, "renameChatDialog")
        await ui.until(lambda: rename.property("opened"))
        assert rename.findChild(QObject, "renameChatField").property("text") == "Session 3"
        rename.close()

        await _hover(ui, window, row)
        await mouse_click(ui, window, "sessionDelete")
        asking = _popup(window, "deleteChatDialog")
        await ui.until(lambda: asking.property("opened"))
        await ui.screenshots(window, "89-delete-chat-asks")
        await mouse_click(ui, window, "deleteChatCancel")
        await ui.until(lambda: not asking.property("visible"))
        assert any(e["key"] == key for e in sessions.entries())  # Cancel keeps it

        await _hover(ui, window, row)
        await mouse_click(ui, window, "sessionDelete")
        await ui.until(lambda: asking.property("opened"))
        await mouse_click(ui, window, "deleteChatConfirm")
        await ui.until(lambda: all(e["key"] != key for e in sessions.entries()))
        pins = json.loads((isolated_dirs / "data" / "session-pins.json").read_text())
        assert key not in pins  # a deleted chat's pin goes with it

    ui.run(scenario())


def test_the_sidebar_footer_says_which_agent_and_how_it_is_and_opens_its_settings(ui, isolated_dirs):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.until(lambda: objects.agent.state == "ready")
        label = ui.item(window, "agentStateLabel")
        assert label.property("text") == f"{objects.agent.label} \u00b7 ready"
        footer, sidebar = ui.item(window, "sidebarFooter"), ui.item(window, "sidebar")
        assert footer.mapToItem(sidebar, QPointF(0, 0)).y() > sidebar.height() * 0.8  # at its foot
        await mouse_click(ui, window, "agentStatus")
        settings = dialog_of(window)
        await ui.until(lambda: settings.property("opened") and settings.property("currentSection") == 4)

    ui.run(scenario())
