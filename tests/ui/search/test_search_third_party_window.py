"""Search every chat with an agent ClawQt did not write: the Python ACP SDK's own example agent
(`examples/agent.py` from the SDK's sdist, a real subprocess; it answers "Client sent:" and the prompt)
beside the scripted agent. What it said is indexed as it streams, found from a chat with the other agent
under its own name, and Enter shows its chat at the hit: read-only from the index, as this agent cannot
open a chat again once it is left (it offers no `session/load`)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, Qt

from app.main.agents.profiles import AgentProfile
from app.main.host.make import make_host
from tests.conftest import scripted_agent_argv
from tests.real_agents_support import InstalledAgent, ensure_python_sdk_examples, installed_or_fail
from tests.ui.agents.test_agents_window import hub_of
from tests.ui.terminals.panel_support import mouse_click

pytestmark = pytest.mark.real_agents

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
NONE = Qt.KeyboardModifier.NoModifier


@pytest.fixture(scope="module")
def sdk_agent() -> InstalledAgent:
    return installed_or_fail("the Python ACP SDK's example agents", ensure_python_sdk_examples)["agent.py"]


def _rows(objects, kind: str) -> list[dict]:
    return [row for row in objects.search_all.property("rows") if row["type"] == kind]


def test_what_the_sdks_example_agent_said_is_found_and_its_chat_opened_at_the_hit(ui, sdk_agent):
    async def scenario():
        hub = hub_of(
            ui.tmp_path,
            AgentProfile("scripted", "Scripted", scripted_agent_argv(), "config", "test"),
            AgentProfile("sdk-example", "SDK example", sdk_agent.argv, "config", "test"),
        )
        host = make_host(hub, data_dir=ui.tmp_path / "data")
        window = await ui.open_host(host)
        objects = window.objects
        objects.agents.newChatWith("sdk-example")
        await ui.until(lambda: hub.agent_of(objects.session.sessionKey) == "sdk-example", 30)
        sdk_chat = objects.session.sessionKey
        await ui.send_and_settle(window, "the axolotl yodels at dawn")
        objects.agents.newChatWith("scripted")
        await ui.until(lambda: objects.session.sessionKey not in ("", sdk_chat))
        await ui.send_and_settle(window, "hello from the scripted chat")
        assert await host.search.written()

        await ui.key(window, Qt.Key.Key_F, CTRL | SHIFT, "F")
        pane = await ui.until(lambda: window.root.findChild(QObject, "searchPane"))
        await ui.until(lambda: pane.property("opened"))
        await ui.keys(window, "axolotl")
        await ui.until(lambda: len(_rows(objects, "hit")) == 2)
        chats, hits = _rows(objects, "chat"), _rows(objects, "hit")
        assert [c["key"] for c in chats] == [sdk_chat]
        assert chats[0]["agent"] == hub.label_of(sdk_chat) == "Example Agent"  # as it names itself
        assert [h["kind"] for h in hits] == ["Answer", "You"]  # its "Client sent:" reply, then the prompt
        assert "Client sent:" in hits[0]["html"] and all('">axolotl</span>' in h["html"] for h in hits)

        # the newest, the agent's answer: the example agent offers no session/load, so a chat it is not
        # running any more cannot be opened through it; the index's copy is shown, read-only, at the word
        await ui.key(window, Qt.Key.Key_Return, NONE, "\r")
        await ui.until(lambda: objects.session.property("readOnly"))
        assert objects.session.property("readOnlyNote") == (
            "A chat with Example Agent, from the search index: "
            "its agent cannot open a chat again once it is left"
        )
        assert objects.notices.property("notice") == ""  # no "Could not open that session"
        await ui.until(lambda: objects.search.property("isOpen") and objects.search.property("count") >= 2)
        assert objects.search.property("query") == "axolotl" and not pane.property("opened")
        await ui.until(lambda: objects.search.property("current") == 1)
        await ui.screenshots(window, "154-search-agent-cannot-load")

        await mouse_click(ui, window, "traceClose")
        await ui.until(lambda: not objects.session.property("readOnly"))
        objects.session.openSession(sdk_chat)  # what a click on its row in the sidebar asks
        await ui.until(lambda: objects.session.property("readOnly"))
        assert objects.session.property("readOnlyNote").endswith(
            ": its agent cannot open a chat again once it is left"
        )
        assert objects.notices.property("notice") == ""

    ui.run(scenario(), timeout=120)
