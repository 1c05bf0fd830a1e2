"""The real chat window driven like a user would, against the demo agent and the scripted agent."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor

from app.renderer.timeline.serialize import item_record
from tests.conftest import demo_agent_argv, scripted_agent_argv
from tests.ui_harness import find_all, has_colour_near

CARD_KINDS = {
    "user",
    "assistant-text",
    "thought",
    "tool-group",
    "permission",
    "plan",
    "turn-attachments",
    "turn-footer",
}


async def open_tour(ui):
    """The demo agent's tour sent in a new window, its permission allowed as it comes."""
    window = await ui.open(demo_agent_argv())
    service = window.objects.host.sessions
    service.subscribe(
        lambda e: (
            e.kind == "permission_request"
            and service.answer_permission(e.request_id, e.options[0]["optionId"])
        )
    )
    await ui.type_and_send(window, "Show me everything")
    return window


def test_send_shows_the_optimistic_message_at_once_and_streams_every_card_kind(ui):
    async def scenario():
        window = await open_tour(ui)
        objects = window.objects
        assert ui.kinds(window)[:1] == ["user"]  # before any agent output
        assert objects.session.busy
        await ui.until(lambda: "assistant-text" in ui.kinds(window) or not objects.session.busy, 30)
        await ui.screenshots(window, "01a-tour-mid-stream")
        await ui.until(lambda: not objects.session.busy, 30)
        kinds = set(ui.kinds(window))
        assert kinds >= CARD_KINDS, kinds
        # each tool row read at ITS view row (the view shows rows newest first): a row read at its
        # timeline index would be another row, whose `tools` is None, and fail here
        tools = [ui.role(window, row, "tools") for row in ui.rows(window, "tool", "tool-group")]
        assert tools and all(tools)
        assert any(t["terminal"] for group in tools for t in group)
        assert all(t["duration"] for group in tools for t in group if t["status"] == "completed")
        await ui.screenshots(window, "01-showcase")
        composer = ui.item(window, "composerInput")
        assert composer.property("text") == ""
        # the context meter: a small ring whose arc is the share used (the agent's usage_update)
        meter = ui.item(window, "usageMeter")
        usage = objects.header.usage
        assert meter.property("visible") and meter.height() <= 20
        assert 0 < usage["fraction"] < 1 and abs(meter.property("value") - usage["fraction"]) < 1e-9
        image = window.root.grabWindow()
        at = meter.mapToScene(QPointF(0, 0))
        ring = QRectF(at.x(), at.y(), meter.width(), meter.height())
        accent = QColor(meter.property("fillColour"))
        assert has_colour_near(image, ring, (accent.red(), accent.green(), accent.blue()), tolerance=60)

    ui.run(scenario())


def test_switching_sessions_mid_stream_keeps_the_stream_and_returns_live(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.type_and_send(window, "background")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey and objects.session.sessionKey != first)
        sidebar = {s["key"]: s for s in objects.sessions.entries()}
        assert sidebar[first]["live"]  # a spinner on the running session
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first)
        assert objects.session.busy  # shown live again, no reload
        await ui.until(lambda: not objects.session.busy, 15)
        text = "".join(str(item_record(i)) for i in objects.session.timeline.items.values())
        assert text.count("bg") == 30

    ui.run(scenario())


def test_agent_killed_mid_turn_shows_a_banner_and_reconnect_restores_history_and_draft(ui):
    async def scenario():
        window = await ui.open(demo_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "/echo remember this")
        await ui.until(lambda: not objects.session.busy)
        key = objects.session.sessionKey
        await ui.type_and_send(window, "something slow please")
        await ui.until(lambda: "assistant-text" in ui.kinds(window)[2:])
        composer = ui.item(window, "composerInput")
        composer.setProperty("text", "my unsent draft")
        await asyncio.sleep(0.5)  # the draft's save delay passes
        objects.host.sessions.current_service.connection._process.proc.kill()
        banner = ui.item(window, "agentBanner")
        await ui.until(lambda: banner.property("visible"), 10)
        await ui.screenshot(window, "04-agent-exited")
        reconnect = ui.item(window, "reconnectButton")
        reconnect.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Space, text=" ")
        await ui.until(lambda: not banner.property("visible") and objects.agent.state == "ready", 20)
        await ui.until(lambda: objects.session.sessionKey == key and "user" in ui.kinds(window))
        history = " ".join(str(item_record(i)) for i in objects.session.timeline.items.values())
        assert "remember this" in history
        assert composer.property("text") == "my unsent draft"

    ui.run(scenario())


def test_heartbeat_sessions_are_hidden_and_startup_is_a_new_chat(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv("--heartbeat-list"))
        objects = window.objects
        await ui.until(lambda: len(objects.sessions.entries()) > 1)
        keys = [s["key"] for s in objects.sessions.entries()]
        assert "agent:main:main" not in keys
        assert objects.session.sessionKey == "acp-1"  # a new empty chat, not the heartbeat session
        assert ui.kinds(window) == []

    ui.run(scenario())


def shown_over(colour: QColor, under: QColor) -> QColor:
    """A translucent colour as the screen shows it over an opaque one."""
    a = colour.alphaF()
    return QColor.fromRgbF(
        *(a * top + (1 - a) * low for top, low in zip(colour.getRgbF()[:3], under.getRgbF()[:3], strict=True))
    )


def contrast(foreground, background) -> float:
    """The WCAG contrast ratio of two opaque colours (1 to 21)."""

    def luminance(colour) -> float:
        def channel(value: float) -> float:
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

        return (
            0.2126 * channel(colour.redF())
            + 0.7152 * channel(colour.greenF())
            + 0.0722 * channel(colour.blueF())
        )

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_a_turn_without_a_reply_says_so(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "noreply")
        await ui.until(lambda: not window.objects.session.busy)
        notice = ui.item(window, "noReplyNotice")
        await ui.until(lambda: notice.property("visible"))
        await ui.screenshot(window, "07-no-reply")

    ui.run(scenario())


def test_a_load_failure_leaves_an_empty_usable_chat(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        objects.session.openSession("fail-load")
        await ui.until(lambda: "Could not open" in objects.notices.notice)
        await ui.until(lambda: objects.session.sessionKey not in (first, "fail-load", ""))
        assert ui.kinds(window) == []
        await ui.type_and_send(window, "hello")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))

    ui.run(scenario())


def test_an_error_is_one_sentence_with_its_details_behind_a_disclosure(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv("--fail-new=1"), start=False)
        objects = window.objects
        objects.start()
        await ui.until(lambda: objects.notices.notice, 20)
        assert objects.notices.notice == (
            "Could not start a new chat: Internal error: the workspace is locked by another agent."
        )
        details = ui.item(window, "noticeDetails")
        assert not details.property("visible")
        ui.item(window, "noticeDetailsToggle").toggle()
        await ui.until(lambda: details.property("visible"))
        assert "session/new answered error -32603" in details.property("text")
        await ui.screenshots(window, "19-error-details")

    ui.run(scenario())


def test_tool_cards_draw_their_icons_and_show_a_status_only_when_it_says_something(ui):
    """Icons were emoji (empty boxes without an emoji font) and the status pill overflowed the card;
    they are the app's own Lucide icons now, drawn in the theme's colour. A finished call shows no
    "Done" (the quiet default); a failed one shows its pill, inside its row. A terminal is a card, a
    fetch a quiet row."""

    def shown(window, name):
        return [item for item in find_all(window.root.contentItem(), name) if item.isVisible()]

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "term-end")
        await ui.until(lambda: not objects.session.busy)
        ui.toggle_tool(window, "tool:t-end", False)
        window.root.resize(560, 700)  # narrow: the title has to give way to the pill
        await ui.frames(window, 2)
        icon = await ui.until(lambda: ui.find(window, "toolKindIcon"))
        assert icon.property("source").toString().startswith("image://icon/terminal?c=")
        await ui.until(lambda: icon.property("paintedWidth") > 0)  # drawn, at its size
        assert icon.property("paintedWidth") == icon.width() == icon.property("sourceSize").width()
        [terminal] = shown(window, "toolCard")
        assert terminal.property("framed") and not shown(window, "statusPill")  # done: nothing to say
        await ui.type_and_send(window, "tool-chunks")  # a fetch that fails
        await ui.until(lambda: not objects.session.busy)
        await ui.frames(window, 2)
        [pill] = await ui.until(lambda: shown(window, "statusPill"))
        card = pill.parentItem()
        while card is not None and card.objectName() != "toolCard":
            card = card.parentItem()
        assert not card.property("framed")  # a fetch is a quiet row
        [label] = pill.childItems()
        state_icon, word = label.childItems()
        assert word.property("text") == "Failed"  # the state drawn as an icon, not only a word
        assert state_icon.property("source").toString().startswith("image://icon/circle-x?c=")
        assert pill.width() >= label.implicitWidth() + 10  # the label fits inside the pill ...
        right = label.mapToItem(card, label.width(), 0).x()
        assert 0 < right <= card.width(), (right, card.width())  # ... and the pill inside the row
        await ui.screenshots(window, "20-tool-card-icons")

    ui.run(scenario())


def test_opening_a_chat_shows_that_it_waits_and_a_deadline_ends_the_wait_with_a_notice(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv("--hang-new=1"), start=False)
        objects = window.objects
        objects.host.sessions.current_service.connection.deadlines["session/new"] = 1.5
        objects.start()
        label = await ui.until(lambda: ui.find(window, "openingLabel"))
        await ui.until(lambda: label.property("text") == "Opening a new chat\u2026" and label.isVisible())
        await ui.screenshots(window, "29-opening-a-chat")
        await ui.until(lambda: objects.notices.notice != "", 10)
        assert objects.notices.notice == (
            "Could not start a new chat: The agent did not answer session/new within 1.5 s."
        )
        assert not ui.item(window, "openingIndicator").isVisible()
        objects.session.newChat()  # the agent lives: the next try opens
        await ui.until(lambda: objects.session.sessionKey, 10)

    ui.run(scenario())


def test_the_agents_mark_is_its_initials_on_a_colour_from_its_name(ui):
    from PySide6.QtGui import QColor

    from app.renderer.present.agent_avatar import PALETTE_SIZE, colour_index, initials
    from tests.ui_harness import find_all

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "hello")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        label = window.objects.agent.label
        avatar = await ui.until(
            lambda: next(
                (a for a in find_all(window.root.contentItem(), "agentAvatar") if a.isVisible()), None
            )
        )
        (text,) = find_all(avatar, "agentAvatarInitials")
        assert text.property("text") == initials(label) == "S"
        palette = QColor(avatar.property("color"))
        theme = window.singleton("theme")
        theme_colours = [QColor(c) for c in theme.property("avatarColours").toVariant()]
        assert len(theme_colours) == PALETTE_SIZE
        assert palette == theme_colours[colour_index(label)]
        assert all(contrast(QColor("white"), colour) >= 4.5 for colour in theme_colours)

    ui.run(scenario())
