"""The terminal panel in the real window, on real shells (bash on a PTY, through `make_host`'s
`UserTerminals`): the shortcut and focus, typing, resize reaching the PTY, the sharing control, the
participation banner, an agent's request, chat switches, and a 1 MB burst without a GUI stall."""

from __future__ import annotations

import asyncio
import re
import sys

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from app.renderer.qt.terminals.tabs import PARTICIPATION_MS
from bench.ui_common import outside_task
from tests.conftest import scripted_agent_argv
from tests.ui_harness import has_colour_near

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture(autouse=True)
def plain_bash(monkeypatch, tmp_path):
    """bash without the user's own rc files, so screens are predictable."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))


async def click(window, key: Qt.Key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed and released through the window system (the shortcut map sees it), run as a
    loop callback: QTest may process events, and a task started by the key must not start inside
    this coroutine's step."""
    await _outside_task(lambda: QTest.keyClick(window.root, key, modifiers))


async def clicks(window, text: str) -> None:
    """Typed characters (QTest's char form: the key and its text, as a keyboard sends them)."""

    def type_all() -> None:
        for char in text:
            QTest.keyClick(window.root, ord(char))

    await _outside_task(type_all)


async def _outside_task(action) -> None:
    await outside_task(action)
    await asyncio.sleep(0.02)  # what the action set off on the loop runs


async def open_window(ui):
    window = await ui.open(scripted_agent_argv())
    ui.model_checks.watch(window.objects.user_terminals.model)
    window.root.requestActivate()
    await ui.until(lambda: window.root.isActive())
    return window


def prompt_shown(text: str) -> bool:
    """bash's prompt ends in $ (or # for root, whatever PS1 the system's bashrc set)."""
    return text.rstrip().endswith(("$", "#"))


def screen_text(ui, window) -> str:
    return ui.item(window, "panelScreen").property("text")


async def open_panel(ui, window):
    """Ctrl+` through the window system (the shortcut map sees it), then a prompt in the shell."""
    await click(window, Qt.Key.Key_QuoteLeft, CTRL)
    panel = window.objects.user_terminals
    await ui.until(lambda: panel.panelOpen and panel.currentId)
    screen = ui.item(window, "panelScreen")
    await ui.until(lambda: screen.hasActiveFocus())
    await ui.until(lambda: prompt_shown(screen.property("text")), 20)
    return panel, screen


async def type_line(ui, window, text: str) -> None:
    """Real key events, one per character, then Enter."""
    await clicks(window, text)
    await click(window, Qt.Key.Key_Return)


def test_ctrl_backtick_opens_a_shell_that_takes_the_keys_and_gives_focus_back(ui):
    async def scenario():
        window = await open_window(ui)
        composer = ui.item(window, "composerInput")
        await ui.until(lambda: composer.hasActiveFocus())
        composer.setProperty("text", "draft for the agent")
        assert ui.find(window, "terminalPanel") is None  # nothing built before the panel opens
        _panel, screen = await open_panel(ui, window)
        await type_line(ui, window, "echo hi-$((6*7))")
        await ui.until(lambda: "hi-42" in screen_text(ui, window))
        assert composer.property("text") == "draft for the agent"  # nothing typed went there
        await ui.until(lambda: screen.property("paintedVersion") == screen.property("version"))
        # the output is painted (not only in the emulator): text-coloured pixels on its row
        row = screen_text(ui, window).split("\n").index("hi-42")
        line_height = screen.property("lineHeight")
        corner = screen.mapToScene(QPointF(0, row * line_height))
        cells = QRectF(corner.x(), corner.y() + 3, 60, line_height - 6)  # inside the row: not the cursor's
        assert has_colour_near(window.root.grabWindow(), cells, (0xD7, 0xDA, 0xE0), tolerance=40)
        await ui.screenshots(window, "40-terminal-panel")
        # pressed in the terminal, Ctrl+` returns to the composer; again, back to the terminal
        await click(window, Qt.Key.Key_QuoteLeft, CTRL)
        await ui.until(lambda: composer.hasActiveFocus())
        await clicks(window, "!")
        assert sorted(composer.property("text")) == sorted(
            "draft for the agent!"
        )  # typed where its cursor is
        assert "!" not in screen_text(ui, window).split("hi-42")[-1]
        await click(window, Qt.Key.Key_QuoteLeft, CTRL)
        await ui.until(lambda: screen.hasActiveFocus())
        await click(window, Qt.Key.Key_L, CTRL)  # Ctrl+L: the composer, also from the terminal
        await ui.until(lambda: composer.hasActiveFocus())

    ui.run(scenario())


def lines_after(text: str, command: str) -> list[str]:
    """The screen lines that follow the last line where `command` was typed (none before it shows)."""
    lines = text.split("\n")
    typed = max((i for i, line in enumerate(lines) if line.rstrip().endswith(command)), default=None)
    return [] if typed is None else [line.strip() for line in lines[typed + 1 :]]


async def mouse_click(ui, window, name: str) -> None:
    """A real left click in the middle of the item named `name` (through the window system), once a
    user could click it: shown, laid out and enabled."""
    item = await ui.shown(window, name)
    await ui.until(lambda: item.isVisible() and item.width() > 0 and item.isEnabled())
    centre = await _settled_centre(ui, item)
    await _outside_task(lambda: QTest.mouseClick(window.root, Qt.MouseButton.LeftButton, pos=centre))


async def _settled_centre(ui, item):
    """The item's centre once a layout pass has placed it: text that just changed (a command that
    wraps to more lines) moves the items below it only when the window next polishes."""
    seen: list = []

    def same_twice() -> bool:
        seen.append(item.mapToScene(QPointF(item.width() / 2, item.height() / 2)).toPoint())
        return len(seen) >= 3 and seen[-1] == seen[-2] == seen[-3]

    await ui.until(same_twice)
    return seen[-1]


def last_answer(text: str, name: str) -> int | None:
    """The number in the last screen line that reads exactly `name=N`: an answer, never the typed
    command (which a long prompt may wrap anywhere on a narrow screen)."""
    answers = [re.fullmatch(rf"{name}=(\d+)", line.strip()) for line in text.split("\n")]
    found = [int(match.group(1)) for match in answers if match]
    return found[-1] if found else None


SIZE_QUESTION = "echo cols=$(tput cols); echo lines=$(tput lines)"


def test_resizing_the_panel_resizes_the_pty_so_tput_sees_the_new_size(ui):
    async def scenario():
        window = await open_window(ui)
        panel, screen = await open_panel(ui, window)
        host = window.host.terminals
        terminal_id = panel.currentId

        def answers() -> tuple[int | None, int | None]:
            text = screen_text(ui, window)
            return last_answer(text, "cols"), last_answer(text, "lines")

        def seen() -> tuple:
            return screen.property("fitColumns"), screen.property("fitRows"), screen_text(ui, window)

        columns, rows = screen.property("fitColumns"), screen.property("fitRows")
        await ui.until(
            lambda: (host.info(terminal_id).columns, host.info(terminal_id).rows) == (columns, rows)
        )
        await type_line(ui, window, SIZE_QUESTION)
        await ui.until(lambda: answers() == (columns, rows), seen=seen)

        window.root.resize(900, 900)  # narrower and taller: the panel's screen follows
        await ui.until(lambda: screen.property("fitColumns") < columns)
        await asyncio.sleep(0.3)  # a busy machine lays the resized window out over several frames
        new_columns = screen.property("fitColumns")
        await ui.until(lambda: host.info(terminal_id).columns == new_columns)
        assert panel.terminal_emulator(terminal_id).columns == new_columns
        await type_line(ui, window, SIZE_QUESTION)
        await ui.until(lambda: answers()[0] == new_columns, seen=seen)

        # the user drags the handle between the chat and the panel down: fewer rows
        panel_item = ui.item(window, "terminalPanelLoader")
        top = panel_item.mapToScene(QPointF(panel_item.width() / 2, 0))
        grab, drop = QPointF(top.x(), top.y() - 1).toPoint(), QPointF(top.x(), top.y() + 120).toPoint()

        def drag() -> None:
            QTest.mousePress(window.root, Qt.MouseButton.LeftButton, pos=grab)
            for step in range(1, 7):
                QTest.mouseMove(window.root, QPointF(grab.x(), grab.y() + step * 20).toPoint())
            QTest.mouseRelease(window.root, Qt.MouseButton.LeftButton, pos=drop)

        await _outside_task(drag)
        await ui.until(lambda: screen.property("fitRows") < rows)
        new_rows = screen.property("fitRows")
        await ui.until(lambda: host.info(terminal_id).rows == new_rows)
        await type_line(ui, window, SIZE_QUESTION)
        await ui.until(lambda: answers() == (new_columns, new_rows), seen=seen)

    ui.run(scenario())


def test_only_the_users_sharing_control_changes_sharing_and_the_tab_always_shows_it(ui):
    async def scenario():
        window = await open_window(ui)
        panel, _screen = await open_panel(ui, window)
        host = window.host.terminals
        terminal_id = panel.currentId
        tab = ui.item(window, f"terminalTab_{terminal_id}")
        badge = next(item for item in _descendants(tab) if item.objectName() == "tabSharing")
        assert host.info(terminal_id).sharing == "off"
        assert _texts(badge) == ["Not shared"]
        await mouse_click(ui, window, "sharingButton")
        await ui.until(
            lambda: ui.find(window, "sharing_shared") and ui.item(window, "sharing_shared").isVisible()
        )
        await ui.screenshots(window, "41-terminal-sharing")
        await mouse_click(ui, window, "sharing_shared")
        await ui.until(lambda: host.info(terminal_id).sharing == "shared")
        await ui.until(lambda: _texts(badge) == ["Shared"])
        assert panel.model.entries[0]["sharing"] == "shared"
        await mouse_click(ui, window, "sharingButton")
        await mouse_click(ui, window, "sharing_status-only")
        await ui.until(lambda: host.info(terminal_id).sharing == "status-only")
        await ui.until(lambda: _texts(badge) == ["Status only"])

    ui.run(scenario())


def _descendants(item) -> list:
    found, stack = [], list(item.childItems())
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(current.childItems())
    return found


def _texts(item) -> list[str]:
    """The visible labels under an item (icon glyphs left out)."""
    return [
        child.property("text")
        for child in _descendants(item)
        if child.metaObject().className().startswith("QQuickText")
        and child.isVisible()
        and child.property("text")
        and not all(0xE000 <= ord(c) <= 0xF8FF for c in child.property("text"))
    ]


def test_agent_activity_shows_the_banner_until_its_five_seconds_end_and_sent_input_stays(ui):
    async def scenario():
        window = await open_window(ui)
        panel, _screen = await open_panel(ui, window)
        host = window.host.terminals
        terminal_id = panel.currentId
        banner = ui.item(window, "participationBanner")
        assert not banner.isVisible()
        panel.setSharing(terminal_id, "shared")  # the user shares it (their control)
        host.agent_activity(terminal_id, "read", "Agent")
        text = ui.item(window, "participationText")
        await ui.until(lambda: banner.isVisible() and text.isVisible())
        assert text.property("text") == "Agent is participating \u00b7 can read and type"
        tab = ui.item(window, f"terminalTab_{terminal_id}")
        assert "Agent participating" in _texts(tab)
        header = ui.item(window, "terminalToggleLabel")  # also said where the hidden panel opens
        assert header.property("label") == "Terminal \u00b7 agent participating"
        assert host.agent_write(terminal_id, b"echo typed-by-$((1+1))\r")
        sent = ui.item(window, "sentInputLabel")
        await ui.until(lambda: sent.isVisible())
        assert sent.property("text").endswith("Agent sent input")
        await ui.until(lambda: "typed-by-2" in screen_text(ui, window))
        await ui.screenshots(window, "42-terminal-participating")

        # the participation window: the banner ends when its 5 s timer does, not before
        window_timer = panel._terminals[terminal_id].participation
        fired: list[bool] = []
        window_timer.timeout.connect(lambda: fired.append(True))
        panel.setSharing(terminal_id, "status-only")
        host.agent_activity(terminal_id, "status", "Agent")
        await ui.until(lambda: text.property("text") == "Agent is participating \u00b7 status only")
        assert window_timer.isActive() and window_timer.interval() == PARTICIPATION_MS == 5000
        await ui.until(lambda: not text.isVisible(), 30)
        assert fired == [True], "the banner ended before its five seconds did"
        assert "Agent participating" not in _texts(tab)
        assert header.property("label") == "Terminal"
        assert banner.isVisible() and sent.isVisible()  # "sent input" stays: it did type

        pause = ui.item(window, "pauseSharing")
        assert pause.property("text") == "Pause"
        await mouse_click(ui, window, "pauseSharing")
        await ui.until(lambda: host.info(terminal_id).sharing == "off")
        await ui.until(lambda: pause.property("text") == "Enable")
        await mouse_click(ui, window, "pauseSharing")
        await ui.until(lambda: host.info(terminal_id).sharing == "shared")

    ui.run(scenario(), timeout=90)


def test_an_agents_request_shows_open_and_refuse_and_runs_only_when_opened(ui, tmp_path):
    async def scenario():
        window = await open_window(ui)
        host = window.host.terminals
        panel = window.objects.user_terminals
        key = window.objects.session.sessionKey
        refused_marker, opened_marker = tmp_path / "refused-marker", tmp_path / "opened-marker"
        refused = host.agent_request(key, "", f"echo ran > {refused_marker}", str(tmp_path), "shared")
        await ui.until(lambda: panel.panelOpen and panel.currentId == refused)  # shown at once
        request = ui.item(window, "terminalRequest")
        await ui.until(lambda: request.isVisible())
        assert ui.item(window, "requestCommand").property("text") == f"echo ran > {refused_marker}"
        assert ui.item(window, "requestFolder").property("text") == f"In {tmp_path}"
        assert ui.item(window, "requestSharing").property("label") == "Shared"
        composer = ui.item(window, "composerInput")
        assert composer.hasActiveFocus()  # the request never takes the keyboard
        await ui.screenshots(window, "43-terminal-agent-request")
        await mouse_click(ui, window, "refuseRequest")
        await ui.until(lambda: host.info(refused).state == "expired")
        await asyncio.sleep(1.0)  # time for what must not happen to show: an absence has no event
        assert not refused_marker.exists()
        host.ready(refused, 80, 24)  # too late: a refused request never runs
        await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
        assert not refused_marker.exists() and host.info(refused).state == "expired"

        opened = host.agent_request(key, "", f"echo ran > {opened_marker}", str(tmp_path), "shared")
        panel.select(opened)
        await ui.until(lambda: request.isVisible())
        assert not opened_marker.exists()
        await mouse_click(ui, window, "openRequest")
        await ui.until(lambda: opened_marker.exists())
        assert host.info(opened).state == "running"
        screen = ui.item(window, "panelScreen")
        await ui.until(lambda: screen.hasActiveFocus())

    ui.run(scenario())


def test_terminals_outlive_chat_switches_and_pin_to_the_chat_shown(ui):
    async def scenario():
        window = await open_window(ui)
        objects = window.objects
        panel, _screen = await open_panel(ui, window)
        host = window.host.terminals
        terminal_id = panel.currentId
        first_chat = objects.session.sessionKey
        await type_line(ui, window, "echo before-switch")
        await ui.until(lambda: "before-switch" in lines_after(screen_text(ui, window), "echo before-switch"))
        await mouse_click(ui, window, "pinToChat")
        await ui.until(lambda: host.info(terminal_id).pinned_session == first_chat)
        assert panel.current["pinned"] is True

        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first_chat))
        assert [entry["terminalId"] for entry in panel.model.entries] == [terminal_id]
        await ui.until(lambda: panel.current["pinned"] is False and panel.current["pinnedElsewhere"] is True)
        assert "before-switch" in screen_text(ui, window)
        assert not ui.item(window, "pinToChat").property("checked")
        ui.item(window, "panelScreen").forceActiveFocus()
        await type_line(ui, window, "echo after-switch")
        await ui.until(lambda: "after-switch" in lines_after(screen_text(ui, window), "echo after-switch"))

        objects.session.openSession(first_chat)
        await ui.until(lambda: objects.session.sessionKey == first_chat)
        await ui.until(lambda: panel.current["pinned"] is True)

    ui.run(scenario())


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

        await _outside_task(drag)
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
