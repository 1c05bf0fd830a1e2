"""Notifications go to the desktop's notification service as plain words: a service that reads markup
in bodies gets names an agent chose escaped (shown as written, nothing fetched), one that does not gets
them as they are; a click comes back with the chat it was about; no service, or no bus, is a False the
window answers with its own alert. A real dbus-daemon and a notification service process on it."""

from __future__ import annotations

from app.main.desktop.notifications import DesktopNotifications, body_for
from tests.desktop.session_bus import NotificationService

CHOSEN = 'Chat <b>x</b><img src="http://127.0.0.1:9/x.png"> & co needs you: the agent asks permission.'


async def test_a_service_that_reads_markup_gets_chosen_names_escaped(session_bus):
    service = NotificationService(session_bus, "body,body-markup,actions")
    notifications = DesktopNotifications(bus=session_bus)
    try:
        assert await notifications.notify("ClawQt", CHOSEN, "chat-1")
        (shown,) = service.wait_shown(1)
        assert shown["summary"] == "ClawQt"
        assert shown["body"] == (
            'Chat &lt;b&gt;x&lt;/b&gt;&lt;img src="http://127.0.0.1:9/x.png"&gt; &amp; co needs you: '
            "the agent asks permission."
        )
        assert shown["actions"] == ["default", "Open"]
    finally:
        await notifications.close()
        service.stop()


async def test_a_service_without_markup_gets_the_words_as_they_are(session_bus):
    service = NotificationService(session_bus, "body")
    notifications = DesktopNotifications(bus=session_bus)
    try:
        assert await notifications.notify("ClawQt", CHOSEN, "chat-1")
        (shown,) = service.wait_shown(1)
        assert shown["body"] == CHOSEN
        assert shown["actions"] == []
    finally:
        await notifications.close()
        service.stop()


async def test_a_click_comes_back_with_the_chat_it_was_about(session_bus):
    import asyncio

    service = NotificationService(session_bus, "body,actions", click=True)
    notifications = DesktopNotifications(bus=session_bus)
    clicked: list[str] = []
    notifications.subscribe_clicks(clicked.append)
    try:
        assert await notifications.notify("ClawQt", "first", "chat-1")
        assert await notifications.notify("ClawQt", "second", "chat-2")
        for _ in range(250):
            if len(clicked) == 2:
                break
            await asyncio.sleep(0.02)  # the poll's interval
        assert clicked == ["chat-1", "chat-2"]
    finally:
        await notifications.close()
        service.stop()


async def test_no_service_or_no_bus_is_a_plain_false(session_bus, tmp_path):
    notifications = DesktopNotifications(bus=session_bus)  # a bus with no notification service on it
    nowhere = DesktopNotifications(bus=f"unix:path={tmp_path / 'no-bus-here'}")
    try:
        assert await notifications.notify("ClawQt", "words", "chat-1") is False
        assert await nowhere.notify("ClawQt", "words", "chat-1") is False
    finally:
        await notifications.close()
        await nowhere.close()


def test_only_markup_bodies_are_escaped():
    assert body_for("a <b> & c", frozenset({"body-markup"})) == "a &lt;b&gt; &amp; c"
    assert body_for("a <b> & c", frozenset({"body"})) == "a <b> & c"


async def test_a_notifications_buttons_come_back_with_the_chat_and_the_button(session_bus):
    import asyncio

    service = NotificationService(session_bus, "body,actions", click="allow")
    notifications = DesktopNotifications(bus=session_bus)
    chosen: list[tuple[str, str]] = []
    clicked: list[str] = []
    notifications.subscribe_actions(lambda key, action: chosen.append((key, action)))
    notifications.subscribe_clicks(clicked.append)
    try:
        assert await notifications.notify("ClawQt", "asks", "chat-1", (("allow", "Allow"), ("deny", "Deny")))
        assert await notifications.notify("ClawQt", "done", "chat-2")  # no buttons: a click
        for _ in range(250):
            if chosen and clicked:
                break
            await asyncio.sleep(0.02)  # the poll's interval
        shown = service.wait_shown(2)
        assert shown[0]["actions"] == ["default", "Open", "allow", "Allow", "deny", "Deny"]
        assert chosen == [("chat-1", "allow")] and clicked == ["chat-2"]
        assert notifications.has_actions()
    finally:
        await notifications.close()
        service.stop()
