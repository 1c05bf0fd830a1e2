"""Terminal cards in the real window: rendered screen text (colours applied), exit pills, a 1 MB output
shown whole in a fixed viewport (the GUI's longest stall while it streams: bench/terminal_stream.py)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from app.renderer.terminal.runs import LIGHT_PALETTE, PALETTE
from tests.conftest import scripted_agent_argv
from tests.ui_harness import find_all, has_colour_near, plain_text


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _screens(window) -> list:
    return find_all(window.root.contentItem(), "terminalScreen")


def _screen_texts(ui, window) -> list[str]:
    return [item.property("text") for item in _screens(window)]


def test_terminal_card_shows_the_coloured_screen_and_exit_pill(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "term-end")
        await ui.until(lambda: not window.objects.session.busy)
        await ui.until(lambda: any("run.sh" in t for t in _screen_texts(ui, window)))
        screen = next(item for item in _screens(window) if "run.sh" in item.property("text"))
        assert "\x1b" not in screen.property("text")
        await ui.until(lambda: screen.property("paintedVersion") == screen.property("version"))
        # ls's blue directory is painted in the palette's blue, on the real rendered window
        image = window.root.grabWindow()
        top_left = screen.mapToScene(QPointF(0, 0))
        rect = QRectF(top_left.x(), top_left.y(), screen.width(), screen.height())
        assert has_colour_near(image, rect, (0x61, 0xAF, 0xEF), tolerance=30)
        assert not has_colour_near(image, rect, (0xFF, 0x00, 0xFF), tolerance=30)  # no stray magenta
        await ui.screenshot(window, "09-terminal-card")

    ui.run(scenario())


def test_a_1_mb_terminal_output_is_kept_whole_and_painted_in_a_fixed_viewport(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "term-big")
        await ui.until(lambda: not objects.session.busy, 60)
        tool = objects.session.timeline.items["tool:t-big"]
        assert len(tool.terminal.output) >= 1024 * 1000
        ui.toggle_tool(window, "tool:t-big", False)  # keep the card open (it would collapse after 1 s)

        await ui.until(lambda: any("processed item 013106" in t for t in _screen_texts(ui, window)), 120)
        await ui.screenshot(window, "10-terminal-1mb")
        screen = next(item for item in _screens(window) if "013106" in item.property("text"))
        assert screen.property("shownLines") == 24  # a fixed viewport: only the rows shown are painted

        # the user scrolls back with the keyboard and the wheel-free keys; End returns to the tail
        screen.forceActiveFocus()
        await ui.until(lambda: screen.hasActiveFocus())
        QTest.keyClick(window.root, Qt.Key.Key_Home)
        await ui.until(lambda: "processed item 000000" in screen.property("text"))
        assert screen.property("scrollBack") > 13000
        QTest.keyClick(window.root, Qt.Key.Key_End)
        await ui.until(lambda: "processed item 013106" in screen.property("text"))

        # Copy takes every line, not just the rows shown
        objects.conversation.copyTerminal("tool:t-big")
        copied = QGuiApplication.clipboard().text()
        assert "processed item 000000" in copied and "processed item 013106" in copied
        assert "\x1b" not in copied and copied.count("\n") >= 13106

    ui.run(scenario(), timeout=180)


def test_a_console_fallback_renders_as_a_terminal_block_not_prose(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "term-console")
        await ui.until(lambda: not objects.session.busy)
        ui.toggle_tool(window, "tool:t-console", False)  # finished cards collapse; open it
        tool = ui.tool_payload(window, "tool:t-console")
        assert tool is not None and tool["terminal"] is None and tool["console"] is not None
        await ui.until(lambda: any("missing rule" in t for t in _screen_texts(ui, window)))
        text = next(t for t in _screen_texts(ui, window) if "missing rule" in t)
        assert "\x1b" not in text and "```" not in text
        await ui.screenshot(window, "11-console-fallback")

    ui.run(scenario())


def test_escapes_outside_a_terminal_are_coloured_on_a_screen_or_stripped_never_raw(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        objects = window.objects
        await ui.type_and_send(window, "ansi")
        await ui.until(lambda: not objects.session.busy)
        ui.toggle_tool(window, "tool:t-ansi", False)
        await ui.until(lambda: any("1 failed" in t for t in _screen_texts(ui, window)))
        screen = next(item for item in _screens(window) if "1 failed" in item.property("text"))
        assert screen.property("text") == "3 passed, 1 failed"
        await ui.until(lambda: screen.property("paintedVersion") == screen.property("version"))
        image = window.root.grabWindow()
        top_left = screen.mapToScene(QPointF(0, 0))
        rect = QRectF(top_left.x(), top_left.y(), screen.width(), screen.height())
        palette = PALETTE if window.root.property("darkTheme") else LIGHT_PALETTE  # the theme's ANSI colours
        assert has_colour_near(image, rect, _rgb(palette["green"]), tolerance=30)
        assert has_colour_near(image, rect, _rgb(palette["red"]), tolerance=30) or has_colour_near(
            image, rect, _rgb(palette["brightred"]), tolerance=30
        )  # bold red may be drawn bright
        prose = [plain_text(item) for item in find_all(window.root.contentItem(), "proseText")]
        reply = next(text for text in prose if "FAILED" in text)
        assert reply.strip() == "The run said FAILED for t.py."
        assert ui.tool_payload(window, "tool:t-ansi")["title"] == "pytest"
        await ui.screenshots(window, "25-escapes-outside-terminals")

    ui.run(scenario())


def test_the_agents_description_stays_visible_above_the_terminal(ui):
    """Seed 004: the description rides as a content block before the terminal and stays visible with
    the card (claude-agent-acp drops it; we keep it)."""

    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "term-end")
        await ui.until(lambda: not window.objects.session.busy)
        ui.toggle_tool(window, "tool:t-end", False)  # finished cards collapse; keep this one open
        await ui.until(lambda: any("run.sh" in t for t in _screen_texts(ui, window)))
        shown = [d for d in find_all(window.root.contentItem(), "toolDescription") if d.isVisible()]
        assert [d.property("text") for d in shown] == ["List the files"]
        screen = next(item for item in _screens(window) if "run.sh" in item.property("text"))
        description = shown[0]
        assert description.mapToScene(QPointF(0, 0)).y() < screen.mapToScene(QPointF(0, 0)).y()
        assert description.height() > 0
        await ui.screenshots(window, "34-terminal-with-description")

    ui.run(scenario())
