"""The window's first frame: the start frame, drawn from the appearance and placement alone before the
main side exists, in the user's colour scheme; what the user types into it reaches the chat's composer
once the chat is loaded into the same window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtQuick import QQuickItem

from app.main.agents.command import AgentCommand
from app.main.host.make import make_host
from app.main.sessions.service import ChatService
from app.renderer.qt.main_window import Window
from bench.ui_common import frame
from tests.conftest import scripted_agent_argv
from tests.paths import SCREENSHOTS


def _find(window: Window, name: str) -> QQuickItem | None:
    return window.root.findChild(QQuickItem, name)


async def _shot(window: Window, name: str) -> None:
    for _ in range(3):
        await frame(window)
    path = SCREENSHOTS / f"{name}.png"
    assert window.grab(path), f"could not save {path}"


def _host(ui):
    service = ChatService(
        AgentCommand(tuple(scripted_agent_argv()), "flag", "ui test"),
        cwd=str(ui.tmp_path),
        log_path=ui.tmp_path / "agent-stderr.log",
    )
    return make_host(service)


def test_typing_into_the_start_frame_reaches_the_chats_composer(ui):
    async def scenario():
        window = Window.open({"colorScheme": "light"}, {}, {"width": 1000, "height": 700})
        await frame(window)
        assert window.root.isVisible() and window.root.width() == 1000
        early = _find(window, "startComposerInput")
        assert early is not None and early.hasActiveFocus()  # the keys typed now are not lost
        assert _find(window, "composerInput") is None  # no chat yet: nothing of it is made
        await ui.keys(window, "hello there")
        assert early.property("text") == "hello there"

        window.attach(_host(ui))
        ui.windows.append(window)
        composer = await ui.until(lambda: _find(window, "composerInput"))
        assert composer.property("text") == "hello there"
        assert composer.hasActiveFocus()
        await ui.until(lambda: _find(window, "startFrame") is None)  # unloaded: nothing of it stays
        await ui.keys(window, "!")  # typing goes on in the chat's composer
        assert composer.property("text") == "hello there!"
        window.objects.start()
        await ui.until(lambda: window.objects.session.sessionKey, 30)
        assert composer.property("text") == "hello there!"  # the chat opened did not replace it

    ui.run(scenario())


def test_the_start_frame_is_drawn_in_the_users_colour_scheme(ui):
    async def scenario():
        for scheme, name in (("light", "130-start-frame"), ("dark", "130-start-frame-dark")):
            window = Window.open({"colorScheme": scheme}, {}, {"width": 1180, "height": 780, "openChat": "k"})
            await _shot(window, name)
            colour = window.root.grabWindow().pixelColor(700, 10)  # the header, on the canvas
            assert (colour.lightness() > 200) == (scheme == "light"), colour.name()
            card = _find(window, "startComposer")
            assert card.y() + card.height() > 600  # a chat reopens: its composer at the bottom
            window.root.close()
            window.engine.deleteLater()

    ui.run(scenario())


def test_a_window_not_attached_yet_has_no_chat_objects(ui):
    async def scenario():
        window = Window.open({}, {}, {})
        await frame(window)
        assert window.root.property("chatWindow") is None
        assert window.root.title() == "ClawQt"
        assert not hasattr(window, "objects")
        window.root.close()
        window.engine.deleteLater()

    ui.run(scenario())


def test_enter_in_the_start_frame_sends_nothing_and_shift_enter_is_a_new_line(ui):
    async def scenario():
        window = Window.open({}, {}, {})
        await frame(window)
        await ui.keys(window, "one")
        await ui.key(window, Qt.Key.Key_Return, text="\r")  # nothing can be sent yet: the text waits
        await ui.key(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier, "\n")
        await ui.keys(window, "two")
        window.attach(_host(ui))
        ui.windows.append(window)
        composer = await ui.until(lambda: _find(window, "composerInput"))
        assert composer.property("text") == "one\ntwo"

    ui.run(scenario())


def test_what_was_typed_at_the_start_joins_the_draft_of_the_chat_reopened(ui):
    """A restart reopens the chat shown at quit, with its own draft: the text typed into the start frame
    comes after that draft, and both are kept."""

    async def scenario():
        first = await ui.open(scripted_agent_argv())
        await ui.send_and_settle(first, "hello")
        key = first.objects.session.sessionKey
        first.objects.turn.setDraft("my own draft")
        await first.objects.shutdown()  # quit: the draft and the chat shown are saved
        first.root.close()
        ui.windows.remove(first)

        host = _host(ui)
        window = Window.open({}, {}, host.stores.views.window())
        await frame(window)
        await ui.keys(window, "early")
        window.attach(host)
        ui.windows.append(window)
        window.objects.start()
        await ui.until(lambda: window.objects.session.sessionKey == key, 30)
        composer = _find(window, "composerInput")
        await ui.until(lambda: composer.property("text") == "my own draft\nearly")
        assert host.stores.drafts.get(key) == "my own draft\nearly"

    ui.run(scenario())
