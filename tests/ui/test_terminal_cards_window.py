"""Terminal cards in the real window: rendered screen text (colours applied), exit pills, a 1 MB output
that streams without stalling the GUI."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer

from tests.conftest import scripted_agent_argv


def _screen_texts(ui, window) -> list[str]:
    texts = []
    stack = [window.root.contentItem()]
    while stack:
        item = stack.pop()
        if item.objectName() == "terminalScreen":
            texts.append(item.property("text"))
        stack.extend(item.childItems())
    return texts


def test_terminal_card_shows_the_coloured_screen_and_exit_pill(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        await ui.type_and_send(window, "term-end")
        await ui.until(lambda: not window.controller.busy)
        await ui.until(lambda: any("run.sh" in t for t in _screen_texts(ui, window)))
        html = next(t for t in _screen_texts(ui, window) if "run.sh" in t)
        assert "color:#61afef" in html.replace(" ", "") or "61afef" in html  # ls's blue directory
        assert "\x1b" not in html
        await ui.screenshot(window, "09-terminal-card")

    ui.run(scenario())


def test_a_1_mb_terminal_output_streams_without_stalling_the_gui(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        controller = window.controller
        gaps = []
        last = [time.perf_counter()]

        def tick():
            now = time.perf_counter()
            gaps.append(now - last[0])
            last[0] = now

        timer = QTimer()
        timer.setInterval(5)
        timer.timeout.connect(tick)
        timer.start()
        await ui.type_and_send(window, "term-big")
        await ui.until(lambda: not controller.busy, 60)
        tool = controller.timeline.items["tool:t-big"]
        assert len(tool.terminal.output) >= 1024 * 1000
        controller.model.toggle("tool:t-big", False)  # keep the card open (it would collapse after 1 s)

        def screen_html() -> str:
            tool = ui.tool_payload(window, "tool:t-big")
            return tool["terminal"]["html"] if tool and tool["terminal"] else ""

        await ui.until(lambda: "processed item 013106" in screen_html(), 120)
        await ui.until(lambda: any("013106" in t for t in _screen_texts(ui, window)), 10)
        timer.stop()
        await ui.screenshot(window, "10-terminal-1mb")
        assert max(gaps) < 0.5, f"longest GUI stall {max(gaps) * 1000:.0f} ms"

    ui.run(scenario(), timeout=180)


def test_a_console_fallback_renders_as_a_terminal_block_not_prose(ui):
    async def scenario():
        window = await ui.open(scripted_agent_argv())
        controller = window.controller
        await ui.type_and_send(window, "term-console")
        await ui.until(lambda: not controller.busy)
        controller.model.toggle("tool:t-console", False)  # finished cards collapse; open it
        tool = ui.tool_payload(window, "tool:t-console")
        assert tool is not None and tool["terminal"] is None and tool["console"] is not None
        assert "missing rule" in tool["console"]["html"] and "\x1b" not in tool["console"]["html"]
        assert "```" not in tool["console"]["html"]
        await ui.until(lambda: any("missing rule" in t for t in _screen_texts(ui, window)))
        await ui.screenshot(window, "11-console-fallback")

    ui.run(scenario())
