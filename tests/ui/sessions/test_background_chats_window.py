"""Chats the user is not looking at, in the real window with the scripted agent: a permission asked by a
turn still running in a chat the user left waits there (the sidebar says that chat needs the user, a
notification calls them when the window is not focused); a failure stays with the chat it happened in;
loads the user already left never show; a failed load offers Retry; an empty new chat is not a row."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QGuiApplication, QWindow

from app.renderer.qt.common.notices import TURN, Notices
from app.renderer.timeline.serialize import item_record
from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all


def _sidebar(objects) -> dict[str, dict]:
    return {entry["key"]: entry for entry in objects.sessions.entries()}


def visible_mark(window):
    """The "Needs you" mark shown in the sidebar (every row has one, hidden unless its chat needs you)."""
    marks = [m for m in find_all(window.root.contentItem(), "needsYouMark") if m.property("visible")]
    return marks[0] if marks else None


def row_of(item):
    """The sidebar row (delegate) an item is in."""
    while item is not None and item.property("modelData") is None:
        item = item.parentItem()
    assert item is not None
    return item


def _text(objects) -> str:
    timeline = objects.session.timeline
    return "".join(str(item_record(item)) for item in timeline.items.values()) if timeline else ""


async def leave_window(ui) -> QWindow:
    """Another window takes the focus (the user went to another application)."""
    other = QWindow()
    other.resize(200, 100)
    other.show()
    other.requestActivate()
    await ui.until(lambda: QGuiApplication.focusWindow() is other)
    return other


def test_a_permission_asked_in_a_chat_not_shown_waits_and_is_answered_after_going_back(ui):
    """It used to be answered `cancelled` the moment it arrived ("session not shown"): the turn went on
    as if the user had refused, and nothing told the user."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        called: list[tuple[str, str]] = []
        objects.attention.notified.connect(lambda how, text: called.append((how, text)))
        first = objects.session.sessionKey
        await ui.type_and_send(window, "permission-later 1.0")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        other = await leave_window(ui)
        try:
            await ui.until(lambda: _sidebar(objects)[first]["needsYou"], 10)
            assert "permission" not in ui.kinds(window)  # nothing of it in the chat on screen
            await ui.until(lambda: called)
            how, text = called[0]
            assert how in ("tray", "alert")
            assert text.endswith("needs you: the agent asks permission to run rm -rf build.")
            assert objects.host.sessions.pending_permissions == 1
            await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
            assert _sidebar(objects)[first]["needsYou"]  # still waiting, not cancelled
            assert objects.host.sessions.pending_permissions == 1
            mark = await ui.until(lambda: visible_mark(window))
            assert mark.property("visible") and row_of(mark).property("modelData")["key"] == first
            await ui.screenshots(window, "33-chat-needs-you")
        finally:
            other.destroy()
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first)
        await ui.until(lambda: "permission" in ui.kinds(window))
        await ui.frames(window, 2)
        allow = ui.item(window, "permissionOption_allow")
        allow.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy, 10)
        assert "outcome: allow" in _text(objects)
        assert not _sidebar(objects)[first]["needsYou"]
        assert len(called) == 1

    ui.run(scenario())


def test_a_turn_ending_in_the_background_is_announced_once_and_clicking_it_brings_up_that_chat(ui):
    """This machine has no system tray (offscreen Qt): the notification is the window's alert here, and a
    click on the tray's message (`messageClicked`, connected to `Attention.clicked`) is made by calling
    what it calls. A turn the user stopped is not announced."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        called: list[tuple[str, str]] = []
        objects.attention.notified.connect(lambda how, text: called.append((how, text)))
        first = objects.session.sessionKey
        await ui.type_and_send(window, "paced 400 400")  # a reply of about a second
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        second = objects.session.sessionKey
        other = await leave_window(ui)
        try:
            await ui.until(lambda: called, 15)
            assert called == [
                ("alert", f"{objects.sessions.title_of(first)} is done: the agent finished its reply.")
            ]
            assert _sidebar(objects)[first]["unseen"]  # the sidebar's dot says it too
            objects.attention.clicked()  # the user clicks the notification
            await ui.until(lambda: objects.session.sessionKey == first)
            await ui.until(lambda: QGuiApplication.focusWindow() is window.root)  # brought up
            await ui.until(lambda: not _sidebar(objects)[first]["unseen"])  # shown: seen
        finally:
            other.destroy()
        # a turn the user stops in the background is not announced
        objects.session.openSession(second)
        await ui.until(lambda: objects.session.sessionKey == second)
        await ui.type_and_send(window, "paced 100 2000")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        other = await leave_window(ui)
        try:
            objects.turn.stop()
            await ui.until(lambda: not objects.session.busy, 10)
            await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
            assert len(called) == 1
        finally:
            other.destroy()

    ui.run(scenario())


def test_with_notifications_off_in_settings_only_the_sidebar_says_a_chat_needs_you(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        called: list[tuple[str, str]] = []
        objects.attention.notified.connect(lambda how, text: called.append((how, text)))
        objects.settings.setNotify(False)  # the user's choice in Settings
        first = objects.session.sessionKey
        await ui.type_and_send(window, "permission-later 0.5")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        other = await leave_window(ui)
        try:
            await ui.until(lambda: _sidebar(objects)[first]["needsYou"], 10)
            await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
            assert called == []
        finally:
            other.destroy()

    ui.run(scenario())


def test_the_sidebar_row_of_a_chat_that_needs_you_says_so_to_assistive_technology(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.type_and_send(window, "permission-later 0.5")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        await ui.until(lambda: _sidebar(objects)[first]["needsYou"], 10)
        mark = await ui.until(lambda: visible_mark(window))
        row = row_of(mark)
        name = QAccessible.queryAccessibleInterface(row).text(QAccessible.Text.Name)
        assert name.startswith("Session ") and name.endswith(", needs you: the agent asks for permission")
        request = objects.session.store.timelines[first]
        request_id = next(i.request_id for i in request.items.values() if hasattr(i, "request_id"))
        assert objects.host.sessions.answer_permission(request_id, "deny")  # answered: the mark goes
        await ui.until(lambda: not _sidebar(objects)[first]["needsYou"])
        await ui.until(lambda: not mark.property("visible"))
        name = QAccessible.queryAccessibleInterface(row).text(QAccessible.Text.Name)
        assert "needs you" not in name

    ui.run(scenario())


def test_a_failure_in_a_chat_not_shown_stays_with_it_and_retry_sends_there(ui):
    """It used to show in the chat on screen (where Retry sent the message to the wrong chat), and as
    "Your message was not sent", its text put back into the draft although the agent had answered."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        sent: list[tuple[str, str]] = []
        objects.turn.messageSent.connect(lambda key, text: sent.append((key, text)))
        first = objects.session.sessionKey
        await ui.type_and_send(window, "fail-later 1.0")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        second = objects.session.sessionKey
        await ui.until(lambda: objects.notices.waiting_for(first), 10)
        assert objects.notices.notice == "" and not objects.notices.canRetry  # nothing in this chat
        assert not ui.item(window, "retryButton").property("visible")
        assert "The agent stopped before finishing its reply" in objects.notices.waiting_for(first)
        assert objects.host.stores.drafts.get(first) == ""  # it arrived: not given back as unsent
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first)
        await ui.until(lambda: "The agent stopped before finishing its reply" in objects.notices.notice)
        await ui.until(lambda: ui.item(window, "retryButton").property("visible"))
        objects.session.openSession(second)  # it goes with its chat, and comes back with it
        await ui.until(lambda: objects.session.sessionKey == second)
        assert objects.notices.notice == ""
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first)
        await ui.until(lambda: objects.notices.canRetry)
        sent.clear()
        objects.notices.retry()
        await ui.until(lambda: sent)
        assert sent == [(first, "fail-later 1.0")]  # Retry sends to the chat it failed in
        await ui.until(lambda: objects.session.busy)

    ui.run(scenario())


def test_a_stale_load_result_is_never_shown(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        shown: list[str] = []
        objects.session.shown.connect(lambda result: shown.append(result.session_key))
        objects.session.openSession("slow-load")  # answers after 0.5 s
        await asyncio.sleep(0.05)  # the slow load is under way (it answers after 0.5 s)
        objects.session.openSession("listed-1")  # the user went on before it came
        await ui.until(lambda: objects.session.sessionKey == "listed-1")
        await asyncio.sleep(0.3)  # time for what must not happen to show: an absence has no event
        assert shown == ["listed-1"] and objects.session.sessionKey == "listed-1"
        assert objects.notices.notice == ""

    ui.run(scenario())


def test_a_failed_load_the_user_already_left_creates_no_chat_and_says_nothing(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        shown: list[tuple[str, bool]] = []
        objects.session.shown.connect(lambda result: shown.append((result.session_key, result.created)))
        objects.session.openSession("slow-fail-load")  # fails after 0.5 s
        await asyncio.sleep(0.05)  # the slow load is under way (it fails after 0.5 s)
        objects.session.openSession("listed-2")
        await ui.until(lambda: objects.session.sessionKey == "listed-2")
        await asyncio.sleep(0.5)  # time for what must not happen to show: an absence has no event
        assert shown == [("listed-2", False)] and objects.session.sessionKey == "listed-2"
        assert objects.notices.notice == ""

    ui.run(scenario())


def test_a_failed_load_offers_retry_which_loads_it_again(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        objects.session.openSession("flaky-load")  # fails the first time only
        await ui.until(lambda: "Could not open that session" in objects.notices.notice)
        await ui.until(lambda: objects.session.sessionKey not in ("", first, "flaky-load"))
        retry = await ui.until(lambda: ui.find(window, "retryButton"))
        await ui.until(lambda: retry.property("visible"))
        await ui.screenshots(window, "37-load-failed-retry")
        objects.notices.retry()
        await ui.until(lambda: objects.session.sessionKey == "flaky-load")
        assert objects.notices.notice == ""
        assert "user" in ui.kinds(window)  # its history is shown

    ui.run(scenario())


def test_an_empty_new_chat_is_not_a_sidebar_row_until_its_first_message(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.until(lambda: _sidebar(objects))  # the agent's sessions are listed
        assert first not in _sidebar(objects)  # startup's empty chat is no row
        await ui.type_and_send(window, "hello")
        await ui.until(lambda: first in _sidebar(objects))
        assert _sidebar(objects)[first]["current"]
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        second = objects.session.sessionKey
        assert second not in _sidebar(objects) and first in _sidebar(objects)
        assert not any(entry["current"] for entry in _sidebar(objects).values())
        objects.session.openSession(first)  # left empty: gone for good
        await ui.until(lambda: objects.session.sessionKey == first)
        assert second not in _sidebar(objects)
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first, second))
        third = objects.session.sessionKey
        ui.item(window, "composerInput").setProperty("text", "a thought for later")
        await asyncio.sleep(0.1)  # time for what must not happen to show: an absence has no event
        assert third not in _sidebar(objects)  # typing lists nothing
        objects.session.openSession(first)  # left with a draft: a row to come back to it
        await ui.until(lambda: objects.session.sessionKey == first)
        await ui.until(lambda: third in [row["key"] for row in objects.sessions.model.entries])

    ui.run(scenario())


def test_a_chat_s_notice_waits_for_that_chat_and_retry_only_acts_with_it(qapp):
    notices = Notices()
    asked: list[str] = []
    notices.retryRequested.connect(asked.append)
    notices.showing("a")
    notices.show("Could not list the sessions: offline")  # the window's own: stays on switches
    notices.showing("b")
    assert notices.notice.startswith("Could not list")
    notices.show("The agent stopped: boom", retry="again", topic=TURN, session="a")
    assert notices.notice.startswith("Could not list") and notices.waiting_for("a")
    notices.showing("a")
    assert notices.notice == "The agent stopped: boom" and notices.canRetry
    notices.showing("b")
    assert notices.notice == "" and not notices.canRetry
    notices.retry()
    assert asked == []
    notices.showing("a")
    notices.retry()
    assert asked == ["again"] and notices.notice == "" and not notices.waiting_for("a")
    notices.show("The agent stopped: again", retry="again", topic=TURN, session="c")
    notices.forget("c")
    notices.showing("c")
    assert notices.notice == ""
