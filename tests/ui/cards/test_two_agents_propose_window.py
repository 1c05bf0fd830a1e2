"""Two chats of two agents proposing at once, in the real window: two demo agent processes; the first
agent thinks before it proposes while the user sends a message in the second chat; both cards wait for
the user and each confirmed card runs its own command in the user's bash. Before one channel per chat,
the second chat's message superseded the first chat's channel and its card never came."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from app.main.agents.profiles import AgentProfile
from app.main.host.make import make_host
from app.main.sessions.hub import AgentHub
from tests.conftest import demo_agent_argv
from tests.ui.agents.test_agents_window import hub_of
from tests.ui.cards.test_demo_agent_proposes_window import focus, short_runtime_dir  # noqa: F401

THINKS_S = 6


def two_demo_agents(tmp_path: Path) -> AgentHub:
    return hub_of(
        tmp_path,
        AgentProfile("demo-a", "Demo A", demo_agent_argv(), "demo", "test"),
        AgentProfile("demo-b", "Demo B", demo_agent_argv(), "demo", "test"),
    )


def test_two_chats_of_two_agents_propose_at_once_and_each_card_runs_its_own_command(ui, tmp_path):
    async def scenario():
        hub = two_demo_agents(tmp_path)
        window = await ui.open_host(make_host(hub, data_dir=tmp_path / "data"))
        window.root.resize(1180, 1000)
        objects = window.objects
        await ui.until(lambda: window.host.proposals.available, 15)
        terminal = objects.user_terminals.newTerminal()
        assert terminal
        await ui.until(lambda: window.host.terminals.output(terminal).rstrip().endswith(("$", "#")), 20)

        first = objects.session.sessionKey
        # the first agent thinks before it proposes: the other chat's message is sent meanwhile
        await ui.type_and_send(window, f"/propose --after {THINKS_S} touch {tmp_path / 'from-a'}")
        await ui.until(lambda: objects.session.busy, 15)
        objects.agents.newChatWith("demo-b")
        await ui.until(lambda: objects.session.sessionKey not in ("", first), 30)
        second = objects.session.sessionKey
        assert hub.agent_of(first) == "demo-a" and hub.agent_of(second) == "demo-b"
        await ui.type_and_send(window, f"/propose touch {tmp_path / 'from-b'}")
        await ui.until(lambda: ui.find(window, "proposalButton_1_0") is not None, 30)

        def waiting() -> set[str]:
            return {p.session_key for p in window.host.proposals.channels.awaiting()}

        # the second chat's message left the first chat's channel alone: its card comes too
        await ui.until(lambda: waiting() == {first, second}, THINKS_S + 20)

        await ui.frames(window, 2)
        await focus(ui, window, "proposalButton_1_0")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until((tmp_path / "from-b").exists, 15)

        objects.session.openSession(first)
        await ui.until(lambda: objects.session.sessionKey == first, 15)
        await ui.until(lambda: ui.find(window, "proposalButton_1_0") is not None, 15)
        pill = ui.item(window, "proposalStatePill").childItems()[0]
        assert pill.property("text") == "Waiting for you"
        await ui.frames(window, 2)
        await focus(ui, window, "proposalButton_1_0")
        await ui.key(window, Qt.Key.Key_Return)
        await ui.until((tmp_path / "from-a").exists, 15)
        output = window.host.terminals.output(terminal)
        assert f"touch {tmp_path / 'from-a'}" in output and f"touch {tmp_path / 'from-b'}" in output

    ui.run(scenario(), timeout=120)
