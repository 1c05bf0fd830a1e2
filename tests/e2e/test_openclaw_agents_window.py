"""OpenClaw's own agents in the real window: the run's gateway has two agents (`main` and `work`), the New
chat picker offers both under OpenClaw (read from the Gateway's `agents.list`), a chat started with the
second goes to it (its key names `work`, the gateway keeps it under that agent) and keeps it when it is
opened again."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.e2e

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def test_a_chat_with_openclaws_second_agent_goes_to_it_and_keeps_it(ui, openclaw):
    two_agents = openclaw  # the run's gateway starts with both (tests/e2e/conftest.py TWO_AGENTS)

    async def scenario():
        window = await ui.open(two_agents.agent_argv())
        objects = window.objects
        first = objects.session.sessionKey
        assert first.startswith("agent:main:clawqt-")
        await ui.until(lambda: objects.agents.choiceCount == 2, 30)  # read when the agent got ready
        rows = [entry for entry in objects.agents.model.entries]
        assert [(row["target"], row["targetNote"]) for row in rows] == [("main", "default"), ("work", "work")]
        assert rows[1]["name"].endswith("\u00b7 Work")

        await ui.key(
            window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        )
        await ui.until(
            lambda: (
                ui.find(window, "agentList") is not None and ui.item(window, "agentList").property("visible")
            )
        )
        agent_list = ui.item(window, "agentList")
        await ui.until(lambda: agent_list.property("count") == 2)
        await ui.screenshots(window, "e2e-10-openclaw-agents")
        await ui.key(window, Qt.Key.Key_Down)
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: objects.session.sessionKey not in ("", first), 60)
        work = objects.session.sessionKey
        assert work.startswith("agent:work:clawqt-")
        header = ui.item(window, "agentStateLabel")
        await ui.until(lambda: "\u00b7 Work \u00b7" in header.property("text"))  # the chat says its agent
        await ui.type_and_send(window, "Say hello please to work")
        await ui.until(lambda: not objects.session.busy, 90)
        assert "Hello from the fake model." in str(objects.session.timeline.items)
        # the gateway keeps the chat in agent `work`'s own store (and made its workspace), not main's
        assert (two_agents.state / "workspace-work").is_dir()
        store = two_agents.state / "agents" / "work" / "agent"
        kept = b"".join(path.read_bytes() for path in store.glob("openclaw-agent.sqlite*"))
        assert work.split(":")[-1].encode() in kept

        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first, 60)
        objects.session.openSession(work)
        await ui.until(lambda: objects.session.sessionKey == work, 60)
        await ui.until(lambda: len(ui.rows(window, "user")) == 1, 60)  # its history, from agent `work`
        assert "\u00b7 Work \u00b7" in header.property("text")
        await ui.screenshots(window, "e2e-11-openclaw-chat-with-work")

    ui.run(scenario(), timeout=300)
