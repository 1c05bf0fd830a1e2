"""The real chat window driven like a user would, against the demo agent and the scripted agent."""

from __future__ import annotations

import asyncio
import itertools
import os
import threading
import time

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor
from PySide6.QtQuick import QQuickItem

from app.renderer.timeline.serialize import item_record
from app.renderer.timeline.turn_view import item_text
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


def test_a_code_block_names_its_language_and_is_highlighted_again_when_the_theme_changes(ui):
    async def scenario():
        window = await open_tour(ui)
        objects = window.objects
        await ui.until(lambda: not objects.session.busy, 30)
        model = objects.model
        items = objects.session.timeline.items
        coded = next(
            r
            for r in ui.rows(window, "assistant-text")
            if any("```python" in item_text(items[i]) for i in r.item_ids if i in items)
        )
        objects.conversation.scrollToRow.emit(model.view_row_of_key(coded.key))
        await asyncio.sleep(0.6)  # scrolled to it: its delegate exists
        languages = [t.property("text") for t in find_all(window.root.contentItem(), "codeLanguage")]
        assert "python" in languages  # each code block's header names its language beside Copy
        copy = find_all(window.root.contentItem(), "copyCode")
        assert copy and all(button.property("visible") for button in copy)
        await ui.screenshots(window, "57-code-block-header")
        blocks = ui.role(window, coded, "blocks")
        html_role = next(r for r, n in blocks.roleNames().items() if bytes(n) == b"html")

        def code_html() -> str:
            for row in range(blocks.rowCount()):
                index = blocks.index(row)
                if blocks.data(index, html_role) and "def" in blocks.data(index, html_role):
                    return blocks.data(index, html_role)
            return ""

        light = code_html()
        objects.app.setColorScheme("dark")  # code already shown is highlighted for the dark theme
        await ui.until(lambda: code_html() not in ("", light))
        objects.app.setColorScheme("light")
        await ui.until(lambda: code_html() == light)

    ui.run(scenario())


def test_a_streamed_code_block_s_highlighter_is_built_off_the_gui_thread(ui, monkeypatch):
    """The first code block of a language in a run: its lexer (Python's compiles its regular expressions
    for tens of milliseconds) is built on the highlighter thread while the block streams, never where the
    reply is rendered; the settled reply shows the block highlighted."""
    from app.renderer.markdown import highlighters

    monkeypatch.setattr(highlighters, "_builds", {})  # no lexer built yet in this process
    built_on: list[tuple[str, str]] = []
    real = highlighters.make_lexer

    def recorded(lang: str):
        built_on.append((lang, threading.current_thread().name))
        return real(lang)

    monkeypatch.setattr(highlighters, "make_lexer", recorded)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "paced 3000 3000")  # a 40-line Python block streamed in ~1 s
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        await ui.until(lambda: not objects.session.busy, 20)
        assert [lang for lang, _ in built_on] == ["python"]  # built once ...
        assert built_on[0][1].startswith("highlighter")  # ... on the highlighter thread
        row = ui.rows(window, "assistant-text")[-1]
        blocks = ui.role(window, row, "blocks")
        roles = {bytes(n): r for r, n in blocks.roleNames().items()}
        kinds = [blocks.data(blocks.index(i), roles[b"kind"]) for i in range(blocks.rowCount())]
        code = kinds.index("code")
        html = blocks.data(blocks.index(code), roles[b"html"])
        assert "<span" in html and "compute" in html  # highlighted once settled
        assert blocks.data(blocks.index(code), roles[b"tail"]) == ""

    ui.run(scenario())


def test_stop_mid_stream_keeps_the_partial_reply(ui):
    async def scenario():
        window = await ui.open(demo_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "something slow please")
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        assert ui.item(window, "workingIndicator").property("visible")
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not objects.session.busy, 10)
        assert "assistant-text" in ui.kinds(window)
        assert not ui.item(window, "workingIndicator").property("visible")
        await ui.screenshot(window, "02-stopped")

    ui.run(scenario())


def test_text_blocks_of_a_long_reply_are_drawn_whole_not_rebuilt_when_the_list_moves(ui):
    """Qt culls a TextEdit whose text passes 10,000 characters to the lines in view and builds its nodes
    again whenever an item above it moves: every flush of a streaming reply moved every such block of
    the conversation. Chat blocks are bounded, so each is drawn whole once; scrolled into view later,
    its text is there."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "hostile-render links")

        def large_blocks() -> list:
            prose = find_all(window.root.contentItem(), "proseText")
            return [edit for edit in prose if len(edit.property("text")) > 10_000]

        edits = await ui.until(lambda: len(large_blocks()) >= 2 and large_blocks(), 30)  # past Qt's threshold
        await ui.frames(window, 2)
        observing = [e for e in edits if e.flags() & QQuickItem.Flag.ItemObservesViewport]
        assert not observing, f"{len(observing)} of {len(edits)} large blocks are culled to the view"

        entries = ui.item(window, "timeline")
        first = min(edits, key=lambda edit: edit.mapToScene(QPointF(0, 0)).y())
        top = first.mapToItem(entries.property("contentItem"), QPointF(0, 0)).y()
        entries.setProperty("contentY", top)  # the reply's first block, drawn before it was in view
        await ui.frames(window, 2)
        image = window.root.grabWindow()
        shown = first.mapRectToScene(QRectF(0, 0, first.width(), min(first.height(), 200)))
        link = QColor(window.objects.app.property("linkColour"))
        assert has_colour_near(image, shown, (link.red(), link.green(), link.blue()))

    ui.run(scenario())


def test_every_spinner_steps_on_one_clock_and_the_clock_stops_with_the_turn(ui):
    """While the agent works silently two spinners turn (the composer's and the chat's in the sidebar).
    Each once had its own timer, so their steps fell in different frames: twice the frames for marks
    nobody reads that closely (bench/ui_frames.py counts them). They step together now, on one timer,
    and it stops with the turn and while motion is reduced."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "silent")
        await ui.until(lambda: window.objects.session.busy)
        arcs = lambda: find_all(window.root.contentItem(), "spinnerArc")  # noqa: E731
        await ui.until(lambda: len([a for a in arcs() if a.isVisible()]) >= 2)
        clock = window.singleton("spinnerClock")
        spinners = [a.parentItem() for a in arcs()]  # kept: their wrappers must outlive the timers'
        timers = [t for owner in [*spinners, clock] for t in owner.findChildren(QObject, "spinnerTimer")]
        running = [t for t in timers if t.property("running")]
        assert len(running) == 1  # however many spinners turn
        angles: set[tuple[float, ...]] = set()

        def seen_turning() -> bool:
            turning = [a for a in arcs() if a.isVisible()]
            angles.add(tuple(sorted({a.rotation() for a in turning})))
            return len(angles) >= 3

        await ui.until(seen_turning, 30)  # they do turn
        assert all(len(shown) == 1 for shown in angles), angles  # every spinner at the same angle
        await ui.screenshots(window, "31-working-spinners")
        window.objects.app.setReducedMotion(True)  # the arcs stand still: the clock stops
        await ui.until(lambda: not running[0].property("running"))
        window.objects.app.setReducedMotion(False)
        await ui.until(lambda: running[0].property("running"))
        window.objects.turn.stop()  # the turn ends: no spinner turns, the clock stops
        await ui.until(lambda: not window.objects.session.busy, 10)
        await ui.until(lambda: clock.property("turning") == 0)
        assert not running[0].property("running")

    ui.run(scenario())


def test_while_a_reply_streams_the_spinner_steps_in_frames_drawn_anyway(ui):
    """A streaming reply changes the conversation a few dozen times a second and the composer's spinner
    turns meanwhile: on its own clock each of its steps was one more frame on top of the stream's. A
    step now rides the conversation's change when one comes near its time; the clock steps on its own
    only when no change came since the step was due (checked step by step)."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        clock = window.singleton("spinnerClock")
        due_s = (clock.property("interval") - clock.property("rideEarly")) / 1000
        flushes: list[float] = []
        steps: list[float] = []
        objects.model.flushed.connect(lambda: flushes.append(time.perf_counter()))
        clock.stepChanged.connect(lambda: steps.append(time.perf_counter()))
        await ui.type_and_send(window, "paced 600 1500")
        await ui.until(lambda: objects.session.busy)
        await ui.until(lambda: not objects.session.busy, 30)
        near_s, slack_s = 0.008, 0.004  # a ride happens inside the flush; clocks tick in whole ms
        rode = [s for s in steps if any(abs(s - f) <= near_s for f in flushes)]
        assert len(rode) >= 3, (len(rode), len(steps), len(flushes))
        for before, step in itertools.pairwise(steps):
            if step in rode:
                continue
            ridable = [f for f in flushes if before + due_s + slack_s < f < step - slack_s]
            assert not ridable, f"a step at {step - before:.3f} s on its own after changes at {ridable}"

    ui.run(scenario())


def test_the_window_asks_for_the_basic_render_loop_before_qt_makes_one(ui, monkeypatch):
    """The render loop is chosen when the first Qt Quick window is made: the window asks for the basic
    one (tests/unit/window/test_render_loop.py says why) before its engine loads anything."""
    monkeypatch.delenv("QSG_RENDER_LOOP", raising=False)

    async def scenario():
        await ui.open(scripted_agent_argv(), start=False)
        assert os.environ.get("QSG_RENDER_LOOP") == "basic"

    ui.run(scenario())


def test_stop_before_any_reply_leaves_a_turn_that_says_stopped(ui):
    """Stopping a turn that had said nothing yet used to leave the question alone, as if unanswered."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "silent")
        await ui.until(lambda: objects.session.busy)
        await asyncio.sleep(1.1)  # a full second: its footer says "Stopped after 1 s"
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not objects.session.busy, 10)
        assert ui.kinds(window) == ["user", "turn-footer"]
        timing = await ui.until(lambda: ui.find(window, "turnTiming"))
        assert timing.property("text") == "Stopped after 1 s"
        await ui.screenshots(window, "21-stopped-before-reply")

    ui.run(scenario())


def test_a_stopped_turn_s_terminal_says_it_was_killed_after_stop(ui, monkeypatch):
    monkeypatch.setattr("app.main.sessions.stop_grace.STOP_GRACE_S", 0.3)

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "term-stop")
        await ui.until(lambda: ui.find(window, "terminalExit") is not None)
        await ui.until(lambda: "started" in (ui.find(window, "terminalScreen").property("text") or ""))
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not objects.session.busy, 10)
        pill = ui.item(window, "terminalExit")
        await ui.until(lambda: pill.property("text") == "SIGKILL · killed after Stop", 10)
        assert "started" in ui.item(window, "terminalScreen").property("text")
        await ui.screenshots(window, "22-terminal-killed-after-stop")

    ui.run(scenario())


def test_a_permission_is_answered_with_the_keyboard(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "permission")
        await ui.until(lambda: "permission" in ui.kinds(window))
        await ui.frames(window, 2)
        deny = ui.item(window, "permissionOption_deny")
        deny.forceActiveFocus()
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: not objects.session.busy, 10)
        timeline = objects.session.timeline
        assert any("outcome: deny" in str(item_record(item)) for item in timeline.items.values())
        answer = await ui.until(lambda: ui.find(window, "permissionAnswer"))
        assert answer.property("text") == "Answered: Deny (rejected)"  # the option's name, not its id
        await ui.screenshots(window, "03-permission-answered")

    ui.run(scenario())


def test_a_waiting_permission_stands_apart_and_its_number_key_answers_it(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "permission")
        await ui.until(lambda: "permission" in ui.kinds(window))
        await ui.frames(window, 2)
        card = ui.item(window, "permissionCard")
        assert ui.item(window, "permissionWaiting").property("visible")
        holder = card.parentItem()
        while holder is not None and holder.objectName() != "toolCard":
            holder = holder.parentItem()
        assert holder is not None  # in the footer of the card of the call it concerns
        assert not find_all(holder, "statusPill")[0].isVisible()  # "Needs you" says it, not "Pending" too
        keys = [cap.childItems()[0].property("text") for cap in find_all(card, "permissionOptionKey")]
        assert sorted(keys) == ["1", "2"]  # each option's key shown on it
        waiting_colour = card.property("color")
        await ui.screenshots(window, "59-permission-waiting")
        waiting = next(i for i in objects.session.timeline.items.values() if i.kind == "permission")
        options = [option["optionId"] for option in waiting.options]
        ui.item(window, f"permissionOption_{options[0]}").forceActiveFocus()
        await ui.key(window, Qt.Key.Key_2, text="2")  # the second option, as numbered
        await ui.until(lambda: not objects.session.busy, 10)
        answer = await ui.until(lambda: ui.find(window, "permissionAnswer"))
        assert answer.property("text").startswith("Answered: ")
        permission = next(i for i in objects.session.timeline.items.values() if i.kind == "permission")
        assert permission.selected_option == options[1]
        assert not ui.item(window, "permissionWaiting").property("visible")
        assert (
            ui.item(window, "permissionCard").property("color") != waiting_colour
        )  # tinted only while waiting

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


def test_question_directory_lists_questions_and_scrolls_to_one(ui):
    async def scenario():
        window = await ui.open(demo_agent_argv())
        objects = window.objects
        toggle = ui.item(window, "questionToggle")
        assert not toggle.property("enabled")
        for question in ("/echo first question", "/echo second question", "/echo third question"):
            await ui.type_and_send(window, question)
            await ui.until(lambda: not objects.session.busy)
        await ui.until(lambda: len(objects.conversation.questions) == 3)
        assert toggle.property("enabled")
        await ui.key(
            window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        directory = ui.item(window, "questionDirectory")
        await ui.until(lambda: directory.property("visible"))
        await ui.screenshot(window, "05-question-directory")
        scrolled = []
        objects.conversation.scrollToRow.connect(scrolled.append)
        first = objects.conversation.questions[0]
        objects.conversation.goToQuestion(first["number"])
        assert len(scrolled) == 1
        model = objects.model
        shown = model.row_at(scrolled[0])
        assert shown.kind == "user" and first["title"] in ui.role(window, shown, "text")
        objects.conversation.goToQuestion(99)  # a question that is not there is a no-op
        assert len(scrolled) == 1
        await ui.frames(window, 2)
        await ui.screenshot(window, "05b-scrolled-to-question")

    ui.run(scenario())


def test_the_question_directory_opens_at_the_newest_entry_has_tooltips_and_stays_open_per_chat(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        for n in range(1, 21):
            await ui.type_and_send(window, f"hello number {n}, " + "long words " * 40)
            await ui.until(lambda: not objects.session.busy)
        await ui.until(lambda: len(objects.conversation.questions) == 20)
        first_chat = objects.session.sessionKey
        ui.item(window, "questionToggle").clicked.emit()
        entries = ui.item(window, "questionList")
        await ui.until(lambda: entries.isVisible())
        await ui.until(lambda: entries.property("currentIndex") == 19)

        def in_view() -> list[str]:
            height, top = entries.property("height"), entries.property("contentY")
            shown = [e for e in find_all(entries, "questionEntry") if 0 <= e.y() - top < height]
            return [e.property("text") for e in shown]

        # the newest is in view, and the list scrolled past the first (positioned after its layout)
        await ui.until(lambda: any(t.startswith("20. ") for t in in_view()))
        assert not any(t.startswith("1. ") for t in in_view())
        newest = objects.conversation.questions[-1]
        assert newest["title"].endswith("...") and newest["text"].startswith("hello number 20, long words")
        assert len(newest["text"]) > len(newest["title"])  # the tooltip says more than the entry
        await ui.screenshots(window, "36-question-directory-newest")

        objects.session.newChat()  # another chat: its own directory state (closed)
        await ui.until(lambda: objects.session.sessionKey != first_chat)
        await ui.until(lambda: not entries.isVisible())
        objects.session.openSession(first_chat)  # back: still open
        await ui.until(lambda: objects.session.sessionKey == first_chat)
        await ui.until(lambda: entries.isVisible())

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


def test_slash_command_completion_with_hints(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        composer = ui.item(window, "composerInput")
        composer.forceActiveFocus()
        await ui.keys(window, "/st")
        popup_list = ui.item(window, "slashList")
        await ui.until(lambda: popup_list.property("count") == 1)
        await ui.screenshots(window, "06-slash-completion")
        # the chosen row's hint and description are readable on its highlight, light and dark
        for scheme in ("light", "dark"):
            window.objects.app.setColorScheme(scheme)
            await asyncio.sleep(0.05)  # the scheme's colours are applied
            under = QColor(window.singleton("theme").property("raised"))  # the popup's surface
            background = shown_over(ui.item(window, "slashItemBackground").property("color"), under)
            assert contrast(ui.item(window, "slashItemName").property("color"), background) >= 4.5, scheme
            assert contrast(ui.item(window, "slashItemDescription").property("color"), background) >= 3.0, (
                scheme
            )
        window.objects.app.setColorScheme("system")
        await ui.key(window, Qt.Key.Key_Tab)
        await ui.until(lambda: composer.property("text") == "/status ")

    ui.run(scenario())


def test_mode_and_model_changes_reach_the_agent(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        assert [m["id"] for m in objects.header.modes] == ["a", "b"]
        model = next(o for o in objects.header.configOptions if o["category"] == "model")
        assert model["currentValue"] == "m1"
        objects.header.setMode("b")
        objects.header.setConfigOption("model", "m2")
        log = ui.tmp_path / "agent-stderr.log"
        await ui.until(
            lambda: "set_mode b" in log.read_text() and "set_config_option model=m2" in log.read_text()
        )
        await ui.until(lambda: objects.header.currentMode == "b")
        await ui.until(
            lambda: (
                next(o for o in objects.header.configOptions if o["category"] == "model")["currentValue"]
                == "m2"
            )
        )

    ui.run(scenario())


def test_a_draft_survives_an_app_restart(ui):
    async def scenario():
        window = await ui.open(demo_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "/echo keep this session")
        await ui.until(lambda: not objects.session.busy)
        key = objects.session.sessionKey
        ui.item(window, "composerInput").setProperty("text", "draft written before quitting")
        await asyncio.sleep(0.6)  # the draft's save delay passes
        await objects.shutdown()
        window.root.close()
        ui.windows.remove(window)

        again = await ui.open(demo_agent_argv())
        await ui.until(lambda: any(s["key"] == key for s in again.objects.sessions.entries()))
        again.objects.session.openSession(key)
        await ui.until(lambda: again.objects.session.sessionKey == key)
        composer = ui.item(again, "composerInput")
        await ui.until(lambda: composer.property("text") == "draft written before quitting")

    ui.run(scenario())


def test_a_turn_without_a_reply_says_so(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "noreply")
        await ui.until(lambda: not window.objects.session.busy)
        notice = ui.item(window, "noReplyNotice")
        await ui.until(lambda: notice.property("visible"))
        await ui.screenshot(window, "07-no-reply")

    ui.run(scenario())


def test_a_failed_prompt_goes_back_into_the_composer(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "fail please")
        await ui.until(lambda: not objects.session.busy)
        assert "Your message was not sent (it is back in the composer)" in objects.notices.notice
        await ui.until(lambda: ui.item(window, "composerInput").property("text") == "fail please")
        assert not ui.item(window, "retryButton").property("visible")
        assert ui.kinds(window) == []  # the optimistic message that never arrived is gone
        await ui.screenshot(window, "08-failed-prompt")

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


def test_the_composer_follows_each_sessions_draft_also_after_sending(ui):
    """Sending clears the composer from code, which ended its binding to the draft: switching sessions
    afterwards must still show each session's own draft."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        await ui.type_and_send(window, "hello")
        await ui.until(lambda: not objects.session.busy)
        composer = ui.item(window, "composerInput")
        assert composer.property("text") == ""
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        composer.setProperty("text", "a thought for the new chat")
        await asyncio.sleep(0.1)  # time for what must not happen to show: an absence has no event
        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first)
        await ui.until(lambda: composer.property("text") == "")
        second = next(e["key"] for e in objects.sessions.entries() if e["key"] not in (first,))
        objects.session.openSession(second)
        await ui.until(lambda: composer.property("text") == "a thought for the new chat")

    ui.run(scenario())


def test_a_message_sent_before_the_chat_opens_is_shown_queued_then_sent(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv("--init-delay=2"), start=False)
        objects = window.objects
        objects.start()
        await ui.until(lambda: objects.agent.state == "starting")
        await ui.type_and_send(window, "hello before the chat is open")
        queued = ui.item(window, "messageQueue")
        await ui.until(lambda: queued.property("visible"))
        assert ui.item(window, "queuedText_0").property("text") == "1. hello before the chat is open"
        assert ui.item(window, "queueReason").property("text") == "Sent as soon as the chat is open."
        assert ui.item(window, "composerInput").property("text") == ""
        await ui.screenshots(window, "18-queued-message")
        await ui.until(lambda: not queued.property("visible"), 20)
        await ui.until(lambda: "assistant-text" in ui.kinds(window))
        assert ui.kinds(window)[0] == "user"

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
