"""The terminal panel in the real window as a shell is used in it (bash on a PTY): selection, copy,
paste, history keys and scrollback, a 1 MB burst reaching the screen whole, keys following the
program's modes, a host error shown, a view built late, a cursor position asked for."""

from __future__ import annotations

import re
import sys

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from tests.ui.terminals.panel_support import (
    CTRL,
    SHIFT,
    click,
    clicks,
    lines_after,
    mouse_click,
    open_panel,
    open_window,
    outside_task_settled,
    prompt_shown,
    screen_text,
    type_line,
)

pytestmark = pytest.mark.usefixtures("plain_bash")  # conftest.py: bash without the user's rc files


def test_selection_copy_paste_history_keys_and_scrollback(ui):
    async def scenario():
        window = await open_window(ui)
        panel, screen = await open_panel(ui, window)
        await type_line(ui, window, "seq 1 120; echo copy-me-$((3*3))")
        emulator = panel.terminal_emulator(panel.currentId)
        await ui.until(lambda: "copy-me-9" in lines_after(emulator.text(), "copy-me-$((3*3))"))
        # drag across the output line, copy with Ctrl+Shift+C
        lines = screen.property("text").split("\n")
        row = lines.index("copy-me-9")
        line_height = screen.property("lineHeight")
        y = int(row * line_height + line_height / 2)
        start = screen.mapToScene(QPointF(1, y)).toPoint()
        end = screen.mapToScene(QPointF(200, y)).toPoint()

        def drag() -> None:
            QTest.mousePress(window.root, Qt.MouseButton.LeftButton, pos=start)
            QTest.mouseMove(window.root, end)
            QTest.mouseRelease(window.root, Qt.MouseButton.LeftButton, pos=end)

        await outside_task_settled(drag)
        await ui.until(lambda: screen.property("selectedText") == "copy-me-9")
        await click(window, Qt.Key.Key_C, CTRL | SHIFT)
        assert QGuiApplication.clipboard().text() == "copy-me-9"
        # Ctrl+Shift+V pastes into the shell (marked as a paste: Enter runs it)
        QGuiApplication.clipboard().setText("echo pasted-$((2+3))")
        await click(window, Qt.Key.Key_V, CTRL | SHIFT)
        await click(window, Qt.Key.Key_Return)
        await ui.until(lambda: "pasted-5" in lines_after(screen_text(ui, window), "echo pasted-$((2+3))"))
        # Up goes to the shell (its history), not to the scrollback
        await click(window, Qt.Key.Key_Up)
        await click(window, Qt.Key.Key_Return)
        await ui.until(lambda: screen_text(ui, window).count("pasted-5\n") >= 2)
        assert screen.property("scrollBack") == 0
        # Shift+PageUp scrolls back; typing returns to the prompt
        await click(window, Qt.Key.Key_PageUp, SHIFT)
        await ui.until(lambda: screen.property("scrollBack") > 0)
        await clicks(window, "x")
        await ui.until(lambda: screen.property("scrollBack") == 0)

    ui.run(scenario())


def test_a_1_mb_burst_into_the_shown_terminal_reaches_its_screen_whole(ui, tmp_path):
    """Every character of a 1 MB `cat` goes through the panel's emulator (the GUI's longest stall
    meanwhile: bench/terminal_panel_stream.py)."""
    big = tmp_path / "big.txt"
    line = "burst line {:06d} " + "x" * 60 + "\n"
    with big.open("w") as out:
        count = 0
        while out.tell() < 1024 * 1024:
            out.write(line.format(count))
            count += 1

    async def scenario():
        window = await open_window(ui)
        panel, _screen = await open_panel(ui, window)
        emulator = panel.terminal_emulator(panel.currentId)
        await type_line(ui, window, f"cat {big.name}; echo burst-$((40+2))")
        await ui.until(lambda: "burst-42" in screen_text(ui, window).split("\n"), 60)
        assert emulator.skipped_chars == 0  # every character emulated, none dropped
        assert f"burst line {count - 1:06d}" in screen_text(ui, window)
        assert emulator.scrolled_total + emulator.rows >= count  # every line went through the screen

    ui.run(scenario(), timeout=120)


def test_keys_follow_the_programs_modes_and_window_shortcuts_do_not_take_the_shells_keys(ui):
    async def scenario():
        window = await open_window(ui)
        panel, _screen = await open_panel(ui, window)
        # a program that asks for application cursor keys; cat -v shows what it receives
        await type_line(ui, window, "printf '\\033[?1h'; cat -v")
        await ui.until(lambda: panel.terminal_emulator(panel.currentId).app_cursor_keys)
        await click(window, Qt.Key.Key_Up)
        await click(window, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)  # Alt: ESC first (Meta)
        await click(window, Qt.Key.Key_O, CTRL)  # the window's "attach files" shortcut: the shell's here
        await click(window, Qt.Key.Key_Return)
        await ui.until(lambda: "^[OA^[b^O" in screen_text(ui, window).split("\n"))
        assert window.objects.composer_files.dialog is None  # no file dialog opened
        await click(window, Qt.Key.Key_C, CTRL)
        await ui.until(lambda: prompt_shown(screen_text(ui, window)))

    ui.run(scenario())


def test_a_host_error_is_shown_in_the_panel_and_never_raised(ui, monkeypatch):
    from app.main.terminals import user as user_terminals

    monkeypatch.setattr(user_terminals, "MAX_USER_TERMINALS", 1)

    async def scenario():
        window = await open_window(ui)
        panel, _screen = await open_panel(ui, window)
        await mouse_click(ui, window, "newTerminalButton")  # a second one is over the limit
        error = ui.item(window, "terminalPanelError")
        await ui.until(lambda: error.isVisible())
        assert "At most 1 terminals can be open" in ui.item(window, "terminalPanelErrorText").property("text")
        assert "Could not open a terminal" in window.objects.notices.notice
        assert panel.count == 1 and panel.panelOpen  # the panel and its terminal carry on
        await mouse_click(ui, window, "dismissTerminalError")
        await ui.until(lambda: not error.isVisible())

    ui.run(scenario())


def test_a_view_built_after_a_terminal_started_shows_its_kept_output(ui):
    from app.renderer.qt.terminals.panel import UserTerminalsView

    async def scenario():
        window = await open_window(ui)
        objects = window.objects
        host = window.host.terminals
        terminal_id = host.open(None, 0, 80, 24)  # started before the view below exists
        host.input(terminal_id, "echo kept-$((5*5))\r")
        await ui.until(lambda: "kept-25" in host.output(terminal_id))
        later = UserTerminalsView(host, objects.session, objects.ops)
        ui.model_checks.watch(later.model)
        try:
            assert [entry["terminalId"] for entry in later.model.entries] == [terminal_id]
            screen = later.terminal_emulator(terminal_id)
            await ui.until(lambda: not screen.behind)  # emulated in slices, after the loop is idle
            assert "kept-25" in screen.text().split("\n")
        finally:
            later.shutdown()

    ui.run(scenario())


def test_a_program_asking_where_the_cursor_is_gets_the_panels_answer(ui, tmp_path):
    """Full-screen programs ask the terminal (cursor position); the panel's emulator answers through
    the host, not as the user's input (human recency stays)."""
    script = tmp_path / "ask.py"
    script.write_text(
        "import os, sys, termios, tty\n"
        "old = termios.tcgetattr(0)\n"
        "tty.setraw(0)\n"
        "os.write(1, b'\\x1b[6n')\n"
        "reply = b''\n"
        "while not reply.endswith(b'R'):\n"
        "    reply += os.read(0, 1)\n"
        "termios.tcsetattr(0, termios.TCSADRAIN, old)\n"
        "print('answered', reply[2:-1].decode().replace(';', 'x'))\n"
    )

    async def scenario():
        window = await open_window(ui)
        _panel, _screen = await open_panel(ui, window)
        await type_line(ui, window, f"{sys.executable} {script}")
        await ui.until(lambda: re.search(r"answered \d+x\d+", screen_text(ui, window)), 20)

    ui.run(scenario())
