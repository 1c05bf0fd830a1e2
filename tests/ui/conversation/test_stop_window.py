"""Stop in the real window: a partial reply kept, a turn stopped before any reply says so, and a
stopped turn's terminal says it was killed after Stop."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt

from tests.conftest import demo_agent_argv, scripted_agent_argv


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
