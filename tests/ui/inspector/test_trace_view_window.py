"""Open trace… in the protocol inspector, in the real window with the scripted agent: a trace the
inspector saved from two real chats opens (the desktop's file dialog) as a read-only chat through the
replay pipeline, its sessions walked with Previous/Next, nothing in it sendable; Close goes back to the
chat; a file that is not a trace is refused in words and changes nothing."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from app.renderer.qt.composer.turn import NEW_CHAT_DRAFT
from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click, outside_task_settled
from tests.ui_harness import find_all, shown_save_dialog, user_texts


def shown_open_dialog():
    """The desktop's open-file dialog the window opened (Qt's own QFileDialog here), or None."""
    from PySide6.QtWidgets import QApplication, QFileDialog

    opening = QFileDialog.AcceptMode.AcceptOpen
    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog) and w.isVisible()]
    return next((w for w in shown if w.acceptMode() == opening), None)


def _choose(dialog, path) -> None:
    dialog.findChild(QLineEdit, "fileNameEdit").setText(str(path))
    dialog.accept()


async def _open_inspector(ui, window):
    await ui.key(window, Qt.Key.Key_F12)
    panel = await ui.until(lambda: ui.find(window, "inspectorPanel"))
    await ui.until(lambda: panel.isVisible())
    return panel


async def _hover_first_message(ui, window) -> None:
    bubble = await ui.shown(window, "userBubble")
    centre = bubble.mapToScene(QPointF(bubble.width() / 2, bubble.height() / 2)).toPoint()
    await outside_task_settled(lambda: QTest.mouseMove(window.root, centre))
    await ui.frames(window, 2)


def test_a_saved_trace_opens_as_a_read_only_chat_and_close_goes_back(ui, tmp_path):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.type_and_send(window, "hello from the first chat")
        await ui.until(lambda: not objects.session.busy and "assistant-text" in ui.kinds(window))
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first), 20)
        second = objects.session.sessionKey
        await ui.type_and_send(window, "hello from the second chat")
        await ui.until(lambda: not objects.session.busy and "assistant-text" in ui.kinds(window))
        objects.session.openSession(first)  # loaded again: the agent replays its history
        await ui.until(lambda: objects.session.sessionKey == first and "user" in ui.kinds(window), 20)
        shown_live = user_texts(objects)

        await _open_inspector(ui, window)
        await mouse_click(ui, window, "inspectorSave")
        trace = tmp_path / "two-chats.jsonl"
        _choose(await ui.until(shown_save_dialog), trace)
        await ui.until(lambda: trace.exists() and "Trace of" in objects.notices.notice, 20)

        await mouse_click(ui, window, "inspectorOpen")
        _choose(await ui.until(shown_open_dialog), trace)
        banner = ui.item(window, "traceBanner")
        await ui.until(lambda: banner.isVisible(), 20)
        assert objects.session.readOnly and objects.session.sessionKey == ""
        assert objects.trace_view.count == 2  # the recording ended on the first chat: it is shown
        assert user_texts(objects) == shown_live  # as the live window showed it when the recording ended
        assert objects.header.title == "Trace two-chats.jsonl"
        assert not ui.item(window, "composerInput").property("enabled")
        assert not ui.find(window, "modeSelect").isVisible()  # nothing to change in a trace
        assert "session 1 of 2" in ui.item(window, "traceSummary").property("text")
        await ui.screenshots(window, "70-trace-replay")
        await _hover_first_message(ui, window)  # a trace's message is no checkpoint: nothing to offer
        for action in ("branchHereButton", "restoreHereButton"):
            assert not [b for b in find_all(window.root.contentItem(), action) if b.isVisible()]

        assert not ui.item(window, "tracePrevious").property("enabled")
        await mouse_click(ui, window, "traceNext")
        await ui.until(lambda: user_texts(objects) == ["hello from the second chat"])
        assert objects.session.readOnly and not objects.session.busy
        objects.turn.send("this must go nowhere")  # nothing typed in a trace reaches an agent
        assert user_texts(objects) == ["hello from the second chat"] and objects.queue.texts() == []
        assert objects.queue.messages(NEW_CHAT_DRAFT) == []  # not queued for a chat to come either

        await mouse_click(ui, window, "traceClose")
        await ui.until(lambda: objects.session.sessionKey == first and not banner.isVisible(), 20)
        assert not objects.session.readOnly and ui.item(window, "composerInput").property("enabled")
        assert objects.trace_view.count == 0 and second != first
        assert "this must go nowhere" not in user_texts(objects)
        assert objects.queue.texts() == []

    ui.run(scenario(), timeout=90)


def test_a_file_that_is_not_a_trace_is_refused_in_words_and_the_chat_stays(ui, tmp_path):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        key = objects.session.sessionKey
        notes = tmp_path / "notes.jsonl"
        notes.write_text('{"hello": "world"}\nnot json at all\n')
        await _open_inspector(ui, window)
        await mouse_click(ui, window, "inspectorOpen")
        _choose(await ui.until(shown_open_dialog), notes)
        await ui.until(lambda: objects.notices.notice.startswith("The trace was not opened"), 20)
        assert "notes.jsonl holds no ACP session" in objects.notices.notice
        assert objects.session.sessionKey == key and not objects.session.readOnly
        assert not ui.item(window, "traceBanner").isVisible()

    ui.run(scenario())
