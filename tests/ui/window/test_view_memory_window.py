"""State restored across restarts and chat switches, in the real window with the scripted agent: the
window's geometry, the panes' sizes (dragged with the mouse), the chat shown, each chat's scroll position
(scrolled with the wheel) and the cards the user opened; a remembered position on a screen that is gone
is not used."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent

from tests.conftest import scripted_agent_argv

BIG = "big-40"  # 40 loaded turns, each with a finished tool card (historical: it starts closed)


def _data_file(name: str) -> str:
    return os.path.join(os.environ["CLAWQT_DATA_DIR"], name)


async def _restart(ui, window):
    """Quit this window the way the app quits, then start a new one on the same data folder."""
    await window.objects.shutdown()
    window.root.close()
    ui.windows.remove(window)
    return await ui.open(scripted_agent_argv())


async def _wheel_up(ui, window, steps: int) -> None:
    """The user scrolls the conversation back with the mouse wheel over it (the window delivers it to
    whatever is under the pointer; Flickable paces a wheel by its events' times, so each has one)."""
    timeline = ui.item(window, "timeline")
    at = timeline.mapToScene(QPointF(timeline.width() / 2, timeline.height() / 2))
    for _ in range(steps):
        event = QWheelEvent(
            at,
            window.root.mapToGlobal(at),
            QPoint(0, 0),
            QPoint(0, 120),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        event.setTimestamp(int(time.monotonic() * 1000))
        QCoreApplication.sendEvent(window.root, event)
        await asyncio.sleep(0.03)  # the view handles each event before the next, as a hand's pace


async def _drag(window, start: QPoint, end: QPoint) -> None:
    """The user drags with the left button held, from `start` to `end` in the window (a split's handle)."""
    root = window.root

    def send(kind: QEvent.Type, at: QPoint, buttons: Qt.MouseButton) -> None:
        point = QPointF(at)
        button = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseMove else Qt.MouseButton.LeftButton
        event = QMouseEvent(
            kind, point, root.mapToGlobal(point), button, buttons, Qt.KeyboardModifier.NoModifier
        )
        QCoreApplication.sendEvent(root, event)

    send(QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton)
    steps = 9
    for step in range(1, steps + 1):
        x = start.x() + (end.x() - start.x()) * step // steps
        send(QEvent.Type.MouseMove, QPoint(x, start.y()), Qt.MouseButton.LeftButton)
        await asyncio.sleep(0.02)  # a hand's pace between moves
    send(QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.NoButton)
    await asyncio.sleep(0.05)  # the release is handled


def _top_row(ui, window) -> int:
    timeline = ui.item(window, "timeline")
    return timeline.indexAt(timeline.width() / 2, timeline.property("contentY") + 1)


def test_a_restart_brings_back_the_window_its_panes_and_the_chat_shown(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.type_and_send(window, "hello in the first chat")
        await ui.until(lambda: not objects.session.busy)
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first), 20)
        objects.session.openSession(first)  # the chat shown when the app quits
        await ui.until(lambda: objects.session.sessionKey == first, 20)

        window.root.resize(1000, 700)
        window.root.setPosition(40, 30)
        sidebar = ui.item(window, "sidebar")
        start = int(sidebar.width())
        await _drag(window, QPoint(start + 1, 300), QPoint(start + 91, 300))
        await ui.until(lambda: abs(sidebar.width() - (start + 90)) <= 12, seen=lambda: sidebar.width())
        dragged = sidebar.width()
        await asyncio.sleep(0.7)  # written once the changes stop
        saved = json.loads(Path(_data_file("window-state.json")).read_text())["window"]
        assert saved["width"] == 1000 and saved["height"] == 700 and saved["openChat"] == first
        assert "main" in saved["splits"]

        again = await _restart(ui, window)
        assert again.objects.session.sessionKey == first  # reopened, not a new empty chat
        await ui.until(lambda: "user" in ui.kinds(again))
        assert first in [e["key"] for e in again.objects.sessions.entries()]  # and in the sidebar
        root = again.root
        assert (root.width(), root.height()) == (1000, 700)
        assert (root.x(), root.y()) == (40, 30)
        await ui.until(lambda: abs(ui.item(again, "sidebar").width() - dragged) <= 1)
        await ui.screenshots(again, "68-restored-window")

    ui.run(scenario(), timeout=90)


def test_a_place_on_a_screen_that_is_gone_is_not_used_and_a_chat_that_cannot_open_gives_a_new_one(ui):
    async def scenario():
        os.makedirs(os.environ["CLAWQT_DATA_DIR"], exist_ok=True)
        with open(_data_file("window-state.json"), "w") as out:
            json.dump(
                {"window": {"x": 90000, "y": 90000, "width": 900, "height": 650, "openChat": "fail-load"}},
                out,
            )
        window = await ui.open(scripted_agent_argv())
        root = window.root
        assert (root.width(), root.height()) == (900, 650)  # the size is kept
        assert root.x() < 90000 and root.y() < 90000  # the place is not: no screen shows it
        key = window.objects.session.sessionKey
        assert key not in ("", "fail-load") and ui.kinds(window) == []  # a new chat, no notice
        assert window.objects.notices.notice == ""

    ui.run(scenario())


def test_each_chat_opens_where_it_was_left_with_the_cards_the_user_opened(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        objects.session.openSession(BIG)
        await ui.until(lambda: objects.session.sessionKey == BIG, 30)
        await ui.until(lambda: len(objects.model.rows) > 100)
        tool = "tool:t37"
        assert ui.tool_payload(window, tool)["expanded"] is False  # historical: closed
        ui.toggle_tool(window, tool, expanded=False)  # the user opens it
        await ui.until(lambda: ui.tool_payload(window, tool)["expanded"] is True)
        timeline = ui.item(window, "timeline")
        newest_screenful_top = _top_row(ui, window)
        await _wheel_up(ui, window, 12)
        await ui.until(lambda: not timeline.property("atYEnd") and not timeline.property("moving"))
        await ui.frames(window, 2)
        top = _top_row(ui, window)
        assert top > newest_screenful_top, top  # older rows than the newest screenful are at the top

        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", BIG), 20)
        objects.session.openSession(BIG)  # back in the same run
        await ui.until(lambda: objects.session.sessionKey == BIG, 30)
        await ui.until(lambda: abs(_top_row(ui, window) - top) <= 1)
        assert ui.tool_payload(window, tool)["expanded"] is True
        assert not ui.item(window, "timeline").property("atYEnd")

        again = await _restart(ui, window)  # and after a restart
        await ui.until(lambda: again.objects.session.sessionKey == BIG, 30)
        await ui.until(lambda: len(again.objects.model.rows) > 100)
        await ui.until(lambda: abs(_top_row(ui, again) - top) <= 1)
        assert ui.tool_payload(again, tool)["expanded"] is True
        assert ui.item(again, "jumpToLatest").property("visible")
        await ui.screenshots(again, "69-restored-scroll")

    ui.run(scenario(), timeout=120)
