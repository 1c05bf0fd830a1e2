"""The agents the user may start a chat with, as the New chat picker and the sidebar's filter show
them: each agent's name, command line, mark (initials on its colour) and whether it runs. Ctrl+N opens
a chat with the agent used last, the picker (Ctrl+Shift+N) with the one chosen. A gateway agent with
agents of its own (OpenClaw's `main`, `work`, ...) shows one row per agent, its default first, read when
the picker opens (`loadTargets`). The list and what it means come from the `agents` host part; this
object only shows it and asks."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Property, QObject, Signal, Slot

from app.contract.agents import AgentTarget, target_of
from app.contract.envelopes import Envelope
from app.contract.host_api import AgentsHost, SessionsHost
from app.renderer.present.agent_avatar import colour_index, initials
from app.renderer.qt.common.keyed_list_model import KeyedListModel
from app.renderer.qt.common.operations import Operations
from app.renderer.qt.common.properties import value_property
from app.renderer.qt.conversation.chat_part import ChatPart
from app.renderer.qt.conversation.current_session import CurrentSession

STATE_WORDS = {"ready": "running", "sign-in": "needs sign-in", "starting": "starting", "exited": "exited"}


class AgentPicker(ChatPart):
    changed = Signal()

    def __init__(
        self,
        host: AgentsHost,
        sessions: SessionsHost,
        session: CurrentSession,
        ops: Operations,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, ops, parent)
        self._host = host
        self.model = KeyedListModel("choiceKey", self)
        self._names: dict[str, str] = {}
        self._targets: dict[str, list[AgentTarget]] = {}  # agent id -> the agents behind it
        self.refresh()
        sessions.subscribe(self._on_envelope)
        session.sessionChanged.connect(self.changed)  # the header names the shown chat's agent

    def _on_envelope(self, envelope: Envelope) -> None:
        if envelope.kind == "agents_changed":
            self.refresh()
            self.loadTargets()  # an agent that became ready may have agents behind it

    def refresh(self) -> None:
        choices = self._host.choices()
        self._names = {choice.agent_id: choice.name for choice in choices}
        entries = []
        for choice in choices:
            targets = self._targets.get(choice.agent_id, [])
            if len(targets) < 2:  # one agent behind it, or none: the agent's own row
                entries.append(self._entry(choice))
            else:
                entries.extend(self._entry(choice, target) for target in targets)
        self.model.apply(entries)
        self.changed.emit()

    @Slot()
    def loadTargets(self) -> None:
        """Ask each running agent for the agents behind it (the picker opens: the list is current)."""
        for choice in self._host.choices():
            if choice.state == "ready":
                self._ops.spawn(self._load_targets(choice.agent_id))

    async def _load_targets(self, agent_id: str) -> None:
        targets = await self._host.targets(agent_id)
        if targets != self._targets.get(agent_id, []):
            self._targets[agent_id] = targets
            self.refresh()

    def _entry(self, choice: Any, target: AgentTarget | None = None) -> dict[str, Any]:
        name = choice.name if target is None else f"{choice.name} \u00b7 {target.name}"
        return {
            "choiceKey": choice.agent_id if target is None else f"{choice.agent_id}/{target.target_id}",
            "target": "" if target is None else target.target_id,
            "targetNote": "" if target is None else ("default" if target.default else target.target_id),
            "agentId": choice.agent_id,
            "name": name,
            "profileName": choice.profile_name,
            "command": choice.command,
            "reason": choice.reason,
            "state": STATE_WORDS.get(choice.state, ""),
            "initials": initials(choice.name),
            "colourIndex": colour_index(choice.name),
            "lastUsed": choice.agent_id == self._host.last_used,
        }

    def _demo_id(self) -> str:
        """The built-in demo agent's id, when it is offered: the way on when another agent is missing."""
        return next((choice.agent_id for choice in self._host.choices() if choice.source == "demo"), "")

    def name_of(self, agent_id: str) -> str:
        return self._names.get(agent_id, "")

    @Slot(result="QVariantMap")
    def projectSettings(self) -> dict[str, str]:
        """The project settings of the shown chat's folder ({} when none): Settings > Folders says them."""
        return self._host.project_settings(self._session.workspace() or "") or {}

    @Slot(bool, result=str)
    def trustProject(self, trusted: bool) -> str:
        """Trust (or stop trusting) the folders and MCP servers the shown chat's project asks for; ""
        when done, else why not. The decision and its record are the main side's."""
        return self._host.trust_project(self._session.workspace() or "", trusted)

    def agent_of(self, session_key: str) -> str:
        return self._host.agent_of(session_key)

    def names(self) -> dict[str, str]:
        """Every offered agent's name by its id (the sidebar's `agent:` search reads them)."""
        return dict(self._names)

    def entry_of(self, agent_id: str) -> dict[str, Any] | None:
        """The agent's row as the sidebar marks a chat with it (under the agent's own name)."""
        entry = next((e for e in self.model.entries if e["agentId"] == agent_id), None)
        return None if entry is None else {**entry, "name": self._names.get(agent_id, entry["name"])}

    @Slot(str)
    def newChatWith(self, agent_id: str) -> None:
        self._ops.spawn(self._session.new_chat(agent_id))

    @Slot(str, str)
    def newChatWithTarget(self, agent_id: str, target: str) -> None:
        """A new chat with one of the agents behind `agent_id` ("" for its default)."""
        self._ops.spawn(self._session.new_chat(agent_id, target))

    agentModel = Property(QObject, lambda self: self.model, constant=True)

    def shown_target(self) -> str:
        """The name of the agent behind a gateway agent the chat shown goes to ("" when its agent has
        no agents behind it: the header then says nothing more)."""
        key = self._session.sessionKey
        targets = self._targets.get(self._host.agent_of(key), [])
        target = target_of(key)
        if len(targets) < 2 or not target:
            return ""
        return next((t.name for t in targets if t.target_id == target), target)

    count = value_property(int, lambda self: len(self._names), notify=changed)
    shownTarget = Property(str, shown_target, notify=changed)
    choiceCount = Property(int, lambda self: self.model.rowCount(), notify=changed)  # the picker's rows
    lastUsed = Property(str, lambda self: self._host.last_used, notify=changed)
    lastUsedRow = Property(
        int,
        lambda self: next(
            (i for i, e in enumerate(self.model.entries) if e["agentId"] == self._host.last_used), 0
        ),
        notify=changed,
    )
    filterChoices = Property(
        list,
        lambda self: (
            [{"value": "", "text": "All agents"}]
            + [{"value": agent_id, "text": name} for agent_id, name in self._names.items()]
        ),
        notify=changed,
    )
    lastUsedName = Property(str, lambda self: self._names.get(self._host.last_used, ""), notify=changed)
    demoAgentId = Property(str, _demo_id, notify=changed)
