"""Several agents in the real window: two chats streaming at once, each from its own agent process
(the scripted agent and the demo agent); the sidebar marks each chat's agent and filters by agent;
closing the window kills both process groups. And the keyboard alone: New chat with... (Ctrl+Shift+N)
picks the second agent, a message is sent and stopped, Settings changes the theme."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QObject, Qt

from app.main.agents.profiles import AgentProfile
from app.main.host.build import Launch, build_host
from app.main.host.make import hub_parts, make_host
from app.main.sessions.hub import AgentHub
from app.main.sessions.service import ChatService
from tests.conftest import demo_agent_argv, process_group_gone, scripted_agent_argv
from tests.ui.terminals.panel_support import mouse_click
from tests.ui.window.test_accessible_names import unnamed_controls
from tests.ui_harness import find_all, focused

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def hub_of(tmp_path: Path, *profiles: AgentProfile) -> AgentHub:
    """A hub of these agents, each a real subprocess with its own stderr log in `tmp_path`."""

    def make(profile: AgentProfile) -> ChatService:
        return ChatService(profile.command(), cwd=str(tmp_path), log_path=tmp_path / f"{profile.id}.log")

    return AgentHub(list(profiles), make, **hub_parts(tmp_path / "data"))


def two_agents(tmp_path: Path) -> AgentHub:
    return hub_of(
        tmp_path,
        AgentProfile("scripted", "Scripted", scripted_agent_argv(), "config", "test"),
        AgentProfile("demo", "Demo agent", demo_agent_argv(), "demo", "test"),
    )


def _timeline_text(objects, key: str) -> str:
    timeline = objects.session.store.timelines.get(key)
    if timeline is None:
        return ""
    return " ".join(
        "".join(getattr(part, "text", "") for part in item.parts)
        for item in timeline.items.values()
        if item.kind == "message" and item.role == "assistant"
    )


def test_two_chats_stream_at_once_each_from_its_own_agent_and_closing_kills_both(ui):
    async def scenario():
        hub = two_agents(ui.tmp_path)
        window = await ui.open_host(make_host(hub, data_dir=ui.tmp_path / "data"))
        objects = window.objects
        first = objects.session.sessionKey
        assert hub.agent_of(first) == "scripted" and "demo" not in hub._services
        await ui.type_and_send(window, "slow")
        await ui.until(lambda: "tick 2" in _timeline_text(objects, first))

        objects.agents.newChatWith("demo")
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        second = objects.session.sessionKey
        assert hub.agent_of(second) == "demo" and objects.agent.label != "Scripted"
        await ui.type_and_send(window, "slow")
        await ui.until(lambda: "slow-3/" in _timeline_text(objects, second), 20)
        ticks = _timeline_text(objects, first).count("tick")
        await ui.until(lambda: _timeline_text(objects, first).count("tick") > ticks)  # still streaming
        assert hub.is_live(first) and hub.is_live(second)
        assert "slow-" not in _timeline_text(objects, first) and "tick" not in _timeline_text(objects, second)

        rows = {row["key"]: row for row in objects.sessions.entries()}
        assert rows[first]["agentName"] == "Scripted" and rows[second]["agentName"] == "ClawQt demo agent"
        assert rows[first]["live"] and rows[second]["live"]
        listed = objects.sessions.model.rowCount()  # with the scripted agent's own canned sessions
        marks = find_all(window.root.contentItem(), "sessionAgentMark")
        assert listed > 2 and len([m for m in marks if m.property("visible")]) == listed  # every row's agent
        await ui.screenshots(window, "56-two-agents")
        assert unnamed_controls(window) == [], "two agents: the sidebar's marks, filter and chooser"

        await mouse_click(ui, window, "agentMenuButton")  # "Show the chats of…", then the demo agent
        await mouse_click(ui, window, "agentMenu_demo")
        await ui.until(lambda: objects.sessions.query == "agent:demo ")  # written into the search
        assert [row["key"] for row in objects.sessions.entries()] == [second]
        await ui.until(lambda: objects.sessions.model.rowCount() == 1)
        objects.sessions.setQuery("")  # every chat again (the search read the agents' older pages too)
        await ui.until(lambda: objects.sessions.model.rowCount() >= listed)

        pids = [hub.service(agent).connection.pid for agent in ("scripted", "demo")]
        assert all(pids) and pids[0] != pids[1]
        await objects.shutdown()  # what closing the window does
        await ui.until(lambda: all(process_group_gone(pid) for pid in pids), 5)

    ui.run(scenario(), timeout=90)


def _args(ui) -> Launch:
    return Launch(agent=" ".join(scripted_agent_argv()), cwd=str(ui.tmp_path))


def test_the_keyboard_alone_opens_a_chat_with_a_second_agent_sends_and_changes_the_theme(ui, isolated_dirs):
    config = isolated_dirs / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"agents": [{"name": "Demo", "command": " ".join(demo_agent_argv())}]}))

    async def scenario():
        host, _recorder = build_host(_args(ui))
        window = await ui.open_host(host)
        objects = window.objects
        choices = [choice.agent_id for choice in host.agents.choices()]
        assert choices[0] == "scripted-agent" and "demo" in choices
        first = objects.session.sessionKey

        await ui.key(window, Qt.Key.Key_N, CTRL | SHIFT, "N")
        picker = await ui.until(lambda: window.root.findChild(QObject, "agentPicker"))
        await ui.until(lambda: picker.property("opened"))
        await ui.until(lambda: focused(window) in ("agentList", "agentChoice"))
        await ui.screenshots(window, "55-agent-picker")
        assert unnamed_controls(window) == [], "the agent picker"
        for _ in range(choices.index("demo")):
            await ui.key(window, Qt.Key.Key_Down)
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: objects.session.sessionKey not in ("", first))
        assert host.agents.agent_of(objects.session.sessionKey) == "demo"
        assert not picker.property("visible")

        await ui.key(window, Qt.Key.Key_L, CTRL, "l")  # the composer (wherever the focus went)
        await ui.until(lambda: focused(window) == "composerInput")
        await ui.keys(window, "slow")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until(lambda: "slow-2/" in _timeline_text(objects, objects.session.sessionKey), 20)
        await ui.key(window, Qt.Key.Key_Escape)  # Stop
        await ui.until(lambda: not objects.session.busy, 10)

        await ui.key(window, Qt.Key.Key_Comma, CTRL, ",")
        dialog = window.root.findChild(QObject, "settingsDialog")
        await ui.until(lambda: dialog.property("opened"))
        await ui.until(lambda: focused(window) in ("settingsColorScheme", ""))
        await ui.key(window, Qt.Key.Key_Down)
        await ui.key(window, Qt.Key.Key_Down)
        await ui.until(lambda: objects.app.colorScheme == "dark")
        await ui.key(window, Qt.Key.Key_Escape)
        await ui.until(lambda: not dialog.property("visible"))
        saved = json.loads(config.read_text())
        assert saved["appearance"]["colorScheme"] == "dark" and saved["agents"][0]["name"] == "Demo"

        second = objects.session.sessionKey
        await ui.key(window, Qt.Key.Key_N, CTRL, "n")  # Ctrl+N: the agent used last
        await ui.until(lambda: objects.session.sessionKey not in ("", second))
        assert host.agents.agent_of(objects.session.sessionKey) == "demo"

    ui.run(scenario(), timeout=90)
