"""The real window against the real OpenClaw."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.renderer.timeline.heartbeat import SENTINEL
from app.renderer.timeline.serialize import item_record

pytestmark = pytest.mark.e2e


def test_window_streams_an_openclaw_reply_and_keeps_the_optimistic_message(ui, openclaw):
    async def scenario():
        window = await ui.open(openclaw.agent_argv(), start=False)
        objects = window.objects
        objects.start()
        await ui.until(lambda: objects.agent.state == "starting", 10)  # OpenClaw takes seconds
        await ui.until(lambda: objects.session.sessionKey, 60)
        assert objects.session.sessionKey.startswith("agent:main:clawqt-")
        assert "OpenClaw" in objects.agent.label
        await ui.type_and_send(window, "Say hello please from the window")
        assert ui.kinds(window)[:1] == ["user"]
        await ui.until(lambda: not objects.session.busy, 60)
        assert ui.kinds(window) == ["user", "assistant-text", "turn-footer"]
        timeline = objects.session.timeline
        assert "Hello from the fake model." in str([item_record(i) for i in timeline.items.values()])
        await ui.screenshot(window, "e2e-01-openclaw-reply")

        # the protocol inspector (F12) shows this real exchange, both ways, named and by session
        await ui.key(window, Qt.Key.Key_F12)
        inspector = objects.inspector
        await ui.until(lambda: inspector.isOpen and inspector.rowCount() > 0)
        texts = [inspector.text(row, False) for row in range(inspector.rowCount())]
        seen = {(e.direction, e.kind, e.method) for e in objects.host.inspector.read(0).entries}
        assert {("send", "request", "initialize"), ("recv", "response", "initialize")} <= seen
        assert {("send", "request", "session/prompt"), ("recv", "response", "session/prompt")} <= seen
        assert ("recv", "notification", "session/update") in seen
        assert any("Say hello please from the window" in text for text in texts)
        entries = objects.host.inspector.read(0).entries
        sessions = {e.session for e in entries if e.method == "session/update"}
        prompted = {e.session for e in entries if e.method == "session/prompt" and e.direction == "send"}
        assert len(prompted) == 1 and sessions == prompted  # the ACP session id on the wire (not the key)
        await ui.screenshot(window, "e2e-01b-openclaw-inspector")

    ui.run(scenario(), timeout=120)


def test_window_hides_a_heartbeat_only_session_and_a_restart_reopens_the_chat_shown(ui, openclaw):
    async def scenario():
        window = await ui.open(openclaw.agent_argv())
        objects = window.objects
        heartbeat_key = objects.session.sessionKey
        await ui.type_and_send(window, SENTINEL)
        await ui.until(lambda: not objects.session.busy, 60)
        objects.session.newChat()
        await ui.until(lambda: objects.session.sessionKey != heartbeat_key, 30)
        real_key = objects.session.sessionKey
        await ui.type_and_send(window, "Say hello please, a real question")
        await ui.until(lambda: not objects.session.busy, 60)
        await objects.shutdown()
        window.root.close()
        ui.windows.remove(window)

        again = await ui.open(openclaw.agent_argv())  # an app restart: same data dir, fresh process
        keys = lambda: [s["key"] for s in again.objects.sessions.entries()]  # noqa: E731
        await ui.until(lambda: real_key in keys(), 30)
        assert heartbeat_key not in keys()
        assert again.objects.session.sessionKey == real_key  # the chat shown at quit, loaded again
        await ui.until(lambda: "user" in ui.kinds(again), 30)
        await ui.frames(again, 2)
        await ui.screenshot(again, "e2e-02-heartbeat-hidden")

    ui.run(scenario(), timeout=180)
