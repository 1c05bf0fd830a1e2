"""Export a chat as Markdown and copy a turn as Markdown, in the real window: the desktop's save dialog
(Qt's own, offscreen), the file written by the main side, what the file says on a 2,000-turn chat, a
failure said in words, and an empty chat refused."""

from __future__ import annotations

import re
import time

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QLineEdit

from tests.conftest import scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click
from tests.ui_harness import shown_save_dialog

TURNS = 2_000


def test_a_2000_turn_chat_exports_as_markdown_through_the_save_dialog(ui, tmp_path):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        objects.session.openSession(f"big-{TURNS}")
        await ui.until(lambda: objects.session.sessionKey == f"big-{TURNS}", 60)
        await ui.until(lambda: len(objects.model.rows) > 5 * TURNS, 60)

        await ui.key(
            window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        dialog = await ui.until(shown_save_dialog)
        assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
        suggested = dialog.selectedFiles()[0]
        assert suggested.endswith(".md") and "/" not in suggested.rsplit("/", 1)[1].removesuffix(".md")
        target = tmp_path / "exported chat.md"
        started = time.perf_counter()
        dialog.findChild(QLineEdit, "fileNameEdit").setText(str(target))  # typed into the dialog
        dialog.accept()
        await ui.until(lambda: target.exists() and not objects.export.busy, 30, seen=dialog.selectedFiles)
        took = time.perf_counter() - started
        await ui.until(lambda: "Chat exported to" in objects.notices.notice)
        text = target.read_text(encoding="utf-8")
        assert text.startswith("# ")
        assert text.count("\n## You\n") == TURNS and text.count("\n## Agent\n") == TURNS
        first, last = text.index("question 0?"), text.index(f"question {TURNS - 1}?")
        assert first < last
        assert text.count("```text\n3 hits\n```") == TURNS  # every tool's output, fenced
        assert text.count("> **Thought**") == TURNS
        print(f"exported {TURNS} turns ({len(text) / 1e6:.1f} MB) in {took:.2f} s")

        # the same through the chat menu; a failure is said in words and nothing is written
        await mouse_click(ui, window, "chatMenuButton")
        await ui.until(lambda: (entry := ui.find(window, "menuExport")) is not None and entry.isVisible())
        await ui.screenshots(window, "64-chat-menu")
        await mouse_click(ui, window, "menuExport")
        dialog = await ui.until(shown_save_dialog)
        dialog.reject()
        objects.export.save_to(str(tmp_path / "missing" / "chat.md"), "Big chat")
        await ui.until(lambda: "The chat was not exported" in objects.notices.notice)
        assert "does not exist" in objects.notices.notice
        assert not (tmp_path / "missing").exists()

    ui.run(scenario(), timeout=240)


def test_a_turn_copies_as_markdown_from_its_footer_and_an_empty_chat_is_not_exported(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        objects.export.exportChat()  # a new chat: nothing to export
        assert "nothing in this chat to export" in objects.notices.notice
        assert shown_save_dialog() is None
        objects.session.openSession("big-3")
        await ui.until(lambda: objects.session.sessionKey == "big-3", 30)
        await ui.until(lambda: len(objects.model.rows) > 15)
        QGuiApplication.clipboard().clear()
        await mouse_click(ui, window, "copyTurnMarkdown")  # the newest turn's footer is in view
        copied = await ui.until(lambda: QGuiApplication.clipboard().text())
        turn = re.match(r"> \*\*Thought\*\*\n>\n> thinking about (\d)\n\n", copied)
        assert turn is not None, copied[:200]
        assert "**grep -r x** (search, done)\n\n```text\n3 hits\n```" in copied
        assert copied.rstrip().endswith("after 4")
        assert f"question {turn.group(1)}?" not in copied  # the turn, not the question

    ui.run(scenario())
