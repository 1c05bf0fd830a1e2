"""The inbox in the real window with real agents: a permission request of the scripted agent in a chat
not on screen (the demo agent's chat is) is listed and answered in place with Allow; the turn it let
go on ends out of sight and waits in the inbox until Open shows its chat; a question's form is filled
in and sent there, and a proposal dismissed there. And from the desktop: the
notification of a permission request carries Allow and Deny (a real dbus-daemon and a notification
service that chooses Deny), and the choice answers the request."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt

from app.main.host.make import make_host
from tests.conftest import scripted_agent_argv
from tests.desktop.session_bus import NotificationService
from tests.ui.agents.test_agents_window import two_agents
from tests.ui.cards.test_proposal_card_window import open_window as open_proposal_window
from tests.ui.cards.test_proposal_card_window import propose, run_cli
from tests.ui.sessions.test_background_chats_window import leave_window
from tests.ui.terminals.panel_support import mouse_click
from tests.ui.window.test_accessible_names import unnamed_controls
from tests.ui_harness import find_all

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def _kinds(objects) -> list[str]:
    return [item["kind"] for item in objects.inbox.property("items")]


def _said(host) -> dict[str, str]:
    """What each chat's agent says from now on, as the host hands it out (a chat not shown is not
    kept in the window, and the scripted agent's stored history is canned)."""
    said: dict[str, str] = {}

    def heard(envelope) -> None:
        if envelope.kind == "session_update":
            content = envelope.notification.get("update", {}).get("content")
            if isinstance(content, dict) and isinstance(content.get("text"), str):
                said[envelope.session_key] = said.get(envelope.session_key, "") + content["text"]

    host.subscribe(heard)
    return said


def test_a_request_of_a_chat_not_shown_is_allowed_from_the_inbox_and_its_finished_turn_waits_there(ui):
    async def scenario():
        hub = two_agents(ui.tmp_path)
        window = await ui.open_host(make_host(hub, data_dir=ui.tmp_path / "data"))
        objects = window.objects
        said = _said(hub)
        first = objects.session.sessionKey
        await ui.type_and_send(window, "permission-later 0.5")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        objects.agents.newChatWith("demo")
        await ui.until(lambda: hub.agent_of(objects.session.sessionKey) == "demo")
        await ui.send_and_settle(window, "/echo meanwhile, another agent")
        await ui.until(lambda: _kinds(objects) == ["permission"], 15)
        (asked,) = objects.inbox.property("items")
        assert asked["key"] == first and asked["canAllow"] and asked["canDeny"]
        assert asked["words"] == "Asks to run rm -rf build" and objects.inbox.property("waiting") == 1

        await ui.key(window, Qt.Key.Key_I, CTRL_SHIFT, "I")
        panel = await ui.until(lambda: window.root.findChild(QObject, "inboxPanel"))
        await ui.until(lambda: panel.property("opened"))
        await ui.screenshots(window, "145-inbox-permission")
        assert unnamed_controls(window) == [], "the inbox"
        await mouse_click(ui, window, "inboxAllow")
        await ui.until(lambda: "outcome: allow" in said.get(first, ""), 15)  # what Allow answered
        await ui.until(lambda: _kinds(objects) == ["done"])  # the turn went on and ended out of sight
        assert objects.inbox.property("waiting") == 0
        await ui.frames(window, 2)
        await ui.screenshots(window, "146-inbox-finished")
        await mouse_click(ui, window, "inboxOpen")
        await ui.until(lambda: objects.session.sessionKey == first)
        await ui.until(lambda: _kinds(objects) == [])  # read
        await ui.shown(window, "inboxEmpty")

    ui.run(scenario(), 90)


def test_a_notifications_deny_answers_the_permission_request(ui, session_bus, monkeypatch):
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", session_bus)
    service = NotificationService(session_bus, "body,actions", click="deny")

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        said = _said(objects.host.sessions)
        first = objects.session.sessionKey
        await ui.type_and_send(window, "permission-later 1.0")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        other = await leave_window(ui)
        try:
            await ui.until(lambda: "outcome: deny" in said.get(first, ""), 20)  # what the button said
        finally:
            other.destroy()
        (shown,) = service.shown()[:1]
        assert shown["actions"] == ["default", "Open", "allow", "Allow", "deny", "Deny"]
        assert "needs you: the agent asks permission to run rm -rf build." in shown["body"]
        await ui.until(lambda: _kinds(objects) == ["done"])  # the turn went on and ended out of sight

    try:
        ui.run(scenario(), 60)
    finally:
        service.stop()


def _in_panel(panel: QObject, name: str):
    """The item named `name` inside the inbox panel (a question's card in its chat has the same names)."""
    items = [item for item in find_all(panel.property("contentItem"), name) if item.isVisible()]
    return items[0] if items else None


def test_a_question_of_a_chat_not_shown_is_answered_in_the_inbox(ui):
    async def scenario():
        hub = two_agents(ui.tmp_path)
        window = await ui.open_host(make_host(hub, data_dir=ui.tmp_path / "data"))
        objects = window.objects
        said = _said(hub)
        first = objects.session.sessionKey
        await ui.type_and_send(window, "ask-short")  # one required text field, Colour
        await ui.until(lambda: "elicitation" in ui.kinds(window))
        objects.agents.newChatWith("demo")
        await ui.until(lambda: hub.agent_of(objects.session.sessionKey) == "demo")
        await ui.send_and_settle(window, "/echo meanwhile, another agent")
        await ui.until(lambda: _kinds(objects) == ["question"], 15)
        (asked,) = objects.inbox.property("items")
        assert asked["key"] == first and [f["name"] for f in asked["fields"]] == ["colour"]

        await ui.key(window, Qt.Key.Key_I, CTRL_SHIFT, "I")
        panel = await ui.until(lambda: window.root.findChild(QObject, "inboxPanel"))
        await ui.until(lambda: panel.property("opened"))
        field = await ui.until(lambda: _in_panel(panel, "questionField_colour"))
        await mouse_click(ui, window, "inboxSend")  # nothing typed: the field says what it wants
        problem = await ui.until(lambda: _in_panel(panel, "questionProblem_colour"))
        assert problem.property("text") != "" and "answered" not in said.get(first, "")
        field.forceActiveFocus()
        await ui.keys(window, "teal")
        await ui.frames(window, 2)
        await ui.screenshots(window, "155-inbox-question")
        assert unnamed_controls(window) == [], "the inbox's form"
        await mouse_click(ui, window, "inboxSend")
        await ui.until(lambda: '"colour": "teal"' in said.get(first, ""), 15)  # the agent got it
        await ui.until(lambda: "question" not in _kinds(objects))
        assert objects.session.sessionKey != first  # answered without leaving the chat shown

    ui.run(scenario(), 90)


def test_a_proposal_of_a_chat_not_shown_is_dismissed_in_the_inbox(ui):
    async def scenario():
        window, proposals = await open_proposal_window(ui)
        objects = window.objects
        turn = await run_cli(ui, window)
        await propose(ui, window, proposals, turn)
        first = objects.session.sessionKey
        await ui.new_chat(window)
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        await ui.until(lambda: _kinds(objects) == ["proposal"])
        (proposed,) = objects.inbox.property("items")
        assert proposed["key"] == first and proposed["words"] == "Proposes to run ls"

        await ui.key(window, Qt.Key.Key_I, CTRL_SHIFT, "I")
        panel = await ui.until(lambda: window.root.findChild(QObject, "inboxPanel"))
        await ui.until(lambda: panel.property("opened"))
        await ui.frames(window, 2)
        await ui.screenshots(window, "156-inbox-proposal")
        assert unnamed_controls(window) == [], "the inbox's proposal"
        await mouse_click(ui, window, "inboxDismiss")
        await ui.until(lambda: _kinds(objects) == [])  # ended cancelled: off the list
        assert proposals.calls == [("cancel", "p1")]  # dismissed, never confirmed
        assert objects.session.sessionKey != first

    ui.run(scenario(), 90)
