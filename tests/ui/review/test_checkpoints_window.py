"""Restore to here in the real window: after two turns whose shell commands changed the chat's
folder, the pointer on the first message offers Restore files to here; the dialog lists every file that
will change before anything does, and Restore puts the folder back as it was when that message was
sent (the file made later removed). The chat itself stays as it was."""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF
from PySide6.QtQuick import QQuickItem
from PySide6.QtTest import QTest

from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click, outside_task_settled, settled_centre
from tests.ui_harness import find_all


def test_restore_to_the_first_message_shows_the_plan_then_puts_the_files_back(ui):
    folder = ui.tmp_path
    (folder / "app.txt").write_text("version 0\n")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.send_and_settle(window, "shell echo 'version 1' > app.txt")
        await ui.send_and_settle(window, "shell echo 'version 2' > app.txt && echo new > later.txt")
        assert (folder / "later.txt").exists()

        bubbles = await ui.until(
            lambda: (
                len(find_all(window.root.contentItem(), "userBubble")) == 2
                and find_all(window.root.contentItem(), "userBubble")
            )
        )
        first = min(bubbles, key=lambda b: b.mapToScene(QPointF(0, 0)).y())
        first_id = _row_message_id(first)
        centre = await settled_centre(ui, first)  # the list may still be scrolling to its end
        await outside_task_settled(lambda: QTest.mouseMove(window.root, centre))
        buttons = await ui.until(
            lambda: [b for b in find_all(window.root.contentItem(), "restoreHereButton") if b.isVisible()]
        )
        assert len(buttons) == 1  # only the message under the pointer offers it
        await ui.screenshots(window, "93a-restore-here")
        await mouse_click(ui, window, "restoreHereButton")

        dialog = window.root.findChild(QObject, "restoreDialog")
        await ui.until(
            lambda: dialog.property("opened"),
            seen=lambda: (objects.notices.notice, objects.checkpoints.turnId, objects.checkpoints.busy),
        )
        assert objects.checkpoints.turnId == first_id  # the first message's checkpoint, not the second's
        steps = {step["name"]: step["action"] for step in objects.checkpoints.steps}
        assert steps == {"app.txt": "put back", "later.txt": "deleted"}
        assert (folder / "app.txt").read_text() == "version 2\n"  # nothing changed yet
        assert ui.item(window, "restoreYes").property("highlighted")  # the primary
        await ui.screenshots(window, "93-restore-plan")
        await mouse_click(ui, window, "restoreYes")
        await ui.until(lambda: (folder / "app.txt").read_text() == "version 0\n")
        assert not (folder / "later.txt").exists()
        assert objects.checkpoints.said == ""
        assert len(find_all(window.root.contentItem(), "userBubble")) == 2  # the chat stays as it was

    ui.run(scenario())


def _row_message_id(item: QQuickItem) -> str:
    """The message id of the user row holding `item` (what its Restore to here asks for)."""
    while item is not None and not item.property("messageId"):
        item = item.parentItem()
    assert item is not None, "the bubble is in no user row"
    return item.property("messageId")
