"""The terminal panel in the real window, on real shells (bash on a PTY, through `make_host`'s
`UserTerminals`): the shortcut and focus, typing, resize reaching the PTY, the sharing control, the
participation banner, an agent's request and chat switches."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtTest import QTest

from app.renderer.qt.terminals.tabs import PARTICIPATION_MS
from tests.ui.terminals.panel_support import (
    CTRL,
    SIZE_QUESTION,
    click,
    clicks,
    descendants,
    last_answer,
    lines_after,
    mouse_click,
    open_panel,
    open_window,
    outside_task_settled,
    screen_text,
    texts,
    type_line,
)
from tests.ui_harness import has_colour_near

pytestmark = pytest.mark.usefixtures("plain_bash")  # conftest.py: bash without the user's rc files


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

        await outside_task_settled(drag)
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
        badge = next(item for item in descendants(tab) if item.objectName() == "tabSharing")
        assert host.info(terminal_id).sharing == "off"
        assert texts(badge) == ["Not shared"]
        await mouse_click(ui, window, "sharingButton")
        await ui.until(
            lambda: ui.find(window, "sharing_shared") and ui.item(window, "sharing_shared").isVisible()
        )
        await ui.screenshots(window, "41-terminal-sharing")
        await mouse_click(ui, window, "sharing_shared")
        await ui.until(lambda: host.info(terminal_id).sharing == "shared")
        await ui.until(lambda: texts(badge) == ["Shared"])
        assert panel.model.entries[0]["sharing"] == "shared"
        await mouse_click(ui, window, "sharingButton")
        await mouse_click(ui, window, "sharing_status-only")
        await ui.until(lambda: host.info(terminal_id).sharing == "status-only")
        await ui.until(lambda: texts(badge) == ["Status only"])

    ui.run(scenario())


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
        assert "Agent participating" in texts(tab)
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
        assert "Agent participating" not in texts(tab)
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
