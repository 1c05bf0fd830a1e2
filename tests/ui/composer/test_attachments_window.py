"""Files into the composer in the real window, and what the agent (a real subprocess) receives: paste
an image (saved as a file, thumbnail chip), drop a file (removable chip), `@` mention with fuzzy
completion, and an image for an agent without image support refused clearly with nothing lost."""

from __future__ import annotations

import base64
import json
import os

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QColor, QDragEnterEvent, QDragMoveEvent, QDropEvent, QGuiApplication, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.conftest import scripted_agent_argv


def _chips(ui, window) -> list[dict]:
    return list(window.objects.composer_files.items)


def _prompt_blocks(window) -> list[dict]:
    """What the scripted agent reported receiving (its `echo-meta` reply is JSON)."""
    timeline = window.objects.session.timeline
    for item_id in reversed(timeline.order):
        item = timeline.items[item_id]
        if getattr(item, "role", "") == "assistant":
            text = "".join(getattr(part, "text", "") for part in item.parts)
            if text.startswith("{"):
                return json.loads(text)["prompt"]
    return []


def _drop(window, item, urls: list[QUrl]) -> None:
    """A real drag-and-drop sequence delivered to the window over `item`."""
    mime = QMimeData()
    mime.setUrls(urls)
    centre = item.mapToScene(QPointF(item.width() / 2, item.height() / 2)).toPoint()
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    for event in (
        QDragEnterEvent(centre, Qt.DropAction.CopyAction, mime, buttons, modifiers),
        QDragMoveEvent(centre, Qt.DropAction.CopyAction, mime, buttons, modifiers),
        QDropEvent(QPointF(centre), Qt.DropAction.CopyAction, mime, buttons, modifiers),
    ):
        QApplication.sendEvent(window.root, event)


def test_paste_an_image_then_send_it_as_an_image_block(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        image = QImage(30, 20, QImage.Format.Format_RGB32)
        image.fill(QColor("#3366cc"))
        QGuiApplication.clipboard().setImage(image)
        composer = ui.item(window, "composerInput")
        composer.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        [chip] = await ui.until(lambda: _chips(ui, window))
        assert chip["image"] and chip["name"].startswith("pasted-") and os.path.isfile(chip["path"])
        assert chip["path"].startswith(os.environ["CLAWQT_DATA_DIR"])
        await ui.until(lambda: _chips(ui, window)[0]["thumbnail"])  # made by Pillow off the GUI thread
        thumbnail = await ui.until(lambda: ui.find(window, "chipThumbnail"))
        await ui.until(lambda: thumbnail.property("implicitWidth") > 0)
        assert composer.property("text") == ""  # the image did not paste as text
        await ui.screenshot(window, "15-pasted-image-chip")
        await ui.type_and_send(window, "echo-meta what is this")
        await ui.until(lambda: _prompt_blocks(window))
        blocks = _prompt_blocks(window)
        assert blocks[0] == {"type": "text", "text": "echo-meta what is this"}
        assert blocks[1]["type"] == "image" and blocks[1]["mimeType"] == "image/png"
        decoded = QImage.fromData(base64.b64decode(blocks[1]["data"]))
        assert (decoded.width(), decoded.height()) == (30, 20)
        assert not _chips(ui, window)  # sent: the chips are cleared

    ui.run(scenario())


def test_drop_a_file_remove_it_drop_again_and_send_it_embedded(ui):
    notes = ui.tmp_path / "notes.txt"
    notes.write_text("remember the milk\n")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        area = ui.item(window, "composerDropArea")
        _drop(window, area, [QUrl.fromLocalFile(str(notes))])
        [chip] = await ui.until(lambda: _chips(ui, window))
        assert chip["name"] == "notes.txt" and not chip["image"]
        ui.item(window, "removeChip").clicked.emit()
        await ui.until(lambda: not _chips(ui, window))
        _drop(window, area, [QUrl.fromLocalFile(str(notes)), QUrl("https://example.com/x")])
        await ui.until(lambda: _chips(ui, window))
        assert [c["name"] for c in _chips(ui, window)] == ["notes.txt"]
        assert "Only local files" in window.objects.notices.notice
        await ui.type_and_send(window, "echo-meta read this")
        await ui.until(lambda: _prompt_blocks(window))
        resource = _prompt_blocks(window)[1]
        assert resource["type"] == "resource"  # the scripted agent allows embedded context
        assert resource["resource"]["text"] == "remember the milk\n"
        assert resource["resource"]["uri"] == notes.resolve().as_uri()

    ui.run(scenario())


def test_at_mention_completes_fuzzily_and_attaches_the_file(ui):
    (ui.tmp_path / "src").mkdir()
    (ui.tmp_path / "src" / "app_main.py").write_text("print('hi')\n")
    (ui.tmp_path / "README.md").write_text("readme\n")
    (ui.tmp_path / "node_modules").mkdir()
    (ui.tmp_path / "node_modules" / "app_main.js").write_text("skipped\n")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        composer = ui.item(window, "composerInput")
        composer.forceActiveFocus()
        await ui.keys(window, "look at @apmn")
        listing = await ui.until(lambda: ui.find(window, "mentionList"))  # the popup is shown
        await ui.until(lambda: listing.isVisible() and listing.property("count") == 1)
        assert window.objects.composer_files.mentionCandidates("apmn") == ["src/app_main.py"]
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: _chips(ui, window))
        assert composer.property("text") == "look at @src/app_main.py "
        assert _chips(ui, window)[0]["path"] == str(ui.tmp_path / "src" / "app_main.py")
        assert not window.objects.session.busy  # Enter chose the file; it did not send

    ui.run(scenario())


def test_an_image_for_an_agent_without_image_support_is_refused_and_kept(ui):
    caps = json.dumps({"loadSession": True, "promptCapabilities": {"image": False}})

    async def scenario():
        window = await ui.open(scripted_agent_argv(f"--caps={caps}"))
        picture = ui.tmp_path / "shot.png"
        image = QImage(8, 8, QImage.Format.Format_RGB32)
        image.fill(QColor("red"))
        image.save(str(picture))
        window.objects.composer_files.addUrls([QUrl.fromLocalFile(str(picture))])
        await ui.until(lambda: _chips(ui, window))
        await ui.type_and_send(window, "echo-meta look")
        await ui.until(lambda: "does not accept images" in window.objects.notices.notice)
        assert "shot.png" in window.objects.notices.notice
        assert [c["name"] for c in _chips(ui, window)] == ["shot.png"]  # nothing the user attached is lost
        assert not _prompt_blocks(window)

    ui.run(scenario())


def test_the_attach_button_opens_a_file_dialog_whose_choice_becomes_a_chip(ui):
    chosen = ui.tmp_path / "report.txt"
    chosen.write_text("quarterly\n")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        files = window.objects.composer_files
        # Ctrl+O (or the Attach button); through the window system so the shortcut map sees it
        window.root.requestActivate()
        await ui.until(lambda: window.root.isActive())
        QTest.keyClick(window.root, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
        dialog = await ui.until(lambda: files.dialog)
        await ui.until(lambda: dialog.isVisible())
        assert dialog.directory().absolutePath() == str(ui.tmp_path)  # opens in the session's folder
        # the user's choice: what the dialog emits when files are picked (its list widget is not
        # reliably drivable headless)
        dialog.filesSelected.emit([str(chosen)])
        [chip] = await ui.until(lambda: _chips(ui, window))
        assert chip["path"] == str(chosen) and chip["name"] == "report.txt"

    ui.run(scenario())
