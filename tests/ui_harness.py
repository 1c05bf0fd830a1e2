"""The real window under pytest-qt (offscreen), on a qasync loop, against real agent subprocesses
(shared by tests/ui and tests/e2e).

Tests run their scenario as one coroutine (`ui.run(...)`) and wait with `await ui.until(...)`: never the
blocking qtbot waits inside a coroutine (qt-toolchain.md). Screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QCoreApplication, QEvent, QRectF, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtQuick import QQuickItem

from app.main.agents.command import AgentCommand
from app.main.host.make import Host, make_host
from app.main.sessions.service import ChatService
from app.renderer.qt.conversation.timeline_model import ROLE_IDS
from app.renderer.qt.main_window import Window
from app.renderer.timeline.rows import Row
from bench.quick_items import drawn_marks, find_all, plain_text  # noqa: F401 (the tests' names)
from bench.ui_common import frame
from tests.model_checks import ModelChecks
from tests.paths import SCREENSHOTS
from tests.waits import until


def has_colour_near(image: Any, rect: Any, rgb: tuple[int, int, int], tolerance: int = 40) -> bool:
    """True if some painted pixel inside `rect` (scene coordinates) is within `tolerance` of `rgb`."""
    scale = image.devicePixelRatio()
    for y in range(int(rect.top() * scale), int(rect.bottom() * scale)):
        for x in range(int(rect.left() * scale), int(rect.right() * scale)):
            colour = image.pixelColor(x, y)
            channels = (colour.red(), colour.green(), colour.blue())
            if all(abs(a - b) <= tolerance for a, b in zip(channels, rgb, strict=True)):
                return True
    return False


def focused(window: Any) -> str:
    """The objectName of the item that has the keyboard focus ("" when none)."""
    item = window.root.activeFocusItem()
    return item.objectName() if item is not None else ""


def shown_item(window: Any, name: str) -> QQuickItem | None:
    """The first item of that objectName a user sees now (None when none is shown)."""
    return next((item for item in find_all(window.root.contentItem(), name) if item.isVisible()), None)


def shown_texts(window: Any, name: str) -> list[str]:
    """The `text` of every shown item of that objectName (one per card or row that has one)."""
    return [item.property("text") for item in find_all(window.root.contentItem(), name) if item.isVisible()]


def timeline_items(window: Any, kind: type) -> list[Any]:
    """The items of that class in the shown chat's timeline, oldest first."""
    return [item for item in window.objects.session.timeline.items.values() if isinstance(item, kind)]


def user_texts(objects: Any) -> list[str]:
    """The user's messages of the chat shown, oldest first, as the timeline holds them."""
    from app.renderer.timeline.items import MessageSegment

    timeline = objects.session.timeline
    return [
        " ".join(getattr(p, "text", "") for p in item.parts).strip()
        for item in (timeline.items[i] for i in timeline.order)
        if isinstance(item, MessageSegment) and item.role == "user"
    ]


def on_screen(window: Any, item: QQuickItem, rect: QRectF | None = None) -> bool:
    """Whether `item` (or `rect` of it) is inside the conversation's visible area."""
    listing = window.root.findChild(QQuickItem, "timeline")
    area = item.mapRectToItem(
        listing, rect if rect is not None else QRectF(0, 0, item.width(), item.height())
    )
    return area.bottom() > 0 and area.top() < listing.height()


class UiHarness:
    def __init__(self, loop: qasync.QEventLoop, tmp_path: Path) -> None:
        self.loop = loop
        self.tmp_path = tmp_path
        self.windows: list[Window] = []
        self.model_checks = ModelChecks()

    def run(self, coro: Any, timeout: float = 60.0) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    async def open(self, argv: tuple[str, ...], start: bool = True) -> Window:
        service = ChatService(
            AgentCommand(argv, "flag", "ui test"),
            cwd=str(self.tmp_path),
            log_path=self.tmp_path / "agent-stderr.log",
        )
        return await self.open_host(make_host(service), start)

    async def open_host(self, host: Host, start: bool = True) -> Window:
        """A window on a host built elsewhere (e.g. by `host/build.py`, as the app builds it)."""
        window = Window(host)
        self.windows.append(window)
        self._check_models(window)
        if not window.objects.view_memory.remembers_size:  # a restart keeps the size it restored
            window.root.resize(1180, 780)
        if start:
            window.objects.start()
            await self.until(lambda: window.objects.session.sessionKey, 30)
        return window

    def _check_models(self, window: Window) -> None:
        """Qt's model checker on every list model of the window: the conversation, the sidebar, the
        terminal panel's tabs, and each row's block and attachment-card models as they are made."""
        objects = window.objects
        checks = self.model_checks
        for model in (objects.model, objects.sessions.model, objects.user_terminals.model):
            checks.watch(model)

        def watch_row_models() -> None:
            for model in objects.model.views.list_models():
                checks.watch(model)

        objects.model.flushed.connect(watch_row_models)
        window.root.frameSwapped.connect(watch_row_models)

    until = staticmethod(until)  # tests/waits.py: the suite's one wait

    @staticmethod
    async def frames(window: Window, count: int = 1) -> None:
        """Until the window has drawn `count` more frames (each one asked for): what changed before is
        laid out and painted."""
        for _ in range(count):
            await frame(window)

    @staticmethod
    def find(window: Window, name: str) -> QQuickItem | None:
        """By objectName, through QObject children and the visual tree (delegates live only there); a
        shown item before a hidden one: the conversation keeps hidden delegates pooled for reuse, and
        one of those may hold a stale copy of the item the test means."""
        found = [*window.root.findChildren(QQuickItem, name), *find_all(window.root.contentItem(), name)]
        return next((item for item in found if item.isVisible()), found[0] if found else None)

    async def shown(self, window: Window, name: str, timeout: float = 15.0) -> QQuickItem:
        """The item named `name` once one of them is shown. Waiting on the first item `find` returns
        would wait forever when that is another row's hidden copy (an earlier turn's footer) and the
        row the test means is not made yet."""

        def visible() -> QQuickItem | None:
            found = self.find(window, name)
            return found if found is not None and found.isVisible() else None

        return await self.until(visible, timeout)

    async def let_go_of_every_row(self, window: Window, gone: str) -> None:
        """The conversation's list drops every delegate (each row's item is destroyed, as when it
        scrolls far out of view; `gone` names an item that must be gone with them), then shows the
        model again: what a row shows after must come from the model, not from a delegate's state."""
        timeline = self.item(window, "timeline")
        model = timeline.property("model")
        timeline.setProperty("model", None)
        await self.until(lambda: timeline.property("count") == 0)
        await self.until(
            lambda: not [item for item in find_all(window.root.contentItem(), gone) if item.isVisible()]
        )
        timeline.setProperty("model", model)
        await self.frames(window, 2)

    def item(self, window: Window, name: str) -> QQuickItem:
        found = self.find(window, name)
        assert found is not None, f"no item named {name!r}"
        return found

    async def key(
        self, window: Window, key: Qt.Key, modifiers: Any = Qt.KeyboardModifier.NoModifier, text: str = ""
    ) -> None:
        """Post a key press and release to the window (delivered by the running loop, never by a
        nested event loop inside this coroutine)."""
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QCoreApplication.postEvent(window.root, QKeyEvent(kind, key, modifiers, text))
        await asyncio.sleep(0.05)  # the posted events are delivered by the running loop

    async def keys(self, window: Window, text: str) -> None:
        for char in text:
            await self.key(
                window, Qt.Key(ord(char.upper())) if char.isalpha() else Qt.Key(ord(char)), text=char
            )

    async def new_chat(self, window: Window) -> str:
        """A new chat, as the sidebar's New chat opens it (the one shown is left); its key once shown."""
        session = window.objects.session
        left = session.sessionKey
        session.newChat()
        return await self.until(lambda: session.sessionKey not in ("", left) and session.sessionKey)

    async def type_and_send(self, window: Window, text: str) -> None:
        composer = self.item(window, "composerInput")
        composer.forceActiveFocus()
        composer.setProperty("text", text)
        await asyncio.sleep(0.02)  # the text is taken before the key
        await self.key(window, Qt.Key.Key_Return)

    async def send_and_settle(self, window: Window, text: str) -> None:
        """Type and send `text`, then wait until its turn has settled."""
        await self.type_and_send(window, text)
        await self.until(lambda: not window.objects.session.busy)

    @staticmethod
    def role(window: Window, row: Row, name: str) -> Any:
        """What the window's model serves QML for `row` (a timeline row, found at its view row)."""
        model = window.objects.model
        model.flush()
        view_row = model.view_row_of_key(row.key)
        assert view_row >= 0, f"{row.key} is not shown"
        return model.data(model.index(view_row), ROLE_IDS[name])

    def rows(self, window: Window, *kinds: str) -> list[Row]:
        window.objects.model.flush()
        return [row for row in window.objects.model.rows if not kinds or row.kind in kinds]

    def tool_payload(self, window: Window, tool_item_id: str) -> dict[str, Any] | None:
        """A tool's values as the window's model serves them to QML."""
        for row in self.rows(window, "tool", "tool-group"):
            if tool_item_id in row.item_ids:
                return next(t for t in self.role(window, row, "tools") if t["id"] == tool_item_id)
        return None

    def toggle_tool(self, window: Window, tool_item_id: str, expanded: bool) -> None:
        """Click a tool card's header (`expanded`: as the card shows it now)."""
        model = window.objects.model
        row = next(r for r in self.rows(window, "tool", "tool-group") if tool_item_id in r.item_ids)
        model.toggle(model.view_row_of_key(row.key), tool_item_id, expanded)

    def kinds(self, window: Window) -> list[str]:
        window.objects.model.flush()
        return [row.kind for row in window.objects.model.rows]

    async def screenshot(self, window: Window, name: str) -> Path:
        window.objects.model.flush()
        await self.frames(window, 3)
        path = SCREENSHOTS / f"{name}.png"
        assert window.grab(path), f"could not save {path}"
        return path

    async def screenshots(self, window: Window, name: str) -> list[Path]:
        """The window in the light and in the dark colour scheme (`name.png`, `name-dark.png`)."""
        settings = window.objects.app
        shots = [await self.screenshot(window, name)]
        settings.setColorScheme("dark")
        try:
            shots.append(await self.screenshot(window, f"{name}-dark"))
        finally:
            settings.setColorScheme("system")
        await self.frames(window, 2)
        return shots

    async def close(self) -> None:
        for window in self.windows:
            await window.objects.shutdown()
            window.root.close()
        self.model_checks.close()
        from PySide6.QtWidgets import QApplication, QDialog

        for dialog in QApplication.topLevelWidgets():  # a desktop dialog a test left open closes with it
            if isinstance(dialog, QDialog) and dialog.isVisible():
                dialog.reject()


@pytest.fixture
def ui(qapp, tmp_path, monkeypatch):
    monkeypatch.setenv("CLAWQT_DEMO_DELAY_MS", "2")
    # no test talks to the machine's own desktop session (tests/desktop has a bus of its own)
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    harness = UiHarness(loop, tmp_path)
    yield harness
    loop.run_until_complete(harness.close())
    loop.close()
    asyncio.set_event_loop(None)
    harness.model_checks.assert_clean()


def shown_save_dialog():
    """The desktop's save dialog the window opened (Qt's own QFileDialog here, offscreen), or None."""
    from PySide6.QtWidgets import QApplication, QFileDialog

    saving = QFileDialog.AcceptMode.AcceptSave
    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog) and w.isVisible()]
    return next((w for w in shown if w.acceptMode() == saving), None)
